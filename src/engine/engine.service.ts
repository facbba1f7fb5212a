/**
 * The check engine: keeps every monitor's configuration and machine state in memory, runs due
 * checks through the scheduler, folds each result through the blind gate and the state machine,
 * hands results to the writer and announces transitions. State rows and timeline lines commit in
 * the writer's transaction, together with the results that caused them (engine/journal/journal.ts).
 *
 * Flow of one result: run → (blind gate) → writer.addResult(result) → step() → dirty state → transitions
 * on the bus (incidents, alerts, stream) and as timeline lines, once committed (engine/journal/journal-entries.ts).
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { MinuteCounter } from '../common/minute-counter';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { EventInput, EventsService } from '../events/events.service';
import type { MonitorConfig } from '../probes/monitor-config';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { CheckResult } from '../probes/check-result';
import { durableChange, heartbeatWindowMs, LiveMonitor, policyOf } from './live/live-monitor';
import { CheckCounts, LiveSet } from './live/live-set';
import { missedHeartbeat, unknownResult } from './synthetic-results';
import { CheckRunner } from './check-runner';
import { BlindGate, COUNTED } from './blind/blind-gate';
import { LastAliveService } from './last-alive/last-alive.service';
import { phaseDelay, Scheduler, Timers } from './scheduling/scheduler';
import type { MonitorState } from '../probes/status';
import { machineInput, MachineState, step, Step } from './state-machine';
import { LocationVotes } from './locations/location-votes';
import { LocationJudge } from './locations/location-judge';
import type { IncidentBook } from './journal/incident-book';
import type { AlertSink, CauseSink, IncidentAck } from './alerts/alert-causes';
import type { IncidentRow } from '../events/incident';
import { describeHost } from '../probes/target';
import { EngineStartReads, ENGINE_START_READS, startEngineReads } from './live/start-reads';
import { RollupsService } from '../history/rollups.service';
import { CheckWriter } from '../history/writer';
import { DirtyWhen, Journal } from './journal/journal';
import { journalPathProblem, journalTransition, warnCert } from './journal/journal-entries';
import { Dependencies } from './dependencies/dependencies';
import { loadLiveMonitors } from './live/start-load';
import { reconcile } from './live/reconcile';
import { MonitorChanges } from './monitor-changes';
import type { MaintenanceBook } from './maintenance/maintenance-book';
import { maintenanceBook } from './maintenance/maintenance-journal';
import { allWindows } from './maintenance/windows.table';

export const ENGINE_TIMERS = Symbol('EngineTimers');
export const ENGINE_CONCURRENCY = 256;

export interface ResultSource {
  /** `manual` for check-now, `ping` / `fail` for heartbeats. */
  kind: 'scheduled' | 'manual' | 'ping' | 'fail' | 'missed';
}

@Injectable()
export class EngineService implements OnApplicationBootstrap, OnApplicationShutdown {
  /** The monitors held, their answers, and which running checks still count (engine/live/live-set.ts). */
  private readonly live = new LiveSet();
  /** What waits for the writer's next commit, and the announcements that wait for it to be on disk (engine/journal/journal.ts). */
  private readonly journal: Journal;
  /** Open incidents (one per monitor at most), written with the state rows. */
  readonly incidents: IncidentBook;
  private readonly scheduler: Scheduler;
  /** Maintenance windows: which hold which monitors now, woken at each boundary (engine/maintenance/). */
  readonly maintenance: MaintenanceBook;
  private readonly log = new Logger('engine');
  /** The alert layer (channels/), for what reaches it outside the writer: acknowledgements. */
  private sink: AlertSink | null = null;
  /** Results recorded over the last minute, for checks_per_min. */
  private readonly checkRate = new MinuteCounter();
  /** Monitors taken in, changed and let go, and where their checks fall (monitor-changes.ts). */
  private readonly changes: MonitorChanges;
  private readonly dependencies: Dependencies;
  /** Each location's view of the monitors judged by quorum (engine/locations/, docs/agents.md). */
  readonly votes = new LocationVotes();
  /** Results of every location through the quorum; monitors judged again when a location goes offline or comes back. */
  readonly locations: LocationJudge;
  /** The start's big reads, until onApplicationBootstrap takes them. */
  private preload: Promise<EngineStartReads> | null;

