import { RateDecision, RateLimiter } from './rate-limit';

const T0 = 1_767_225_600_000;

/** Takes n requests for id at one instant and returns the decisions. */
function burst(limiter: RateLimiter, id: string, n: number, now = T0): RateDecision[] {
  return Array.from({ length: n }, () => limiter.take(id, now));
}

/** sweep() only frees memory; the bucket map is private, so peek at its size. */
function bucketCount(limiter: RateLimiter): number {
  return (limiter as unknown as { buckets: Map<string, unknown> }).buckets.size;
}

describe('RateLimiter at 600 per minute', () => {
  it('lets 600 immediate requests through and refuses the 601st with Retry-After of at least 1 s', () => {
    const limiter = new RateLimiter(600);
    expect(burst(limiter, 'key', 600).every((d) => d.ok && d.retryAfterS === 0)).toBe(true);
    const refused = limiter.take('key', T0);
    expect(refused.ok).toBe(false);
    expect(refused.retryAfterS).toBeGreaterThanOrEqual(1);
  });

  it.each<[number, boolean]>([
    [0, false],
    [50, false],
    [99, false],
    [100, true],
    [150, true],
  ])('after an emptied bucket, a request %i ms later is allowed: %s', (delayMs, ok) => {
    const limiter = new RateLimiter(600);
    burst(limiter, 'key', 600);
    expect(limiter.take('key', T0 + delayMs).ok).toBe(ok);
  });

  it('refills one token per 100 ms, so only one request passes after 100 ms', () => {
    const limiter = new RateLimiter(600);
    burst(limiter, 'key', 600);
    expect(burst(limiter, 'key', 2, T0 + 100).map((d) => d.ok)).toEqual([true, false]);
  });

  it('refills the whole minute after a minute of silence, and never beyond it', () => {
    const limiter = new RateLimiter(600);
    burst(limiter, 'key', 600);
    const later = T0 + 10 * 60_000;
    expect(burst(limiter, 'key', 600, later).every((d) => d.ok)).toBe(true);
    expect(limiter.take('key', later).ok).toBe(false);
  });

  it.each<[number, number]>([
    [60, 1],
    [6, 10],
    [1, 60],
  ])('at %i per minute an emptied bucket says retry after %i s', (perMinute, retryAfterS) => {
    const limiter = new RateLimiter(perMinute);
    burst(limiter, 'key', perMinute);
    expect(limiter.take('key', T0)).toEqual({ ok: false, retryAfterS });
  });

  it('keeps separate callers independent', () => {
    const limiter = new RateLimiter(600);
    burst(limiter, 'a', 600);
    expect(limiter.take('a', T0).ok).toBe(false);
    expect(burst(limiter, 'b', 600).every((d) => d.ok)).toBe(true);
  });

  it('does not add tokens when the clock goes backwards', () => {
    const limiter = new RateLimiter(600);
    burst(limiter, 'key', 600);
    expect(limiter.take('key', T0 - 60_000).ok).toBe(false);
  });

  it('sweep drops buckets once they are full again and keeps the ones still refilling', () => {
    const limiter = new RateLimiter(600);
    burst(limiter, 'drained', 600);
    limiter.take('light', T0);
    limiter.sweep(T0 + 50);
    expect(bucketCount(limiter)).toBe(2);
    limiter.sweep(T0 + 100);
    expect(bucketCount(limiter)).toBe(1);
    limiter.sweep(T0 + 59_999);
    expect(bucketCount(limiter)).toBe(1);
    limiter.sweep(T0 + 60_000);
    expect(bucketCount(limiter)).toBe(0);
  });

  it('starts a swept caller with a full bucket again', () => {
    const limiter = new RateLimiter(600);
    burst(limiter, 'key', 600);
    limiter.sweep(T0 + 60_000);
    expect(burst(limiter, 'key', 600, T0 + 60_000).every((d) => d.ok)).toBe(true);
    expect(limiter.take('key', T0 + 60_000).ok).toBe(false);
  });
});

describe('RateLimiter over a longer period', () => {
  it('allows 3 in an hour, then one more each 20 minutes', () => {
    const limiter = new RateLimiter(3, 3_600_000);
    expect(burst(limiter, 'a', 3).every((d) => d.ok)).toBe(true);
    expect(limiter.take('a', T0)).toEqual({ ok: false, retryAfterS: 1200 });
    expect(limiter.take('a', T0 + 20 * 60_000).ok).toBe(true);
    expect(limiter.take('a', T0 + 20 * 60_000).ok).toBe(false);
  });
});
