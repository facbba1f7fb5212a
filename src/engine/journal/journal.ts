/**
 * The engine's journal: write, then announce. What the engine changes (state rows, timeline lines,
 * incidents, alert causes) waits here until the writer's next transaction carries it together
 * with the check results that caused it; bus announcements wait until that transaction has
 * committed, so incidents, alerts and the live stream only ever hear of what is on disk
 * (docs/storage.md, docs/architecture.md). It is the engine's writer hook:
 *
 * 1. snapshot(): at the instant the writer takes its rows, the journal takes what it will write
 *    (the dirty state rows that write carries, the lines, incidents and alerts queued so far);
 * 2. persist(): inside the transaction, it writes them;
 * 3. persisted(): once it committed, they leave the queues and the announcements go out. A failed
 *    transaction leaves everything queued: the next snapshot takes it again, with what came since.
 */
import type { EntityManager } from 'typeorm';
import type { Announcement, EventBus } from '../../events/event-bus';
import type { EventInput, EventsService } from '../../events/events.service';
import type { IncidentRow } from '../../events/incident';
import { endOpenIncidentsIn, writeEngineIncidentIn } from '../../events/incidents.table';
import { StoredStateRow, writeStatesIn } from '../../catalog/monitor-state.table';
import type { CheckWriter } from '../../history/writer';
import type { WriteKind } from '../../history/write-hook';
import type { AlertCauseRecord, AlertSink, CauseSink } from '../alerts/alert-causes';
import { IncidentBook, IncidentWrites, RUN_KINDS } from './incident-book';
import { engineBlob, LiveMonitor, toMonitorState } from '../live/live-monitor';
import { CLOSE_WORDS } from './transition-text';
import { AffectedBook } from '../dependencies/affected-book';
import { writeAffectedIn } from '../../events/incident-affected.table';

/**
 * How soon a changed state row must reach the disk. `soon`: durable within a second (a status, a
 * count, an error, an incident: durableChange()), and a commit is asked for. `next-commit`: with
 * the next commit, without asking for one (a note set at start, not a change to announce).
 * `fold`: with the monitor's next fold (only the time of the last check moved).
 */
export type DirtyWhen = 'soon' | 'next-commit' | 'fold';

export class Journal {
  /** Open incidents (one per monitor at most), written with the state rows. */
  readonly incidents = new IncidentBook();
  /** Monitors joining and leaving others' incidents (dependencies), written with the state rows. */
  readonly affected = new AffectedBook();
  /**
   * Monitors whose state row differs from the disk, with the generation of their last change (so
   * a write never clears a newer one). Written at the writer's next fold.
   */
  private readonly dirty = new Map<number, number>();
  /**
   * Of those, the ones whose change must be durable with the next commit, with the generation that
   * made it so.
   */
  private readonly urgent = new Map<number, number>();
  private generation = 0;
  private pendingEvents: EventInput[] = [];
  /** Bus announcements waiting for their state rows and lines to commit (durable, then announced). */
  private pendingAnnouncements: Announcement[] = [];
  /** Changes that may become alerts, waiting for the write that carries their state rows. */
  private pendingAlerts: AlertCauseRecord[] = [];
  private alertSink: AlertSink | null = null;
  private readonly causeSinks: CauseSink[] = [];
  /** What the writer's open transaction is writing; dropped from the queues once it commits. */
  private writing: {
    /** Monitor id → generation written, to clear `dirty` and `urgent` after the commit. */
    states: Map<number, number>;
    /** The state rows as they were at the snapshot. */
    stateRows: StoredStateRow[];
    events: number;
    announcements: number;
    alerts: number;
    incidents: IncidentWrites;
    affected: ReturnType<AffectedBook['writes']>;
  } | null = null;

