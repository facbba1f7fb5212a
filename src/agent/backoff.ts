/**
 * How long the agent waits before it asks the service again after a failure: doubling from
 * BACKOFF_FIRST_MS up to BACKOFF_CAP_MS, each wait drawn at random from its upper half ("equal
 * jitter"), so agents cut off together (a service restart, an uplink back) do not all return in
 * the same second. Pure: the random draw is passed in.
 */
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_CAP_MS = 60_000;

/** The wait before try number `failures + 1` (failures ≥ 1), given a draw in [0, 1). */
export function backoffMs(failures: number, random: number, capMs = BACKOFF_CAP_MS): number {
  const ceiling = Math.min(capMs, BACKOFF_FIRST_MS * 2 ** Math.min(30, Math.max(0, failures - 1)));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random, 0), 1));
}

/** Failures in a row of one kind of request, and the wait they call for. */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly random: () => number = Math.random,
    private readonly capMs = BACKOFF_CAP_MS,
  ) {}

  /** A failure: the wait before the next try. */
  fail(): number {
    this.failures += 1;
    return backoffMs(this.failures, this.random(), this.capMs);
  }

  succeed(): void {
    this.failures = 0;
  }

  get inARow(): number {
    return this.failures;
  }
}

/** A server's Retry-After carried by an error (ServerError.retryAfterMs), or 0: a wait is never shorter. */
export function retryAfterOf(err: unknown): number {
  const ms = (err as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof ms === 'number' && ms > 0 ? ms : 0;
}
