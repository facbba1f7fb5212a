/**
 * The agent's monitors and their checks: the service's scheduler (engine/scheduling/scheduler.ts:
 * one due-time heap, one timer, a concurrency limit) running the service's checkers through
 * engine/check-once.ts. The next check comes after interval_s, or retry_interval_s after a
 * failure, as in the service (engine/engine.service.ts); a monitor's first check spreads over its
 * interval at start and is at once after it is added or changed, then falls on its own phase.
 */
import type { Clock } from '../common/clock';
import { canonicalJson } from '../common/canonical';
import { checkOnce } from '../engine/check-once';
import { phaseDelay, Scheduler, spreadOffset, type Timers } from '../engine/scheduling/scheduler';
import type { CheckResult } from '../probes/check-result';
import type { CheckerEnv } from '../probes/checkers';
import type { AgentLog } from './agent-log';
import type { AgentMonitor } from './protocol';

/** As many checks at once as the service runs (ENGINE_CONCURRENCY): an agent checks what a service would. */
export const AGENT_CONCURRENCY = 256;

export interface AgentChecksOptions {
  clock: Clock;
  timers: Timers;
  env: CheckerEnv;
  log: AgentLog;
  onResult: (monitor: AgentMonitor, result: CheckResult) => void;
  concurrency?: number;
}

export class AgentChecks {
  private readonly monitors = new Map<number, { monitor: AgentMonitor; key: string }>();
  /** Monitors whose next check falls on their own phase (after a first check following a change). */
  private readonly rephase = new Set<number>();
  private readonly scheduler: Scheduler;
  private started = false;

  constructor(private readonly o: AgentChecksOptions) {
    this.scheduler = new Scheduler({
      clock: o.clock,
      timers: o.timers,
      concurrency: o.concurrency ?? AGENT_CONCURRENCY,
      run: (id) => this.run(id),
      onError: (id, err) =>
        o.log.warn(
          `monitor ${id} (${this.monitors.get(id)?.monitor.slug ?? 'removed'}): the check could not run: ${err instanceof Error ? err.name : 'error'}; trying again in a minute`,
        ),
    });
  }

  get size(): number {
    return this.monitors.size;
  }

  ids(): number[] {
    return [...this.monitors.keys()];
  }

  /**
   * Takes a new assignment whole: monitors gone are dropped (a running check finishes, its result
   * is not sent), new and changed ones are checked at once (spread over their interval on the
   * first assignment, when every monitor is new), unchanged ones keep their cadence.
   */
  apply(monitors: readonly AgentMonitor[]): { added: number; changed: number; removed: number } {
    const now = this.o.clock.now();
    const first = !this.started;
    this.started = true;
    const next = new Map(monitors.map((m) => [m.id, m]));
    let removed = 0;
    for (const id of this.monitors.keys()) {
      if (next.has(id)) continue;
      this.monitors.delete(id);
      this.rephase.delete(id);
      this.scheduler.remove(id);
      removed += 1;
    }
    let added = 0;
    let changed = 0;
    for (const m of monitors) {
      const key = canonicalJson(m);
      const had = this.monitors.get(m.id);
      if (had?.key === key) continue;
      this.monitors.set(m.id, { monitor: m, key });
      if (had) changed += 1;
      else added += 1;
      if (first) this.scheduler.at(m.id, now + spreadOffset(m.id, m.interval_s * 1000));
      else {
        this.rephase.add(m.id);
        this.scheduler.at(m.id, now);
      }
    }
    return { added, changed, removed };
  }

  /** Stops starting checks and waits for the running ones (each bounded by its timeout). */
  stop(): Promise<void> {
    return this.scheduler.stop();
  }

  private async run(id: number): Promise<number | null> {
    const entry = this.monitors.get(id);
    if (!entry) return null;
    const m = entry.monitor;
    const result = await checkOnce(m, m.allow_private_targets, this.o.env);
    // Changed or removed while it ran: the result is of a configuration no longer assigned.
    if (this.monitors.get(id) !== entry) return m.interval_s * 1000;
    this.o.onResult(m, result);
    if (result.outcome === 'down') return m.retry_interval_s * 1000;
    if (this.rephase.delete(id)) return phaseDelay(id, m.interval_s * 1000, this.o.clock.now());
    return m.interval_s * 1000;
  }
}
