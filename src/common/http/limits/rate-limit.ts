/**
 * A token bucket per caller: `perMinute` requests a minute (or per `periodMs`, for slower limits
 * such as subscriptions per hour), refilled continuously, so a burst of the whole period's
 * allowance is possible but the average stays bounded. Time comes from the caller.
 */
export interface RateDecision {
  ok: boolean;
  /** Whole seconds until the next request would be allowed (0 when ok). */
  retryAfterS: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    periodMs = 60_000,
  ) {
    this.perMs = perMinute / periodMs;
  }

  take(id: string, now: number): RateDecision {
    const b = this.buckets.get(id) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + Math.max(0, now - b.at) * this.perMs);
    b.at = now;
    this.buckets.set(id, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true, retryAfterS: 0 };
    }
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000)) };
  }

  /** Drops full buckets so the map does not grow with callers that went away. */
  sweep(now: number): void {
    for (const [id, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.perMinute) this.buckets.delete(id);
    }
  }
}
