/**
 * When the background loop looks at a host again (docs/custom-hosts.md, "Schedule"). Pure.
 *   checking (a lookup failed)           1 minute during the hour after the state began, then 30 minutes
 *   dns_missing, dns_elsewhere, proxied  5 minutes during the hour after the state began, then 30 minutes
 *   failed                               when its back-off wait runs out (at least 5 minutes on)
 *   live                                 every 12 hours, and at the start of the renewal window
 *                                        (30 days before expiry); within it, when a wait runs out
 *   certificate                          never: the running order decides what comes next
 *   not_managed                          never
 */
import { HOUR_MS, SOON_MS } from './backoff';
import type { DomainState } from './domain-state';

export const MINUTE_MS = 60_000;
export const RENEW_BEFORE_MS = 30 * 24 * HOUR_MS;
export const LIVE_RECHECK_MS = 12 * HOUR_MS;
const PENDING_FAST_MS = 5 * MINUTE_MS;
const PENDING_SLOW_MS = 30 * MINUTE_MS;

export interface ScheduleFacts {
  state: DomainState;
  now: number;
  /** When the current state began. */
  since: number;
  /** The certificate's expiry, when there is one. */
  notAfter: number | null;
  /** The end of a back-off wait, when one was set. */
  retryAt: number | null;
}

export function renewalDue(notAfter: number | null, now: number): boolean {
  return notAfter !== null && now >= notAfter - RENEW_BEFORE_MS;
}

export function nextCheckAt(f: ScheduleFacts): number | null {
  const waitEnd = Math.max(f.retryAt ?? 0, f.now + SOON_MS);
  switch (f.state) {
    case 'not_managed':
    case 'certificate':
      return null;
    case 'checking':
      return f.now + (f.now - f.since < HOUR_MS ? MINUTE_MS : PENDING_SLOW_MS);
    case 'dns_missing':
    case 'dns_elsewhere':
    case 'proxied':
      return f.now + (f.now - f.since < HOUR_MS ? PENDING_FAST_MS : PENDING_SLOW_MS);
    case 'failed':
      return waitEnd;
    case 'live': {
      if (f.notAfter === null) return f.now + MINUTE_MS;
      const renewAt = f.notAfter - RENEW_BEFORE_MS;
      if (f.now >= renewAt) return Math.min(waitEnd, f.now + LIVE_RECHECK_MS);
      return Math.min(renewAt, f.now + LIVE_RECHECK_MS);
    }
  }
}
