/** Polls every 50 ms until check() answers something other than null/false; fails after `ms`, naming `what`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | false> | T | null | false,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
