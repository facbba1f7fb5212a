/**
 * One due-time heap for every monitor and one timer for the earliest due time, never a timer per
 * monitor. `run(id)` does the work and answers when the monitor is next due (ms from now), or null
 * to drop it. A concurrency limit protects the machine; lateness (started minus due) is measured.
 * No Nest, no database: the engine plugs the work in.
 */
import type { Clock } from '../../common/clock';
import { DueHeap } from './due-heap';

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Timers that never fire by themselves: tests call tick() after moving a fake clock. */
export const manualTimers: Timers = { set: () => null, clear: () => undefined };

export interface SchedulerOptions {
  clock: Clock;
  timers: Timers;
  concurrency: number;
  run: (id: number) => Promise<number | null>;
  onError?: (id: number, err: unknown) => void;
}

const LATENESS_SAMPLES = 4096;

export class Scheduler {
  private readonly heap = new DueHeap();
  private readonly running = new Map<number, Promise<void>>();
  /** Monitors changed or removed while their check ran: their next due time is decided again. */
  private readonly touched = new Map<number, number | null>();
  private timer: unknown = null;
  private timerDue = Infinity;
  private stopped = false;
  /** While held (since this time), monitors are scheduled but no check starts (hold()). */
  private heldSince: number | null = null;
  private readonly lateness = new Float64Array(LATENESS_SAMPLES);
  private samples = 0;
  started = 0;

  constructor(private readonly o: SchedulerOptions) {}

  get size(): number {
    return this.heap.size + this.running.size;
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Schedules (or reschedules) a monitor at an absolute time. */
  at(id: number, due: number): void {
    if (this.running.has(id)) this.touched.set(id, due);
    // While held (a start loading every monitor), put in order once at release.
    else if (this.heldSince !== null) this.heap.load(id, due);
    else this.heap.set(id, due);
    this.arm();
  }

  remove(id: number): void {
    if (this.running.has(id)) this.touched.set(id, null);
    this.heap.remove(id);
  }

  /** Whether this monitor's check is running now. */
  isRunning(id: number): boolean {
    return this.running.has(id);
  }

  dueOf(id: number): number | undefined {
    return this.heap.dueOf(id);
  }

  /** Until release(), monitors are scheduled but no check starts (the timer is not armed). */
  hold(): void {
    this.heldSince ??= this.o.clock.now();
    if (this.timer !== null) this.o.timers.clear(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
  }

  /**
   * Checks start again, every due time moved by the time held: what was spread over an interval
   * from the moment of hold() is spread from now, and no burst of checks that fell due meanwhile
   * starts at once.
   */
  release(): void {
    if (this.heldSince === null) return;
    this.heap.delayAll(Math.max(0, this.o.clock.now() - this.heldSince));
    this.heldSince = null;
    this.tick();
  }

  /** Starts every due check the concurrency limit allows, then re-arms the timer. */
  tick(): void {
    if (this.stopped || this.heldSince !== null) return;
    const now = this.o.clock.now();
    while (this.running.size < this.o.concurrency) {
      const entry = this.heap.popDue(now);
      if (!entry) break;
      this.recordLateness(now - entry.due);
      this.started += 1;
      const job = this.execute(entry.id).finally(() => {
        this.running.delete(entry.id);
        if (!this.stopped) {
          this.arm();
          // A freed slot may let a waiting due check start at once.
          if (this.running.size < this.o.concurrency && (this.heap.peek()?.due ?? Infinity) <= this.o.clock.now())
            this.tick();
        }
      });
      this.running.set(entry.id, job);
    }
    this.arm();
  }

  /** Waits for every running check (each is bounded by its own timeout). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.o.timers.clear(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** p50, p99 and max of recent lateness, in ms. */
  latenessStats(): { p50: number; p99: number; max: number; samples: number } {
    const n = Math.min(this.samples, LATENESS_SAMPLES);
    if (n === 0) return { p50: 0, p99: 0, max: 0, samples: 0 };
    const sorted = Array.from(this.lateness.subarray(0, n)).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(n - 1, Math.floor(q * n))];
    return { p50: at(0.5), p99: at(0.99), max: sorted[n - 1], samples: this.samples };
  }

  private async execute(id: number): Promise<void> {
    let next: number | null;
    try {
      next = await this.o.run(id);
    } catch (err) {
      this.o.onError?.(id, err);
      next = 60_000;
    }
    if (this.touched.has(id)) {
      const due = this.touched.get(id) ?? null;
      this.touched.delete(id);
      if (due !== null) this.heap.set(id, due);
      return;
    }
    if (next !== null && !this.stopped) this.heap.set(id, this.o.clock.now() + next);
  }

  private recordLateness(ms: number): void {
    this.lateness[this.samples % LATENESS_SAMPLES] = Math.max(0, ms);
    this.samples += 1;
  }

  private arm(): void {
    if (this.stopped || this.heldSince !== null) return;
    const next = this.heap.peek();
    const due = next ? next.due : Infinity;
    if (due >= this.timerDue && this.timer !== null) return;
    if (this.timer !== null) this.o.timers.clear(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
    if (!next) return;
    this.timerDue = due;
    this.timer = this.o.timers.set(
      () => {
        this.timer = null;
        this.timerDue = Infinity;
        this.tick();
      },
      Math.max(0, due - this.o.clock.now()),
    );
  }
}

/** Where a monitor's first check falls after a start: spread evenly over its interval (golden ratio), no burst. */
export function spreadOffset(id: number, intervalMs: number): number {
  const frac = (id * 0.6180339887498949) % 1;
  return Math.floor(frac * intervalMs);
}

/**
 * After a monitor's first check following a change (created, resumed, re-timed), the delay to its
 * next one: the time in [half an interval, one and a half intervals) from now that falls on its own
 * phase, spreadOffset(id) past a multiple of the interval since the epoch. Monitors created together
 * (ids in a row) land spread over the interval, as a start spreads them, instead of checking together
 * forever; the gap after the first check is never under half an interval.
 */
export function phaseDelay(id: number, intervalMs: number, now: number): number {
  const offset = spreadOffset(id, intervalMs);
  const earliest = now + Math.floor(intervalMs / 2);
  const k = Math.ceil((earliest - offset) / intervalMs);
  return k * intervalMs + offset - now;
}

/** Changes of one monitor each (a create, a resume, a new interval or target) this close together are a burst. */
export const BURST_WINDOW_MS = 2_000;
/** The first this-many changes of a burst keep their cadence; the ones after are spread (phaseDelay). */
export const BURST_FREE = 4;

/**
 * Whether a change of one monitor is part of a burst of them: a script's loop of POST /monitors,
 * the dashboard resuming 500 selected monitors one request each. A change on its own keeps the
 * cadence its owner expects (the next check one interval after the first); in a burst the ones
 * past BURST_FREE get their own phase, as a bulk create's do. Remembers the times of the changes
 * of the last BURST_WINDOW_MS only.
 */
export class BurstGauge {
  private readonly times: number[] = [];

  /** Records a change at `now`; true when it is past the first BURST_FREE of its burst. */
  note(now: number): boolean {
    while (this.times.length > 0 && now - this.times[0] >= BURST_WINDOW_MS) this.times.shift();
    this.times.push(now);
    return this.times.length > BURST_FREE;
  }
}
