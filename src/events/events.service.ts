/** The timeline: writes its lines (inside the caller's transaction where a change has one) and reads them for GET /events. */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { Database } from '../db/database';
import { EventEntity } from './entities/event.entity';
import type { EventKind } from './event-kinds';
import { EventRow, TimelineItem, timelineFilter, toTimelineItem } from './timeline';
import { Page, pageQuery, TIME_ID_CURSOR, toPage } from '../common/paging';

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
        `INSERT INTO events (at, kind, monitor_id, incident_id, actor, text, data) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        part.flatMap((e) => [e.at ?? now, e.kind, e.monitorId ?? null, e.incidentId ?? null, e.actor ?? null, e.text, e.data ? JSON.stringify(e.data) : null]),
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
      `SELECT id, at, kind, monitor_id, incident_id, actor, text, data FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT ?`,
      [...params, limit + 1],
    );
    return toPage(rows, limit, toTimelineItem, (r) => TIME_ID_CURSOR.format({ at: r.at, id: r.id }));
  }
}