  constructor(
    private readonly db: Database,
    private readonly runner: CheckRunner,
    private readonly writer: CheckWriter,
    events: EventsService,
    private readonly bus: EventBus,
    private readonly blind: BlindGate,
    private readonly rollups: RollupsService,
    private readonly lastAlive: LastAliveService,
    private readonly monitors: MonitorsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ENGINE_TIMERS) private readonly timers: Timers,
    @Inject(ENGINE_START_READS) startReads: EngineStartReads | null,
  ) {
    this.scheduler = new Scheduler({
      clock,
      timers,
      concurrency: ENGINE_CONCURRENCY,
      run: (id) => this.runDue(id),
      onError: (id, err) =>
        this.log.error(`check of monitor ${id} failed unexpectedly: ${err instanceof Error ? err.stack : String(err)}`),
    });
    this.journal = new Journal(writer, events, bus, (id) => this.live.get(id));
    this.incidents = this.journal.incidents;
    this.dependencies = new Dependencies(this.live, this.journal, (m) => this.markDirty(m));
    const apply = (m: LiveMonitor, s: Step) => this.apply(m, s);
    this.locations = new LocationJudge({
      live: this.live,
      votes: this.votes,
      journal: this.journal,
      writer,
      bus,
      apply,
    });
    this.changes = new MonitorChanges({
      live: this.live,
      scheduler: this.scheduler,
      clock,
      bus,
      incidents: this.incidents,
      journal: this.journal,
      apply: (m, s) => this.apply(m, s),
      markDirty: (m, when) => this.markDirty(m, when),
      incidentEnded: (id) => this.dependencies.releaseAll(id, this.clock.now()),
    });
    this.maintenance = maintenanceBook(clock, timers, {
      journal: this.journal,
      monitor: (id) => this.live.get(id),
      monitorIds: () => this.live.ids(),
      changed: (m, soon) => (soon ? this.markDirty(m) : this.live.changed(m.id)),
      dependencies: this.dependencies,
    });
    // The start's big reads (engine/live/start-reads.ts): main.ts began them; otherwise they begin now.
    this.preload = startReads ? Promise.resolve(startReads) : startEngineReads(db);
    // Awaited by onApplicationBootstrap; a start that fails before it must not leave it unhandled.
    this.preload.catch(() => undefined);
  }

  async onApplicationBootstrap(): Promise<void> {
    // Before anything is scheduled: the offline period is recorded and heartbeats need its start.
    const start = await this.lastAlive.start(this.timers);
    this.changes.lastStop(start.stoppedAt, start.restored !== null);
    const reads = await this.preload;
    this.preload = null;
    if (!reads) throw new Error('the engine was started twice');
    const { monitors, now } = await loadLiveMonitors(reads, {
      db: this.db,
      writer: this.writer,
      rollups: this.rollups,
      monitors: this.monitors,
      incidents: this.incidents,
      votes: this.votes,
      clock: this.clock,
      capOf: (id) => this.capOf(id),
    });
    // Before reconcile: a Down monitor in maintenance has no incident to open.
    this.maintenance.load(await allWindows(this.db));
    this.bus.on('monitor.deleted', ({ id }) => (this.maintenance.dropMonitor(id), this.votes.drop(id)));
    const fix = {
      incidents: this.incidents,
      journal: this.journal,
      maintenance: this.maintenance,
      dependencies: this.dependencies,
      apply: (m: LiveMonitor, s: Step) => this.apply(m, s),
      markDirty: (m: LiveMonitor) => this.markDirty(m),
      log: this.log,
    };
    for (const m of monitors) this.changes.add(m, 'spread');
    reconcile(fix, monitors, now);
    this.changes.subscribe();
    this.log.log(`engine started with ${monitors.length} monitors`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.maintenance.stop();
    await this.scheduler.stop();
    await this.writer.flush();
  }

  /** The monitor's state changed: answers show it now, and its row is written as `when` says (engine/journal/journal.ts). */
  private markDirty(m: LiveMonitor, when: DirtyWhen = 'soon'): void {
    this.live.changed(m.id);
    this.journal.markDirty(m.id, when);
  }

  /**
   * Checks start only when releaseChecks() is called; monitors are still loaded and scheduled at
   * start. main.ts holds them until the service listens: a start that fails then has run no
   * check, and the first checks do not compete with the end of the start.
   */
  holdChecks(): void {
    this.scheduler.hold();
  }

  releaseChecks(): void {
    this.scheduler.release();
  }

  /** Runs whatever is due now (the timer does this by itself; tests with a fake clock call it). */
  tick(): void {
    this.maintenance.tick();
    this.scheduler.tick();
  }

  /** Waits until no check is running. */
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  readonly dueOf = (id: number): number | undefined => this.scheduler.dueOf(id);

  stats(): { monitors: number; inFlight: number; started: number; lateness: ReturnType<Scheduler['latenessStats']> } {
    return {
      monitors: this.live.size,
      inFlight: this.scheduler.inFlight,
      started: this.scheduler.started,
      lateness: this.scheduler.latenessStats(),
    };
  }

  /** How long a check's outcome may hold before the gap counts as no data (rollup-math.ts). */
  capOf(id: number): number {
    const c = this.live.get(id)?.config;
    if (!c) return 0;
    return heartbeatWindowMs(c) ?? c.interval_s * 1000 + c.timeout_ms;
  }

  /** Results recorded in the last 60 seconds. */
  checksPerMinute(): number {
    return this.checkRate.count(this.clock.now());
  }

  /** The machine's full memory of a monitor (state and counters). */
  readonly machineStateOf = (id: number): MachineState | undefined => this.live.get(id)?.state;

  /** A monitor's live state; undefined before the engine has loaded it. */
  readonly stateOf = (id: number): MonitorState | undefined => this.live.stateOf(id);

  /** Every monitor the engine holds. */
  readonly monitorIds = (): Iterable<number> => this.live.ids();

  /** Timeline lines waiting for the next write, oldest first (readers merge them, like unwritten checks). */
  pendingLines(): readonly EventInput[] {
    return this.journal.pendingLines();
  }

  /** The configuration the engine runs a monitor with; undefined once it is deleted. */
  readonly configOf = (id: number): MonitorConfig | undefined => this.live.get(id)?.config;

  /**
   * The live records, for readers that must not touch a table (GET /metrics): `changes` moves when
   * a monitor is added, edited or removed, so an order kept by it stays right until it moves.
   * Readers only read: a record is the engine's own.
   */
  liveView(): {
    monitors: Iterable<Readonly<LiveMonitor>>;
    changes: number;
    countsOf(id: number): Readonly<CheckCounts>;
  } {
    const live = this.live;
    return { monitors: live.values(), changes: live.changes, countsOf: (id) => live.countsOf(id) };
  }

  /** How many monitors the engine holds. */
  get size(): number {
    return this.live.size;
  }

  /**
   * Folds one result into a monitor (scheduled, check-now, heartbeat ping or failure report) and
   * returns the stored time of the result.
   */
  record(id: number, result: CheckResult, source: ResultSource): number {
    const now = this.clock.now();
    this.checkRate.add(now);
    const m = this.live.get(id);
    // Counted for a held monitor only: a result for one deleted meanwhile must not bring its counter back.
    if (m) this.live.count(id, result.outcome);
    const gate = m ? this.blind.judge(result, now) : COUNTED;
    const at = this.keep(id, result, gate.note);
    if (!m) return at;
    const s = this.locations.local(m, machineInput(result, at, gate.counted, gate.note), policyOf(m.config, source));
    // The result that made a transition goes into `checks` with it (an incident always has its confirming check there).
    if (s.transitions.length > 0) this.writer.settleNow(id, at);
    if (result.cert && gate.counted) warnCert(this.journal, m, result.cert.not_after, at, () => this.markDirty(m));
    return at;
  }

  /** Hands a result to the writer (with the window holding the monitor, if any: uptime leaves it out)
   *  and shows it on the live stream at once; returns its stored time. */
  private keep(id: number, result: CheckResult, note: string | null): number {
    const at = this.writer.addResult(result, id, note, this.maintenance.markOf(id)?.window_id ?? null);
    this.bus.emit('check', {
      id,
      at,
      outcome: result.outcome,
      latency_ms: result.latency_ms,
      status: result.status,
      error: result.error,
    });
    return at;
  }

  private async runDue(id: number): Promise<number | null> {
    const m = this.live.get(id);
    if (!m || m.config.paused) return null;
    if (!this.votes.checkedLocally(m.config)) return m.config.interval_s * 1000;
    const now = this.clock.now();
    if (m.config.kind === 'heartbeat') {
      const window = heartbeatWindowMs(m.config);
      const lastPing = m.state.last_ok_at ?? m.state.since;
      // A ping may have arrived since this deadline was set.
      if (now - lastPing < window) return lastPing + window - now;
      this.record(id, missedHeartbeat(now, m.config.interval_s, m.config.settings.grace_s), { kind: 'missed' });
      return m.config.interval_s * 1000;
    }
    const epoch = this.live.epochOf(id);
    let result: CheckResult;
    try {
      result = await this.runner.run(m.config);
    } catch (err) {
      result = unknownResult(now, err);
    }
    let live = this.live.stillCurrent(id, epoch);
    if (!live) return null;
    if (result.outcome === 'down' && this.wouldConfirmDown(live)) {
      const second = await this.secondOpinion(live);
      live = this.live.stillCurrent(id, epoch);
      if (!live) return null;
      if (second && second.outcome !== 'down') {
        this.pathProblem(live, result, second);
        return live.config.interval_s * 1000;
      }
    }
    if (result.outcome === 'down') {
      // A failure is judged on a fresh answer of the canaries: is it the target, or our own network?
      // One that would confirm Down, on answers newer than the check (a cut just after a probe).
      await this.blind.freshen(this.clock.now(), this.wouldConfirmDown(live) ? now : null);
      live = this.live.stillCurrent(id, epoch);
      if (!live) return null;
    }
    this.record(id, result, { kind: 'scheduled' });
    if (result.outcome === 'down') return live.config.retry_interval_s * 1000;
    if (this.changes.rephased(id)) return phaseDelay(id, live.config.interval_s * 1000, this.clock.now());
    return live.config.interval_s * 1000;
  }

  private wouldConfirmDown(m: LiveMonitor): boolean {
    return m.state.status !== 'down' && m.state.failing + 1 >= m.config.confirm_after;
  }

  /**
   * Before a failure confirms Down, the check runs once more from scratch (a fresh name lookup
   * and a fresh connection). If that one succeeds, the failure was a network path problem.
   */
  private async secondOpinion(m: LiveMonitor): Promise<CheckResult | null> {
    try {
      return await this.runner.run(m.config);
    } catch {
      return null;
    }
  }

  /** The failure is kept with a note and not counted; the good second opinion counts. */
  private pathProblem(m: LiveMonitor, failed: CheckResult, second: CheckResult): void {
    const note = `not counted: a network path problem (a second check succeeded${failed.error ? ` after "${failed.error.message}"` : ''})`;
    const at = this.keep(m.id, failed, note);
    const s = step(m.state, machineInput(failed, at, false, note), policyOf(m.config, { kind: 'scheduled' }));
    this.apply(m, s);
    if (s.transitions.length > 0) this.writer.settleNow(m.id, at);
    journalPathProblem(this.journal, m, describeHost(m.config), at);
    this.record(m.id, { ...second, at_ms: Math.max(second.at_ms, at + 1) }, { kind: 'scheduled' });
  }

  /** Heartbeat ping or failure report: the deadline moves on. */
  heartbeat(id: number, result: CheckResult, source: 'ping' | 'fail'): boolean {
    const m = this.live.get(id);
    const window = m ? heartbeatWindowMs(m.config) : null;
    if (!m || window === null || m.config.paused) return false;
    this.record(id, result, { kind: source });
    const due = this.clock.now() + window;
    // A ping only moves the deadline later, and runDue, when the earlier deadline comes, finds the
    // newer ping and sets the deadline from it: one move in the due heap per window, not per ping.
    // A failure report does not count as a ping there, so it sets its deadline itself.
    const current = this.scheduler.dueOf(id);
    if (source === 'fail' || current === undefined || current > due) this.scheduler.at(id, due);
    return true;
  }

  private apply(m: LiveMonitor, s: Step): void {
    const before = m.state;
    m.state = s.state;
    const held = s.transitions.length > 0 && this.maintenance.markOf(m.id) !== null;
    for (const t of s.transitions) {
      // Dependencies (docs/dependencies.md): a Down with a Down cause joins that outage instead;
      // one held by a maintenance window joins nothing (it sends nothing, as any held monitor).
      if (t.kind === 'down' && m.incidentId === null && !held && this.dependencies.joined(m, t)) continue;
      const open = m.incidentId;
      journalTransition(this.journal, m, t, held);
      this.dependencies.after(m, open !== null && m.incidentId === null ? open : null, t.at);
    }
    // Another failed check of an open incident: its count and latest error.
    if (m.incidentId !== null && s.state.status === 'down') {
      this.incidents.failed(m.id, s.state.failing, { code: s.state.error_code, message: s.state.error_message });
    }
    // A change without a check row (pause, config change) still reaches the disk within a second;
    // a result that only moved the time of the last check waits for the next fold.
    this.markDirty(m, s.transitions.length > 0 || durableChange(before, s.state) ? 'soon' : 'fold');
  }

  /**
   * Inside the transaction of a change that ends a monitor's open incident (a deletion, a pause,
   * a new kind or target): the incident is written ended, with its `closed` line, and returned for
   * the change's bus event (Journal.endIncidentIn).
   */
  endIncidentIn(
    tx: EntityManager,
    monitorId: number,
    reason: 'deleted' | 'paused' | 'config_changed',
    actor: string,
  ): Promise<IncidentRow | null> {
    return this.journal.endIncidentIn(tx, monitorId, reason, actor, this.clock.now());
  }

  /** The alert layer (channels/) registers here: it turns changes into outbox rows inside the writer's transaction. */
  setAlertSink(sink: AlertSink): void {
    this.sink = sink;
    this.journal.setAlertSink(sink);
  }
  /** Another reader of the alert causes, in the writer's transaction (subscribers/: public incident mail). */
  readonly addCauseSink = (sink: CauseSink): void => this.journal.addCauseSink(sink);

  /**
   * An owner's acknowledgement, inside the transaction that stores it (incidents/): the alert
   * layer queues its messages in the same transaction; `alertsCommitted()` after the commit.
   */
  async acknowledgedIn(tx: EntityManager, ack: IncidentAck): Promise<void> {
    await this.sink?.acknowledgedIn(tx, ack);
  }

  alertsCommitted(): void {
    this.sink?.committed();
  }
}