  constructor(
    private readonly writer: CheckWriter,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    /** The engine's live record of a monitor, for its state row at the snapshot. */
    private readonly monitorOf: (id: number) => LiveMonitor | undefined,
  ) {
    writer.addHook({
      snapshot: (kind, folding) => this.snapshot(kind, folding),
      onRows: (m) => this.persist(m),
      afterCommit: () => this.persisted(),
      hasWork: (kind) =>
        this.urgent.size > 0 ||
        (kind === 'flush' && this.dirty.size > 0) ||
        this.pendingEvents.length > 0 ||
        this.pendingAnnouncements.length > 0 ||
        this.pendingAlerts.length > 0 ||
        this.incidents.hasWork() ||
        this.affected.hasWork(),
    });
  }

  /** The monitor's state row differs from the disk now; `when` says how soon it must be written. */
  markDirty(id: number, when: DirtyWhen): void {
    const generation = ++this.generation;
    this.dirty.set(id, generation);
    if (when === 'fold') return;
    this.urgent.set(id, generation);
    if (when === 'soon') this.writer.soon();
  }

  /** A timeline line, written with the next commit. */
  line(e: EventInput): void {
    this.pendingEvents.push(e);
  }

  /** A bus announcement, made once the next commit is on disk (which is asked for within a second). */
  announceLater(a: Announcement): void {
    this.pendingAnnouncements.push(a);
    this.writer.soon();
  }

  /** The alert layer (channels/) registers here: it turns changes into outbox rows inside the writer's transaction. */
  setAlertSink(sink: AlertSink): void {
    this.alertSink = sink;
  }

  /**
   * Another reader of the same causes, in the same transaction (the status page's subscribers:
   * subscribers/subscriber-notices.service.ts); it takes no acknowledgements.
   */
  addCauseSink(sink: CauseSink): void {
    this.causeSinks.push(sink);
  }

  /** Whether an alert layer listens (without one, alert causes are not even made). */
  get alerting(): boolean {
    return this.alertSink !== null || this.causeSinks.length > 0;
  }

  /** A change that may become an alert, handed to the alert layer in the next commit. */
  alert(record: AlertCauseRecord): void {
    if (this.alerting) this.pendingAlerts.push(record);
  }

  /** Timeline lines waiting for the next write, oldest first (readers merge them, like unwritten checks). */
  pendingLines(): readonly EventInput[] {
    return this.pendingEvents;
  }

  /** The monitor is gone (its rows went with its deletion): nothing of it is written any more. */
  forget(id: number): void {
    this.incidents.forget(id);
    this.dirty.delete(id);
    this.urgent.delete(id);
  }

  /**
   * Inside the transaction of a change that ends a monitor's open incident (a deletion, a pause,
   * a new kind or target), so the change and the end commit together: the incident is written
   * ended, with its `closed` line. Memory is left alone; the caller passes the returned row on
   * with its bus event (monitor.changed or monitor.deleted) once the transaction committed.
   *
   * An incident opened less than a write ago is not on disk yet, nor are the checks that opened
   * it: a pause or a new target leaves it to the engine, which ends it in memory and writes it
   * with its checks. A deletion writes it whole (the monitor's checks go anyway).
   */
  async endIncidentIn(
    tx: EntityManager,
    monitorId: number,
    reason: 'deleted' | 'paused' | 'config_changed',
    actor: string,
    now: number,
  ): Promise<IncidentRow | null> {
    // What is on disk must agree with the state this change writes: an incident the engine has
    // already ended (a recovery a moment ago) but not yet written is written as it ended, and
    // anything else still open on disk ends with this change's reason.
    for (const ended of this.incidents.endedUnwritten(monitorId)) await this.writeIncident(tx, ended, false);
    const open = this.incidents.openOf(monitorId);
    const onDisk = open && this.incidents.byId(open.id)?.written;
    await endOpenIncidentsIn(tx, monitorId, now, reason, onDisk ? open.id : null);
    if (!open) return null;
    if (reason !== 'deleted' && !onDisk) return null;
    const ended: IncidentRow = { ...open, ended_at: Math.max(now, open.started_at), end_reason: reason };
    await this.writeIncident(tx, ended, false);
    await this.events.recordIn(tx, {
      kind: 'closed',
      at: now,
      monitorId,
      incidentId: ended.id,
      actor,
      text: `${open.monitor_name}: incident ended without recovery (${CLOSE_WORDS[reason]})`,
      data: { reason },
    });
    return ended;
  }

