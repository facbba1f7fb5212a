/**
 * The engine's view of maintenance windows: every window, which are active now, and one timer for
 * the next boundary (a start or an end), so a window's state changes at its boundary, like a due
 * check, and no schedule is evaluated at a check (docs/maintenance.md, "In the engine").
 *
 * 1. put()/remove() (after the API's commit) and the timer call evaluate().
 * 2. evaluate() compares each window's activity now with what it was; the engine's `changed`
 *    hook hears the windows that started and ended (in id order), and writes and announces them.
 * 3. The timer is armed for the earliest next boundary of any window (nextBoundary, pure).
 * No Nest, no database: the engine plugs it in.
 */
import type { Clock } from '../../common/clock';
import type { MaintenanceMark } from '../../probes/status';
import type { Timers } from '../scheduling/scheduler';
import { currentOf, nextBoundary, OpenSpan } from './window-state';
import type { WindowRow } from './windows.table';

/**
 * What one evaluation found: windows that started, that ended (a deleted active window ends too),
 * and active windows that were edited (as they were before: the monitors they covered then are
 * looked at again, as are those they cover now).
 */
export interface BookChanges {
  started: WindowChange[];
  ended: WindowChange[];
  edited: { before: WindowRow; after: WindowRow }[];
}

export interface WindowChange {
  window: WindowRow;
  /** The span it is active for (started), or null (ended). */
  span: OpenSpan | null;
}

/** Setting a timer further ahead than this overflows Node's 32-bit delay: wake and look again. */
const MAX_DELAY = 2 ** 31 - 1;

export class MaintenanceBook {
  private readonly windows = new Map<number, WindowRow>();
  /** The active windows, each as it was when it started or last changed (a deleted one still ends). */
  private readonly active = new Map<number, WindowChange>();
  private timer: unknown = null;
  private wakeAt: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly changed: (c: BookChanges, now: number) => void,
  ) {}

  /** At start: the windows as stored; those active now are active without a line (they were before). */
  load(rows: readonly WindowRow[]): void {
    const now = this.clock.now();
    for (const w of rows) {
      this.windows.set(w.id, w);
      const span = currentOf(w, now);
      if (span) this.active.set(w.id, { window: w, span });
    }
    this.arm(now);
  }

  put(w: WindowRow): void {
    this.windows.set(w.id, w);
    this.evaluate();
  }

  remove(id: number): void {
    this.windows.delete(id);
    this.evaluate();
  }

  /** A deleted monitor leaves the windows that name it (the table's rows changed in its transaction). */
  dropMonitor(monitorId: number): void {
    for (const w of this.windows.values()) {
      if (w.monitors?.includes(monitorId)) w.monitors = w.monitors.filter((id) => id !== monitorId);
    }
  }

  /** The window holding this monitor now (the one ending last), or null. */
  markOf(monitorId: number): MaintenanceMark | null {
    let best: MaintenanceMark | null = null;
    for (const [id, { span }] of this.active) {
      const w = this.windows.get(id);
      if (!w || !span || !covers(w, monitorId)) continue;
      if (!best || (best.ends_at !== null && (span.end === null || span.end > best.ends_at)))
        best = { window_id: id, title: w.title, ends_at: span.end };
    }
    return best;
  }

  /**
   * The window that held this monitor at `at` (the one ending last), by the windows as they stand
   * now, or null: for a result that reaches the service after the fact (an agent's spool sent
   * after a cut), whose time the windows active now do not describe. A window's hand start and
   * stop are known only as last set, so an older hand-started period is not seen.
   */
  markAt(monitorId: number, at: number): MaintenanceMark | null {
    let best: MaintenanceMark | null = null;
    for (const [id, w] of this.windows) {
      const span = covers(w, monitorId) ? currentOf(w, at) : null;
      if (!span) continue;
      if (!best || (best.ends_at !== null && (span.end === null || span.end > best.ends_at)))
        best = { window_id: id, title: w.title, ends_at: span.end };
    }
    return best;
  }

  /** How many windows are active now (diagnostics, the bench). */
  get activeCount(): number {
    return this.active.size;
  }

  /** Compares every window's activity now with what it was; the hook hears the changes. */
  evaluate(): void {
    const now = this.clock.now();
    const started: WindowChange[] = [];
    const ended: WindowChange[] = [];
    const edited: BookChanges['edited'] = [];
    for (const [id, was] of this.active) {
      if (this.windows.has(id)) continue;
      this.active.delete(id);
      ended.push({ window: was.window, span: null });
    }
    for (const w of [...this.windows.values()].sort((a, b) => a.id - b.id)) {
      const span = currentOf(w, now);
      const was = this.active.get(w.id);
      if (span && !was) started.push({ window: w, span });
      if (!span && was) ended.push({ window: was.window, span: null });
      if (span && was && was.window !== w) edited.push({ before: was.window, after: w });
      if (span) this.active.set(w.id, { window: w, span });
      else this.active.delete(w.id);
    }
    if (started.length || ended.length || edited.length) this.changed({ started, ended, edited }, now);
    this.arm(now);
  }

  /** The timer's work, for tests whose timers never fire by themselves (engine.tick()). */
  tick(): void {
    if (this.wakeAt !== null && this.wakeAt <= this.clock.now()) this.evaluate();
  }

  stop(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }

  private arm(now: number): void {
    let next: number | null = null;
    for (const w of this.windows.values()) {
      const b = nextBoundary(w, now);
      if (b !== null && (next === null || b < next)) next = b;
    }
    if (next === this.wakeAt && this.timer !== null) return;
    this.stop();
    this.wakeAt = next;
    if (next === null) return;
    this.timer = this.timers.set(
      () => {
        this.timer = null;
        this.evaluate();
      },
      Math.min(MAX_DELAY, Math.max(0, next - now)),
    );
  }
}

/** Whether a window covers a monitor (null: every monitor). */
export function covers(w: Pick<WindowRow, 'monitors'>, monitorId: number): boolean {
  return w.monitors === null || w.monitors.includes(monitorId);
}
