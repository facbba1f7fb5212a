/**
 * One deadline per check. A single timer covers every phase (DNS, connect, TLS, headers, body) so
 * a check can never outlive timeout_ms, whichever phase hangs.
 */

/**
 * Runs `probe` with a signal that aborts at the deadline. On expiry the promise resolves at once
 * with `onTimeout()`: the probe must release its sockets or child process when the signal aborts,
 * and whatever it settles with afterwards is ignored.
 */
export function withDeadline<T>(
  timeoutMs: number,
  probe: (signal: AbortSignal) => Promise<T>,
  onTimeout: () => T,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      resolve(onTimeout());
    }, timeoutMs);
    probe(controller.signal).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Milliseconds since `start` (a performance.now() reading), to 0.1 ms. */
export function msSince(start: number): number {
  return roundMs(performance.now() - start);
}

/** Durations are reported to 0.1 ms: loopback round trips are well under 1 ms. */
function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Measures consecutive phases: each call returns the time since the previous call. */
export function lapTimer(): () => number {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const lap = now - last;
    last = now;
    return roundMs(lap);
  };
}
