/**
 * One timer that wakes its owner at the earliest moment asked for: a later request while an
 * earlier wake is armed changes nothing; an earlier one replaces it. The alert and subscriber
 * dispatchers wake this way for their next due message.
 */
import type { Clock } from './clock';

/** The timers of engine/scheduling (structurally: set and clear). */
interface WakeTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export class WakeTimer {
  private handle: unknown = null;
  private at = Infinity;
  private stopped = false;

  constructor(
    private readonly timers: WakeTimers,
    private readonly clock: Clock,
    private readonly fire: () => void,
  ) {}

  /** Wakes at `at` (ms since the epoch) unless an earlier wake is armed, or the timer is stopped. */
  schedule(at: number): void {
    if (this.stopped || at >= this.at) return;
    if (this.handle !== null) this.timers.clear(this.handle);
    this.at = at;
    this.handle = this.timers.set(
      () => {
        this.handle = null;
        this.at = Infinity;
        this.fire();
      },
      Math.max(0, at - this.clock.now()),
    );
  }

  /** No wake from now on. */
  stop(): void {
    this.stopped = true;
    if (this.handle !== null) this.timers.clear(this.handle);
    this.handle = null;
  }
}
