/** Writes timeline lines (the GET /events route and its filters come with the events issue). */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { Database } from '../db/database';
import { EventEntity } from './entities/event.entity';

export interface EventInput {
  kind: string;
  text: string;
  monitorId?: number | null;
  actor?: string | null;
  data?: Record<string, unknown> | null;
  at?: number;
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
        actor: e.actor ?? null,
        data: e.data ? JSON.stringify(e.data) : null,
      }),
    );
  }

  record(e: EventInput): Promise<EventEntity> {
    return this.db.tx((m) => this.recordIn(m, e));
  }
}
