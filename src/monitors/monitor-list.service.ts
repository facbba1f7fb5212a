/**
 * GET /monitors: a page of the list, filtered. Lists of thousands are read often and change little
 * between two reads, so each monitor's JSON is kept until its row, live state, stats or muted flag
 * change, and the page with its compressed bodies while its items stay the same (list-cache.ts).
 */
import { Inject, Injectable } from '@nestjs/common';
import { FieldError, ApiError } from '../common/http/api-error';
import { CLOCK, Clock } from '../common/clock';
import { commaLedJson, ID_CURSOR, pageOf, pageQuery } from '../common/http/paging';
import { EventBus } from '../events/event-bus';
import { toMonitorDto } from './monitor.mapper';
import { isMutedAt, MONITOR_STATUSES, MonitorStatus, toStateAnswer } from '../probes/status';
import { MonitorStats } from '../history/monitor-stats';
import { StatsService } from '../history/stats.service';
import { EngineService } from '../engine/engine.service';
import { MONITOR_KINDS } from '../probes/kinds';
import { ListedHead, ListedRow, MonitorsRepository, splitState } from '../catalog/monitors.repository';
import { ListCache, ListPage } from './list-cache';
import { describeTarget } from '../probes/target';

@Injectable()
export class MonitorListService {
  private readonly listed = new ListCache();

  constructor(
    private readonly repo: MonitorsRepository,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly stats: StatsService,
    private readonly engine: EngineService,
  ) {
    // Two changes can share a millisecond (and so an updated_at): drop the cached JSON on every change.
    this.bus.on('monitor.changed', ({ id }) => this.listed.drop(id));
    this.bus.on('monitor.deleted', ({ id }) => this.listed.drop(id));
  }

  /** A page of GET /monitors for its query (`limit`, `before`, `status`, `kind`, `group`, `tag`, `q`). */
  async page(query: Record<string, unknown>): Promise<ListPage> {
    const { limit, before } = pageQuery(query, ID_CURSOR);
    // `status` is matched against the live state, as the answers show it: the stored one can be
    // up to a write (a second) behind, and a monitor that just went down belongs in ?status=down.
    const { status, ...filter } = listFilter(query);
    const key = JSON.stringify([limit, before, status, filter.kind, filter.group, filter.tag, filter.q]);
    const hasStatus = (id: number, stored: MonitorStatus) =>
      status === undefined || (this.engine.stateOf(id)?.status ?? stored) === status;
    const now = this.clock.now();
    if (filter.q !== undefined) {
      const q = filter.q;
      const rows = (await this.repo.list(filter, limit, before)).filter((r) => {
        const c = this.repo.toListed(r).config;
        return (
          hasStatus(r.id, splitState(r).status) &&
          [c.name, c.slug, describeTarget(c)].some((t) => t.toLowerCase().includes(q))
        );
      });
      const page = pageOf(rows, limit, (r) => ID_CURSOR.format(r.id));
      const stats = await this.stats.statsFor(
        page.items.map((r) => r.id),
        now,
      );
      return this.listed.page(
        key,
        page.items.map((r) => this.listedJson(r, stats.get(r.id)!, now)),
        page.next_cursor,
      );
    }
    // The page's heads first; whole rows only of the monitors whose kept answer is out of date.
    // With a status, every head after the cursor is read and matched (ids and four columns).
    const heads =
      status === undefined
        ? await this.repo.listHeads(filter, limit, before)
        : (await this.repo.listHeads(filter, null, before)).filter((h) => hasStatus(h.id, h.status));
    const page = pageOf(heads, limit, (h) => ID_CURSOR.format(h.id));
    const stats = await this.stats.statsFor(
      page.items.map((h) => h.id),
      now,
    );
    const kept = new Map<number, Buffer>();
    for (const h of page.items) {
      const json = this.keptJson(h, stats.get(h.id)!, now);
      if (json !== null) kept.set(h.id, json);
    }
    const stale = page.items.filter((h) => !kept.has(h.id)).map((h) => h.id);
    const rows = new Map((stale.length ? await this.repo.listedByIds(stale) : []).map((r) => [r.id, r]));
    const items: Buffer[] = [];
    for (const h of page.items) {
      const row = rows.get(h.id);
      // A monitor deleted between the two reads is left out, as if the page had been read a moment later.
      const json = kept.get(h.id) ?? (row ? this.listedJson(row, stats.get(h.id)!, now) : null);
      if (json !== null) items.push(json);
    }
    this.listed.trim(2 * (this.engine.size + 1000));
    return this.listed.page(key, items, page.next_cursor);
  }

  /** The kept JSON of a listed monitor when its row, live state, stats and muted flag are as when it was made. */
  private keptJson(h: ListedHead, st: MonitorStats, now: number): Buffer | null {
    const state = this.engine.stateOf(h.id);
    return state
      ? this.listed.get(h.id, { updatedAt: h.updated_at, state, stats: st, muted: isMutedAt(h.muted_until, now) })
      : null;
  }

  /** One monitor of a list page as JSON text, kept until its row, live state, stats or muted flag change. */
  private listedJson(r: ListedRow, st: MonitorStats, now: number): Buffer {
    const state = this.engine.stateOf(r.id) ?? splitState(r);
    return this.listed.getOrMake(
      r.id,
      { updatedAt: r.updated_at, state, stats: st, muted: isMutedAt(r.muted_until, now) },
      () => {
        const m = this.repo.toListed(r);
        return commaLedJson(
          toMonitorDto(
            m,
            toStateAnswer(
              state,
              m.config.muted_until,
              now,
              this.engine.maintenance.markOf(r.id),
              this.engine.votes.answer(r.id, m.config),
            ),
            st,
          ),
        );
      },
    );
  }
}

function listFilter(query: Record<string, unknown>) {
  const errors: FieldError[] = [];
  const text = (name: string): string | undefined => {
    const v = query[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.length > 200) {
      errors.push({ field: name, message: 'must be a single text value of at most 200 characters' });
      return undefined;
    }
    return v;
  };
  const status = text('status');
  const kind = text('kind');
  const q = text('q');
  if (status !== undefined && !(MONITOR_STATUSES as readonly string[]).includes(status)) {
    errors.push({ field: 'status', message: `must be one of ${MONITOR_STATUSES.join(', ')}` });
  }
  if (kind !== undefined && !(MONITOR_KINDS as readonly string[]).includes(kind)) {
    errors.push({ field: 'kind', message: `must be one of ${MONITOR_KINDS.join(', ')}` });
  }
  const filter = {
    status,
    kind,
    group: text('group'),
    tag: text('tag'),
    q: q === undefined || q === '' ? undefined : q.toLowerCase(),
  };
  if (errors.length) throw ApiError.invalid(errors);
  return filter;
}
