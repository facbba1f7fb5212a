/**
 * How the engine takes monitors in and lets them go, and where each one's checks fall: at start
 * (spread over its interval; heartbeats by their deadline, with the offline period forgiven), on a
 * change from the bus (picked up at once, re-phased after a change of many) and on a deletion.
 * The engine's check path asks only `rephased(id)` of it.
 */
import type { Clock } from '../common/clock';
import type { EventBus } from '../events/event-bus';
import type { IncidentRow } from '../events/incident';
import type { MonitorConfig } from '../probes/monitor-config';
import { heartbeatStart } from './heartbeats/heartbeat-restart';
import type { IncidentBook } from './journal/incident-book';
import type { DirtyWhen, Journal } from './journal/journal';
import { heartbeatWindowMs, LiveMonitor } from './live/live-monitor';
import type { LiveSet } from './live/live-set';
import { BurstGauge, Scheduler, spreadOffset } from './scheduling/scheduler';
import { configChanged, initialMachineState, pause, resume, Step } from './state-machine';

/** What of the engine a change touches (EngineService builds it). */
export interface ChangeHost {
  live: LiveSet;
  scheduler: Scheduler;
  clock: Clock;
  bus: EventBus;
  incidents: IncidentBook;
  journal: Journal;
  /** EngineService.apply: a step's state and transitions into the monitor. */
  apply(m: LiveMonitor, s: Step): void;
  /** EngineService.markDirty. */
  markDirty(m: LiveMonitor, when?: DirtyWhen): void;
  /** An incident ended outside the engine's own steps: the monitors it affected are released (dependencies). */
  incidentEnded(incidentId: number): void;
}

export class MonitorChanges {
  /**
   * Monitors checked at once after a change of many together (bulk, import, or a burst of single
   * changes: created, resumed, a new target or interval): the check after that one falls on the
   * monitor's own phase of its interval (phaseDelay), so monitors made together are not checked
   * together forever.
   */
  private readonly rephase = new Set<number>();
  private readonly bursts = new BurstGauge();
  /** The last moment the service ran before this start (last-alive mark), for heartbeat deadlines. */
  private stoppedAt: number | null = null;
  /** This is the first start after `farsight restore` (heartbeat notes say so). */
  private restored = false;

  constructor(private readonly h: ChangeHost) {}

  /** Before anything is scheduled: when the service last ran, and whether this start follows a restore. */
  lastStop(stoppedAt: number | null, restored: boolean): void {
    this.stoppedAt = stoppedAt;
    this.restored = restored;
  }

  /** Takes the monitor off the list of a change of many; true when it was on it (its next check re-phases). */
  rephased(id: number): boolean {
    // Usually empty (it holds only monitors of a change of many, until their first check): no lookup on the common path.
    return this.rephase.size > 0 && this.rephase.delete(id);
  }

  subscribe(): void {
    const { bus, journal, live, scheduler } = this.h;
    bus.on('monitor.changed', ({ id, created, targetChanged, config, endedIncident, spread }) => {
      this.endedElsewhere(id, endedIncident);
      this.reload(id, created, targetChanged, config, spread === true);
    });
    bus.on('monitor.deleted', ({ id, endedIncident }) => {
      this.endedElsewhere(id, endedIncident);
      // An affected monitor that is deleted leaves its cause's incident (docs/dependencies.md).
      const gone = live.get(id);
      if (gone?.cause) journal.affected.leave(gone.cause.incidentId, id, this.h.clock.now(), gone.config.name);
      journal.forget(id);
      live.delete(id);
      this.rephase.delete(id);
      scheduler.remove(id);
    });
  }

  /** After the change's commit: the incident it ended leaves memory (nothing more to write) and is announced. */
  private endedElsewhere(monitorId: number, ended: IncidentRow | null | undefined): void {
    if (!ended) return;
    this.h.incidents.endedElsewhere(monitorId, ended);
    const m = this.h.live.get(monitorId);
    if (m && m.incidentId === ended.id) {
      m.incidentId = null;
      this.h.markDirty(m);
    }
    this.h.incidentEnded(ended.id);
    this.h.bus.emit('incident', { incident: ended });
  }

  /** Picks up a configuration change at once (synchronously, so the answer to the change already shows it). */
  private reload(id: number, created: boolean, targetChanged: boolean, config: MonitorConfig, spread: boolean): void {
    const { live, scheduler } = this.h;
    const stored = { config };
    const now = this.h.clock.now();
    const prev = live.get(id);
    if (!prev || created) {
      live.newTarget(id);
      if (this.bursts.note(now) || spread) this.rephase.add(id);
      this.add(
        {
          id,
          config: stored.config,
          state: initialMachineState(now, stored.config.paused),
          incidentId: null,
          certWarned: null,
          downAlerted: null,
        },
        'now',
      );
      return;
    }
    const retimed =
      targetChanged || config.interval_s !== prev.config.interval_s || (prev.config.paused && !config.paused);
    if (retimed && (this.bursts.note(now) || spread)) this.rephase.add(id);
    const next: LiveMonitor = { ...prev, config: stored.config };
    live.replace(next);
    this.h.incidents.rename(id, config.name);
    let s: Step = { state: prev.state, transitions: [] };
    if (stored.config.paused && !prev.config.paused) s = pause(prev.state, now);
    else if (!stored.config.paused && prev.config.paused) s = resume(prev.state, now);
    else if (targetChanged) s = configChanged(prev.state, now);
    if (s.state !== prev.state || s.transitions.length) this.h.apply(next, s);
    if (s.state !== prev.state || targetChanged || stored.config.paused !== prev.config.paused) {
      live.newTarget(id);
      this.schedule(next, 'now');
    } else if (!scheduler.isRunning(id)) {
      this.schedule(next, 'keep');
    }
    // Else the running check's result counts and decides the next one, at the new interval.
  }

  add(m: LiveMonitor, when: 'spread' | 'now'): void {
    this.h.live.add(m);
    this.schedule(m, when);
  }

  private schedule(m: LiveMonitor, when: 'spread' | 'now' | 'keep'): void {
    const { scheduler } = this.h;
    if (m.config.paused) {
      scheduler.remove(m.id);
      return;
    }
    const now = this.h.clock.now();
    const interval = m.config.interval_s * 1000;
    if (m.config.kind === 'heartbeat') {
      const grace = m.config.settings.grace_s;
      const window = heartbeatWindowMs(m.config);
      const lastPing = m.state.last_ok_at ?? m.state.since;
      if (when !== 'spread') {
        scheduler.at(m.id, Math.max(lastPing + window, now));
        return;
      }
      // After a start, pings the service could not receive while it was down are not held against
      // the job (engine/heartbeats/heartbeat-restart.ts); the note says so until the next ping.
      const start = heartbeatStart({
        lastPing,
        intervalMs: interval,
        graceMs: grace * 1000,
        status: m.state.status,
        stoppedAt: this.stoppedAt,
        restored: this.restored,
        now,
      });
      if (start.note) {
        m.state = { ...m.state, note: start.note };
        // Written with the next commit (nothing asks for one: the start is not a change to announce).
        this.h.markDirty(m, 'next-commit');
      }
      scheduler.at(m.id, start.due);
      return;
    }
    if (when === 'now') scheduler.at(m.id, now);
    else if (when === 'spread') scheduler.at(m.id, now + spreadOffset(m.id, interval));
    else scheduler.at(m.id, Math.min(scheduler.dueOf(m.id) ?? now, now + interval));
  }
}
