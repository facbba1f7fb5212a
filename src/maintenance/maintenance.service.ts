/**
 * The maintenance routes (docs/maintenance.md): windows are stored in one transaction with their
 * timeline line, and the engine's book (engine/maintenance/maintenance-book.ts) is told after the
 * commit, so a window starts or ends in the engine only once it is on disk.
 */
import { Inject, Injectable } from '@nestjs/common';
import { actorName, Caller } from '../common/access/caller';
import { CLOCK, Clock } from '../common/clock';
import { ApiError } from '../common/http/api-error';
import { ID_CURSOR, Page, pageQuery, toPage } from '../common/http/paging';
import { parseId } from '../common/validation/ids';
import { Database } from '../db/database';
import { EngineService } from '../engine/engine.service';
import { startedByHand, stoppedByHand, viewOf } from '../engine/maintenance/window-state';
import {
  allWindows,
  deleteWindowIn,
  insertWindowIn,
  updateWindowIn,
  windowById,
  windowByIdIn,
  WindowFields,
  WindowRow,
} from '../engine/maintenance/windows.table';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { EventsService } from '../events/events.service';
import { toWindowAnswer, WindowAnswer } from './window-answer';
import {
  parsePreviewBody,
  parseStartBody,
  parseWindowInput,
  PREVIEW_COUNT,
  stateFilter,
  WindowInput,
} from './window-input';
import { occurrencesAfter } from '../engine/maintenance/schedule';
import { toIso } from '../common/time';

@Injectable()
export class MaintenanceService {
  constructor(
    private readonly db: Database,
    private readonly engine: EngineService,
    private readonly monitors: MonitorsRepository,
    private readonly events: EventsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /maintenance: newest first; `state` filters on the state at this moment. */
  async list(query: Record<string, unknown>): Promise<Page<WindowAnswer>> {
    const state = stateFilter(query);
    const { limit, before } = pageQuery(query, ID_CURSOR);
    const now = this.clock.now();
    // Windows are tens, not thousands, and their state is computed, not stored: filter in memory.
    const rows = (await allWindows(this.db))
      .filter((w) => (before === null || w.id < before) && (state === null || viewOf(w, now).state === state))
      .sort((a, b) => b.id - a.id)
      .slice(0, limit + 1);
    return toPage(
      rows,
      limit,
      (w) => toWindowAnswer(w, now),
      (w) => ID_CURSOR.format(w.id),
    );
  }

  /** POST /maintenance/preview {schedule}: its next five occurrences from now (the dashboard's editor). */
  preview(body: unknown): { occurrences: { start: string; end: string }[] } {
    const schedule = parsePreviewBody(body);
    return {
      occurrences: occurrencesAfter(schedule, this.clock.now(), PREVIEW_COUNT).map((o) => ({
        start: toIso(o.start),
        end: toIso(o.end),
      })),
    };
  }

  async get(ref: string): Promise<WindowAnswer> {
    return toWindowAnswer(await this.find(ref), this.clock.now());
  }

  async create(body: unknown, caller: Caller | null): Promise<WindowAnswer> {
    const input = parseWindowInput(body, false);
    await this.checkMonitors(input.monitors);
    const now = this.clock.now();
    const fields: WindowFields = {
      ...input,
      manual_start: null,
      manual_end: null,
      stopped_until: null,
      ended_at: null,
      updated_at: now,
    };
    const row = await this.db.tx(async (m) => {
      const id = await insertWindowIn(m, fields, now);
      await this.events.recordIn(m, {
        kind: 'maintenance_created',
        text: `maintenance window "${input.title}" created`,
        actor: actorName(caller),
        data: { window_id: id },
      });
      return { ...fields, id, created_at: now };
    });
    this.engine.maintenance.put(row);
    return toWindowAnswer(row, now);
  }

  async patch(ref: string, body: unknown, caller: Caller | null): Promise<WindowAnswer> {
    const id = parseId(ref, 'maintenance window');
    const input = parseWindowInput(body, true);
    if (input.monitors !== undefined) await this.checkMonitors(input.monitors);
    const fields = Object.keys(input) as (keyof WindowInput)[];
    return this.change(id, caller, fields, (w) => ({ ...w, ...input }));
  }

  async remove(ref: string, caller: Caller | null): Promise<void> {
    const id = parseId(ref, 'maintenance window');
    await this.db.tx(async (m) => {
      const w = await windowByIdIn(m, id);
      if (!w) throw ApiError.notFound('maintenance window');
      await deleteWindowIn(m, id);
      await this.events.recordIn(m, {
        kind: 'maintenance_deleted',
        text: `maintenance window "${w.title}" deleted`,
        actor: actorName(caller),
        data: { window_id: id },
      });
    });
    this.engine.maintenance.remove(id);
  }

  /** POST /maintenance/{id}/start: active now, until `end` or until stopped (any kind of schedule). */
  async start(ref: string, body: unknown, caller: Caller | null): Promise<WindowAnswer> {
    const id = parseId(ref, 'maintenance window');
    const end = parseStartBody(body, this.clock.now());
    return this.change(id, caller, ['started'], (w, now) => startedByHand(w, now, end));
  }

  /** POST /maintenance/{id}/stop: ended now; a scheduled occurrence running now stays over. */
  async stop(ref: string, caller: Caller | null): Promise<WindowAnswer> {
    const id = parseId(ref, 'maintenance window');
    return this.change(id, caller, ['stopped'], (w, now) => stoppedByHand(w, now));
  }

  /** One change of a stored window, with its timeline line, in one transaction; then the engine hears of it. */
  private async change(
    id: number,
    caller: Caller | null,
    fields: string[],
    edit: (w: WindowRow, now: number) => WindowRow,
  ): Promise<WindowAnswer> {
    const now = this.clock.now();
    const row = await this.db.tx(async (m) => {
      const current = await windowByIdIn(m, id);
      if (!current) throw ApiError.notFound('maintenance window');
      const next = { ...edit(current, now), updated_at: now };
      await updateWindowIn(m, id, next);
      await this.events.recordIn(m, {
        kind: 'maintenance_updated',
        text: `maintenance window "${next.title}" ${fields[0] === 'started' || fields[0] === 'stopped' ? `${fields[0]} by hand` : 'changed'}`,
        actor: actorName(caller),
        data: { window_id: id, fields },
      });
      return next;
    });
    this.engine.maintenance.put(row);
    return toWindowAnswer(row, now);
  }

  private async find(ref: string): Promise<WindowRow> {
    const w = await windowById(this.db, parseId(ref, 'maintenance window'));
    if (!w) throw ApiError.notFound('maintenance window');
    return w;
  }

  /** Every id names a monitor that exists: a 422 naming the first unknown one otherwise. */
  private async checkMonitors(ids: number[] | null | undefined): Promise<void> {
    if (!ids || ids.length === 0) return;
    const known = new Set((await this.monitors.listedByIds(ids)).map((r) => r.id));
    const errors = ids.flatMap((id, i) =>
      known.has(id) ? [] : [{ field: `monitors[${i}]`, message: `there is no monitor ${id}` }],
    );
    if (errors.length) throw ApiError.invalid(errors);
  }
}
