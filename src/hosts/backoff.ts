/**
 * When a host may order a certificate again after failed orders (spec "Domain state"): the first
 * two failures in a row wait a few minutes, the third and each one after it wait 1 hour, then 2,
 * 4, ... up to one day. A CA's Retry-After (a rate limit) is waited out when it is longer. Pure.
 */

export const SOON_MS = 5 * 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Failed orders in a row before the waits grow by the hour. */
export const FREE_FAILURES = 3;

/** How long to wait after the `failures`-th failed order in a row (failures >= 1). */
export function waitAfter(failures: number): number {
  if (failures < FREE_FAILURES) return SOON_MS;
  return Math.min(HOUR_MS * 2 ** (failures - FREE_FAILURES), DAY_MS);
}

/** The moment the next order may start, after a failure at `failedAt`. */
export function retryAt(failures: number, failedAt: number, retryAfterMs: number | null): number {
  return failedAt + Math.max(waitAfter(failures), retryAfterMs ?? 0);
}