  /** The engine's columns of an incident (events/incidents.table.ts: an ended incident is final). */
  private async writeIncident(tx: EntityManager, row: IncidentRow, onlyIfMonitorExists: boolean): Promise<void> {
    await writeEngineIncidentIn(tx, row, onlyIfMonitorExists);
  }

  /**
   * At the instant the writer takes its rows: the states, lines and incidents those rows caused.
   * Results that arrive while the write runs wait for the next one, with their rows. A write
   * carries the states with urgent changes and those of the monitors that fold in it (a flush:
   * every state that differs from the disk).
   */
  private snapshot(kind: WriteKind, folding: ReadonlySet<number>): void {
    const states = new Map<number, number>();
    for (const id of this.urgent.keys()) states.set(id, this.dirty.get(id) ?? this.urgent.get(id)!);
    if (kind === 'flush') {
      for (const [id, generation] of this.dirty) states.set(id, generation);
    } else {
      for (const id of folding) {
        const generation = this.dirty.get(id);
        if (generation !== undefined) states.set(id, generation);
      }
    }
    const stateRows: StoredStateRow[] = [];
    for (const id of states.keys()) {
      const m = this.monitorOf(id);
      if (!m) continue;
      stateRows.push({ ...toMonitorState(m), engine: engineBlob(m) });
    }
    this.writing = {
      states,
      stateRows,
      events: this.pendingEvents.length,
      announcements: this.pendingAnnouncements.length,
      alerts: this.pendingAlerts.length,
      incidents: this.incidents.writes(),
      affected: this.affected.writes(),
    };
  }

  /** Runs inside the writer's transaction: state rows, timeline lines and incidents commit with their results. */
  private async persist(tx: EntityManager): Promise<void> {
    // Nothing leaves the queues until the transaction commits (persisted()): a failed write is retried.
    if (!this.writing) return;
    const { stateRows, incidents } = this.writing;
    const events = this.pendingEvents.slice(0, this.writing.events);
    await writeStatesIn(tx, stateRows);
    await this.events.recordAllIn(tx, events);
    for (const row of incidents.rows) await this.writeIncident(tx, row, true);
    await writeAffectedIn(tx, this.writing.affected.rows);
    // Lines of the failure run (from its first failed check to the confirming one) belong to the incident too.
    for (const a of incidents.attach)
      await this.events.attachRunIn(tx, a.id, {
        monitorId: a.monitorId,
        since: a.since,
        until: a.until,
        kinds: RUN_KINDS,
      });
    if (this.writing.alerts > 0) {
      const causes = this.pendingAlerts.slice(0, this.writing.alerts);
      if (this.alertSink) await this.alertSink.write(tx, causes);
      for (const sink of this.causeSinks) await sink.write(tx, causes);
    }
  }

  private persisted(): void {
    if (!this.writing) return;
    for (const [id, generation] of this.writing.states) {
      if ((this.dirty.get(id) ?? 0) <= generation) this.dirty.delete(id);
      if ((this.urgent.get(id) ?? 0) <= generation) this.urgent.delete(id);
    }
    this.pendingEvents.splice(0, this.writing.events);
    this.incidents.written(this.writing.incidents);
    this.affected.written(this.writing.affected.count);
    const alerted = this.pendingAlerts.splice(0, this.writing.alerts).length;
    const heard = this.pendingAnnouncements.splice(0, this.writing.announcements);
    this.writing = null;
    // Listeners (incidents, alerts, the stream) hear only of what is on disk.
    for (const a of heard) this.bus.announce(a);
    if (alerted > 0) for (const sink of [this.alertSink, ...this.causeSinks]) sink?.committed();
  }
}
