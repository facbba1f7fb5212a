/**
 * How long a dashboard session lives (docs/security.md "Sessions"). Pure.
 *
 * - Idle: 14 days without a request ends it, so a browser left behind somewhere does not stay
 *   signed in for long.
 * - Absolute: 30 days after its sign-in it ends however busy it was, so a stolen cookie is worth a
 *   month at most and every session proves itself again at least monthly.
 * The row's `expires_at` is whichever comes first; it moves on with use (coalesced to a write a
 * minute) but never past the absolute end.
 */
export const SESSION_IDLE_MS = 14 * 24 * 3600_000;
export const SESSION_MAX_MS = 30 * 24 * 3600_000;

export function sessionExpiry(createdAt: number, seenAt: number): number {
  return Math.min(seenAt + SESSION_IDLE_MS, createdAt + SESSION_MAX_MS);
}
