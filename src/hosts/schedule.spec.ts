import { HOUR_MS } from './backoff';
import { MINUTE_MS, nextCheckAt, RENEW_BEFORE_MS, renewalDue, ScheduleFacts } from './schedule';

const NOW = 1_000_000_000_000;
const DAY = 24 * HOUR_MS;
const f = (x: Partial<ScheduleFacts>): ScheduleFacts => ({
  state: 'checking',
  now: NOW,
  since: NOW,
  notAfter: null,
  retryAt: null,
  ...x,
});

describe('schedule of re-checks', () => {
  it.each<[string, Partial<ScheduleFacts>, number | null]>([
    ['not managed: never', { state: 'not_managed' }, null],
    ['an order runs: never', { state: 'certificate' }, null],
    ['a failed lookup: a minute', { state: 'checking' }, NOW + MINUTE_MS],
    [
      'lookups failing for over an hour: 30 minutes',
      { state: 'checking', since: NOW - 2 * HOUR_MS },
      NOW + 30 * MINUTE_MS,
    ],
    ['dns_missing, fresh: 5 minutes', { state: 'dns_missing', since: NOW - 10 * MINUTE_MS }, NOW + 5 * MINUTE_MS],
    [
      'dns_elsewhere after an hour: 30 minutes',
      { state: 'dns_elsewhere', since: NOW - 2 * HOUR_MS },
      NOW + 30 * MINUTE_MS,
    ],
    ['proxied after an hour: 30 minutes', { state: 'proxied', since: NOW - HOUR_MS }, NOW + 30 * MINUTE_MS],
    ['failed: when the wait runs out', { state: 'failed', retryAt: NOW + 2 * HOUR_MS }, NOW + 2 * HOUR_MS],
    ['failed, wait over: 5 minutes', { state: 'failed', retryAt: NOW - HOUR_MS }, NOW + 5 * MINUTE_MS],
    ['live, far from expiry: 12 hours', { state: 'live', notAfter: NOW + 90 * DAY }, NOW + 12 * HOUR_MS],
    ['live, the renewal window opens sooner', { state: 'live', notAfter: NOW + 30 * DAY + HOUR_MS }, NOW + HOUR_MS],
    [
      'live, renewal due, waiting: when the wait runs out',
      { state: 'live', notAfter: NOW + 10 * DAY, retryAt: NOW + 4 * HOUR_MS },
      NOW + 4 * HOUR_MS,
    ],
    [
      'live, renewal due, long wait: still looked at every 12 hours',
      { state: 'live', notAfter: NOW + 10 * DAY, retryAt: NOW + DAY },
      NOW + 12 * HOUR_MS,
    ],
  ])('%s', (_name, facts, at) => {
    expect(nextCheckAt(f(facts))).toBe(at);
  });

  it.each([
    [null, false],
    [NOW + RENEW_BEFORE_MS + 1, false],
    [NOW + RENEW_BEFORE_MS, true],
    [NOW - 1, true],
  ])('renewal due for a certificate expiring at %p: %p', (notAfter, due) => {
    expect(renewalDue(notAfter, NOW)).toBe(due);
  });
});
