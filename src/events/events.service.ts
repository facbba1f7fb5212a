/**
 * The timeline (the `events` table): writes its lines (inside the caller's transaction where a
 * change has one), reads them for GET /events and for an incident's timeline, and ties the lines
 * of a failure run to the incident it became. Every statement on the table is here (the one
 * exception: `farsight restore` writes its `restored` line before the service runs, restore-record.ts).
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { Database } from '../db/database';
import { EventEntity } from './entities/event.entity';
import type { EventKind } from './event-kinds';
import { EventRow, TimelineItem, timelineFilter, toTimelineItem } from './timeline';
import { Page, pageQuery, TIME_ID_CURSOR, toPage } from '../common/http/paging';

export interface EventInput {
  kind: EventKind;
  text: string;
  monitorId?: number | null;
  incidentId?: number | null;
  actor?: string | null;
  data?: Record<string, unknown> | null;
  at?: number;
}

/** 7 parameters a line: 700 a statement, well under SQLite's limit. */
const EVENTS_PER_INSERT = 100;

/** A line's columns besides its id, as the batched INSERT writes them and EventRow reads them. */
const LINE_COLUMNS = [
  'at',
  'kind',
  'monitor_id',
  'incident_id',
  'actor',
  'text',
  'data',
] as const satisfies readonly (keyof EventRow)[];
const INSERT_LINES = `INSERT INTO events (${LINE_COLUMNS.join(', ')}) VALUES `;
const INSERT_ONE = `(${LINE_COLUMNS.map(() => '?').join(', ')})`;
const SELECT_LINES = `SELECT id, ${LINE_COLUMNS.join(', ')} FROM events`;

/** A line of an incident's timeline, as its answer shows it (with the id that orders equal times). */
export type IncidentLine = Pick<EventRow, 'id' | 'at' | 'kind' | 'text'>;

/** An incident's failure run: the lines of these kinds its monitor had from its first failed check to Down. */
export interface FailureRun {
  monitorId: number;
  since: number;
  until: number;
  kinds: readonly string[];
}

@Injectable()
export class EventsService {
  constructor(
    private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Adds a line inside the caller's transaction, so the change and its record commit together. */
  async recordIn(m: EntityManager, e: EventInput): Promise<EventEntity> {
    return m.save(
      m.create(EventEntity, {
        at: e.at ?? this.clock.now(),
        kind: e.kind,
        text: e.text,
        monitor_id: e.monitorId ?? null,
        incident_id: e.incidentId ?? null,
        actor: e.actor ?? null,
        data: e.data ? JSON.stringify(e.data) : null,
      }),
    );
  }

  /**
   * Adds many lines inside the caller's transaction, in the order given, with one statement per
   * 100 lines (the engine's flush after a mass outage carries one per monitor).
   */
  async recordAllIn(m: EntityManager, events: readonly EventInput[]): Promise<void> {
    const now = this.clock.now();
    for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
      const part = events.slice(i, i + EVENTS_PER_INSERT);
      await m.query(
        INSERT_LINES + part.map(() => INSERT_ONE).join(', '),
        part.flatMap((e) => [
          e.at ?? now,
          e.kind,
          e.monitorId ?? null,
          e.incidentId ?? null,
          e.actor ?? null,
          e.text,
          e.data ? JSON.stringify(e.data) : null,
        ]),
      );
    }
  }

  record(e: EventInput): Promise<EventEntity> {
    return this.db.tx((m) => this.recordIn(m, e));
  }

  /**
   * GET /events: newest first by time (lines of the engine are written up to a second after
   * their time, so ids alone would misplace them), filtered by kind and monitor.
   */
  async list(query: Record<string, unknown>): Promise<Page<TimelineItem>> {
    const filter = timelineFilter(query);
    const { limit, before } = pageQuery(query, TIME_ID_CURSOR);
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.kinds) {
      where.push(`kind IN (${filter.kinds.map(() => '?').join(', ')})`);
      params.push(...filter.kinds);
    }
    if (filter.monitorId !== null) {
      where.push('monitor_id = ?');
      params.push(filter.monitorId);
    }
    if (before !== null) {
      where.push('(at < ? OR (at = ? AND id < ?))');
      params.push(before.at, before.at, before.id);
    }
    const rows = await this.db.read<EventRow[]>(
      `${SELECT_LINES} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT ?`,
      [...params, limit + 1],
    );
    return toPage(rows, limit, toTimelineItem, (r) => TIME_ID_CURSOR.format({ at: r.at, id: r.id }));
  }

  /** Inside the writer's transaction: the lines of a new incident's failure run, written before it opened, join its timeline. */
  async attachRunIn(tx: EntityManager, incidentId: number, run: FailureRun): Promise<void> {
    await tx.query(
      `UPDATE events SET incident_id = ? WHERE monitor_id = ? AND incident_id IS NULL AND at >= ? AND at <= ? AND kind IN (${run.kinds.map(() => '?').join(', ')})`,
      [incidentId, run.monitorId, run.since, run.until, ...run.kinds],
    );
  }

  /**
   * An incident's lines, oldest first; with `run`, those of its failure run that do not carry its
   * id yet (the incident is not written, so attachRunIn has not run).
   */
  incidentLines(incidentId: number, run: FailureRun | null): Promise<IncidentLine[]> {
    return this.db.read<IncidentLine[]>(
      run === null
        ? 'SELECT id, at, kind, text FROM events WHERE incident_id = ? ORDER BY at, id'
        : `SELECT id, at, kind, text FROM events WHERE incident_id = ? OR (monitor_id = ? AND incident_id IS NULL AND at >= ? AND at <= ? AND kind IN (${run.kinds.map(() => '?').join(', ')})) ORDER BY at, id`,
      run === null ? [incidentId] : [incidentId, run.monitorId, run.since, run.until, ...run.kinds],
    );
  }

  /** The `data` text of the newest line of this kind, or null (none, or none with data). */
  async latestData(kind: EventKind): Promise<string | null> {
    const rows = await this.db.read<{ data: string | null }[]>(
      'SELECT data FROM events WHERE kind = ? ORDER BY id DESC LIMIT 1',
      [kind],
    );
    return rows[0]?.data ?? null;
  }
}

/** Retention: deletes up to `limit` timeline lines older than `before`, and answers how many went. */
export async function deleteEventsBeforeIn(tx: EntityManager, before: number, limit: number): Promise<number> {
  await tx.query('DELETE FROM events WHERE id IN (SELECT id FROM events WHERE at < ? LIMIT ?)', [before, limit]);
  const [{ n }] = await tx.query<{ n: number }[]>('SELECT changes() AS n');
  return n;
}
