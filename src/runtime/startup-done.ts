/**
 * Tells whoever launched the service that start-up is done (the service listens, the engine has
 * loaded its monitors). `node dist/main.js` writes its code cache then (src/launcher.ts); in
 * the single executable and in tests nobody listens and this does nothing.
 */
export const STARTED_HOOK = Symbol.for('farsight.startup-done');

export function startupDone(): void {
  const hook = (globalThis as Record<symbol, unknown>)[STARTED_HOOK];
  if (typeof hook === 'function') (hook as () => void)();
}
