/**
 * The monitors the engine holds, and how each looks to readers: the live records (LiveMonitor),
 * each one's state as answers show it, and which running checks still count.
 */
import type { MonitorState } from '../../probes/status';
import type { Outcome } from '../../probes/check-result';
import { LiveMonitor, toMonitorState } from './live-monitor';

export type CheckCounts = Record<Outcome, number>;
const NO_CHECKS: Readonly<CheckCounts> = Object.freeze({ up: 0, down: 0, slow: 0, unknown: 0 });

export class LiveSet {
  private readonly live = new Map<number, LiveMonitor>();
  /**
   * Per monitor, a count of the changes that make a running check's result meaningless: created,
   * paused, resumed, its target changed. Other edits (a name, a description) replace the live
   * object too, but a check that was running meanwhile still counts.
   */
  private readonly targetEpoch = new Map<number, number>();
  /**
   * Each monitor's state as answers show it, fresher than its row (rows are written with the next
   * batch). A new object on every change, so readers may cache by identity.
   */
  private readonly states = new Map<number, MonitorState>();
  /**
   * Results counted per monitor since the start, by outcome (GET /metrics' farsight_checks_total):
   * kept beside the records, which a configuration change replaces, and dropped with the monitor.
   */
  private readonly counts = new Map<number, CheckCounts>();
  /** Moves whenever a monitor is added, replaced or deleted: readers that keep an order by it know when to sort again. */
  private version = 0;

  get(id: number): LiveMonitor | undefined {
    return this.live.get(id);
  }

  /** Every monitor held (for the rare walk over all: an outage's end releasing its dependants). */
  all(): IterableIterator<LiveMonitor> {
    return this.live.values();
  }

  get size(): number {
    return this.live.size;
  }

  ids(): IterableIterator<number> {
    return this.live.keys();
  }

  /** A monitor loaded or created: held from now on, its answer made afresh. */
  add(m: LiveMonitor): void {
    this.version += 1;
    this.live.set(m.id, m);
    this.states.delete(m.id);
  }

  /** The record replaced by one with another configuration and the same state: its answer stays until a change. */
  replace(m: LiveMonitor): void {
    this.version += 1;
    this.live.set(m.id, m);
  }

  /** The monitor's state changed: answers show it from the next read. */
  changed(id: number): void {
    this.states.delete(id);
  }

  delete(id: number): void {
    this.version += 1;
    this.counts.delete(id);
    this.live.delete(id);
    this.targetEpoch.delete(id);
    this.states.delete(id);
  }

  /** Every monitor held, in no particular order. */
  values(): IterableIterator<LiveMonitor> {
    return this.live.values();
  }

  /** See `version`: equal numbers mean the same monitors with the same configurations. */
  get changes(): number {
    return this.version;
  }

  /** One more result of this outcome for the monitor. */
  count(id: number, outcome: Outcome): void {
    let c = this.counts.get(id);
    if (!c) {
      c = { up: 0, down: 0, slow: 0, unknown: 0 };
      this.counts.set(id, c);
    }
    c[outcome] += 1;
  }

  /** The monitor's results by outcome since the start (zeros before its first). */
  countsOf(id: number): Readonly<CheckCounts> {
    return this.counts.get(id) ?? NO_CHECKS;
  }

  /** A monitor's live state; undefined before the engine has loaded it. */
  stateOf(id: number): MonitorState | undefined {
    let state = this.states.get(id);
    if (state) return state;
    const m = this.live.get(id);
    if (!m) return undefined;
    // Made at the first read after a change and kept until the next (readers compare it by identity).
    state = toMonitorState(m);
    this.states.set(id, state);
    return state;
  }

  /** A running check of this monitor no longer counts (stillCurrent). */
  newTarget(id: number): void {
    this.targetEpoch.set(id, (this.targetEpoch.get(id) ?? 0) + 1);
  }

  /** The target a check that begins now runs against. */
  epochOf(id: number): number | undefined {
    return this.targetEpoch.get(id);
  }

  /**
   * The monitor as it is now, if a check that began at target `epoch` still counts for it. It may
   * have been removed, paused or given another target while the check ran (the result is then
   * dropped and the change decided when it runs next), or edited otherwise (the result counts,
   * under the monitor as it is now).
   */
  stillCurrent(id: number, epoch: number | undefined): LiveMonitor | null {
    const c = this.live.get(id);
    return c && !c.config.paused && this.targetEpoch.get(id) === epoch ? c : null;
  }
}
