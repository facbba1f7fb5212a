/**
 * One deadline per check. A single timer covers every phase (DNS, connect, TLS, headers, body) so
 * a check can never outlive timeout_ms, whichever phase hangs.
 */

/**
 * What a probe knows of its deadline: whether it has passed, and a way to release its sockets or
 * child process when it does. Lighter than an AbortSignal: an AbortController per check, and
 * node:http's listeners on its signal, were about 8 % of an http check's CPU. A probe that needs
 * a real AbortSignal (execFile) makes one from it.
 */
export interface Deadline {
  readonly expired: boolean;
  /** Runs `release` when the deadline passes, or at once when it has passed. */
  onExpire(release: () => void): void;
}

class DeadlineTimer implements Deadline {
  expired = false;
  private releases: (() => void)[] | null = null;

  onExpire(release: () => void): void {
    if (this.expired) release();
    else (this.releases ??= []).push(release);
  }

  expire(): void {
    this.expired = true;
    const releases = this.releases ?? [];
    this.releases = null;
    for (const release of releases) release();
  }
}

/**
 * Runs `probe` with a deadline. On expiry the promise resolves at once with `onTimeout()`: the
 * probe must release its sockets or child process when the deadline passes (Deadline.onExpire),
 * and whatever it settles with afterwards is ignored.
 */
export function withDeadline<T>(
  timeoutMs: number,
  probe: (deadline: Deadline) => Promise<T>,
  onTimeout: () => T,
): Promise<T> {
  const deadline = new DeadlineTimer();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        deadline.expire();
      } finally {
        resolve(onTimeout());
      }
    }, timeoutMs);
    probe(deadline).then(
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
