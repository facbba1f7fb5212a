/** Counts events over the last 60 seconds in one-second buckets (checks per minute, rows per minute). */
export class MinuteCounter {
  private readonly perSecond = new Map<number, number>();

  add(nowMs: number, n = 1): void {
    const second = Math.floor(nowMs / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + n);
    if (this.perSecond.size > 120) this.count(nowMs);
  }

  /** Events in the 60 seconds ending now; older buckets are dropped on the way. */
  count(nowMs: number): number {
    const now = Math.floor(nowMs / 1000);
    let n = 0;
    for (const [second, count] of this.perSecond) {
      if (second > now - 60) n += count;
      else this.perSecond.delete(second);
    }
    return n;
  }
}
