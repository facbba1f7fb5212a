/**
 * Monitor configuration: create, read, change, replace by slug, delete, pause, mute and the
 * heartbeat URL. Every change is one transaction with its timeline line (who did it) and is
 * announced on the event bus after it commits.
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { actorName, Caller } from '../auth/caller';
import { randomToken, sha256 } from '../auth/tokens';
import { ApiError, FieldError } from '../common/api-error';
import { CLOCK, Clock } from '../common/clock';
import { intCursor, Page, pageQuery } from '../common/paging';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import { SettingsService } from '../system/settings.service';
import { canonicalJson, changedFields } from './canonical';
import { MonitorConfig } from './monitor-config';
import { mergePatch, parseMonitorBody } from './monitor-input';
import { configToBody, MonitorDto, toMonitorDto } from './monitor.mapper';
import { initialState, MONITOR_STATUSES, StateRow, toStateDto } from './monitor-state';
import { MonitorStats, MonitorStatsRegistry } from './monitor-stats';
import { MONITOR_KINDS } from './monitor-types';
import { LiveStates } from './live-states';
import { MonitorsRepository, splitState, StoredMonitor } from './monitors.repository';
import { slugify, uniqueSlug } from './slug';
import { describeTarget } from './target';

export type MonitorAnswer = MonitorDto & { heartbeat_url?: string };

interface ListedJson {
  updatedAt: number;
  state: StateRow;
  stats: MonitorStats;
  muted: boolean;
  json: string;
}

@Injectable()
export class MonitorsService {
  private readonly listed = new Map<number, ListedJson>();

  constructor(
    private readonly db: Database,
    private readonly repo: MonitorsRepository,
    private readonly settings: SettingsService,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stats: MonitorStatsRegistry,
    private readonly live: LiveStates,
  ) {
    // Two changes can share a millisecond (and so an updated_at): drop the cached JSON on every change.
    this.bus.on('monitor.changed', ({ id }) => this.listed.delete(id));
    this.bus.on('monitor.deleted', ({ id }) => this.listed.delete(id));
  }

  /**
   * GET /monitors as JSON text. Lists of thousands are read often and change little between two
   * reads, so each monitor's JSON is kept until its row, live state, stats or muted flag change:
   * serialising was the largest cost of a long list.
   */
  async listJson(query: Record<string, unknown>): Promise<string> {
    const page = pageQuery(query);
    const before = intCursor(page.before);
    const filter = listFilter(query);
    let rows = await this.repo.list(filter, page.limit, before);
    if (filter.q !== undefined) {
      const q = filter.q;
      rows = rows.filter((r) => {
        const c = this.repo.toStored(r).config;
        return [c.name, c.slug, describeTarget(c)].some((t) => t.toLowerCase().includes(q));
      });
    }
    const more = rows.length > page.limit;
    const shown = rows.slice(0, page.limit);
    const now = this.clock.now();
    const stats = await this.stats.statsFor(shown.map((r) => r.id), now);
    const items = shown.map((r) => {
      const state = this.live.get(r.id) ?? splitState(r);
      const st = stats.get(r.id)!;
      const muted = r.muted_until !== null && r.muted_until > now;
      const cached = this.listed.get(r.id);
      if (cached && cached.updatedAt === r.updated_at && cached.state === state && cached.stats === st && cached.muted === muted) return cached.json;
      const m = this.repo.toStored(r);
      const json = JSON.stringify(toMonitorDto(m, toStateDto(state, m.config.muted_until, now), st));
      this.listed.set(r.id, { updatedAt: r.updated_at, state, stats: st, muted, json });
      return json;
    });
    if (this.listed.size > 2 * (this.live.size + 1000)) this.listed.clear();
    const next = more ? shown[shown.length - 1].id : null;
    return `{"items":[${items.join(',')}],"next_cursor":${JSON.stringify(next)}}`;
  }

  async get(ref: string): Promise<MonitorDto> {
    return this.answer(await this.resolve(ref));
  }

  async create(body: unknown, caller: Caller | null): Promise<MonitorAnswer> {
    const defaults = (await this.settings.get()).defaults;
    const parsed = parseMonitorBody(body, defaults, null);
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    const { id, token } = await this.db.tx(async (m) => {
      parsed.config.slug = await this.claimSlug(m, parsed.config, parsed.slugGiven, null);
      return this.insertIn(m, parsed.config, caller);
    });
    this.bus.emit('monitor.changed', { id, created: true, targetChanged: true, config: parsed.config });
    return this.withHeartbeatUrl(await this.answer(await this.mustFind(id)), token);
  }

  async patch(ref: string, body: unknown, caller: Caller | null): Promise<MonitorAnswer> {
    const current = await this.resolve(ref);
    const merged = mergePatch(configToBody(current.config), body);
    const defaults = (await this.settings.get()).defaults;
    const parsed = parseMonitorBody(merged, defaults, current.config);
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    const outcome = await this.db.tx(async (m) => {
      const fresh = await this.repo.findById(current.id, m);
      if (!fresh) throw ApiError.notFound('monitor');
      if (parsed.config.slug !== fresh.config.slug) parsed.config.slug = await this.claimSlug(m, parsed.config, true, fresh.id);
      return this.updateIn(m, fresh, parsed.config, caller);
    });
    return this.afterUpdate(current.id, outcome, parsed.config);
  }

  /** Create or replace by slug; `created` tells the controller which status to answer with. */
  async putBySlug(slug: string, body: unknown, caller: Caller | null): Promise<{ created: boolean; monitor: MonitorAnswer }> {
    if (!/^[a-z0-9-]{1,60}$/.test(slug)) throw ApiError.notFound('monitor');
    if (body && typeof body === 'object' && 'slug' in body && (body as { slug: unknown }).slug !== slug) {
      throw ApiError.invalid([{ field: 'slug', message: 'must match the slug in the path (or be left out)' }]);
    }
    const defaults = (await this.settings.get()).defaults;
    const existing = await this.repo.findBySlug(slug);
    const parsed = parseMonitorBody({ ...(body as object), slug }, defaults, existing?.config ?? null);
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    if (!existing) {
      const { id, token } = await this.db.tx(async (m) => {
        if (await this.repo.findBySlug(slug, m)) throw new ApiError('conflict', 'the monitor was created meanwhile; repeat the request');
        return this.insertIn(m, parsed.config, caller);
      });
      this.bus.emit('monitor.changed', { id, created: true, targetChanged: true, config: parsed.config });
      return { created: true, monitor: this.withHeartbeatUrl(await this.answer(await this.mustFind(id)), token) };
    }
    const outcome = await this.db.tx(async (m) => {
      const fresh = await this.repo.findById(existing.id, m);
      if (!fresh) throw ApiError.notFound('monitor');
      return this.updateIn(m, fresh, parsed.config, caller);
    });
    return { created: false, monitor: await this.afterUpdate(existing.id, outcome, parsed.config) };
  }

  async remove(ref: string, caller: Caller | null): Promise<void> {
    const current = await this.resolve(ref);
    await this.db.tx(async (m) => {
      // The history goes with the monitor (spec: "deletes monitor and history").
      await m.query('DELETE FROM checks WHERE monitor_id = ?', [current.id]);
      await this.repo.delete(m, current.id);
      await this.events.recordIn(m, {
        kind: 'monitor_deleted',
        text: `monitor "${current.config.name}" deleted`,
        actor: actorName(caller),
        data: { monitor_id: current.id, slug: current.config.slug },
      });
    });
    this.bus.emit('monitor.deleted', { id: current.id });
  }

  async setPaused(ref: string, paused: boolean, caller: Caller | null): Promise<MonitorDto> {
    const current = await this.resolve(ref);
    if (current.config.paused === paused) return this.answer(current);
    return this.patch(String(current.id), { paused }, caller);
  }

  async setMutedUntil(ref: string, until: number | null, caller: Caller | null): Promise<MonitorDto> {
    const current = await this.resolve(ref);
    if (until !== null && until <= this.clock.now()) {
      throw ApiError.invalid([{ field: 'until', message: 'must be in the future' }]);
    }
    if (current.config.muted_until === until) return this.answer(current);
    return this.patch(String(current.id), { muted_until: until === null ? null : new Date(until).toISOString() }, caller);
  }

  async newHeartbeatToken(ref: string, caller: Caller | null): Promise<{ heartbeat_url: string }> {
    const current = await this.resolve(ref);
    if (current.config.kind !== 'heartbeat') {
      throw ApiError.invalid([{ field: 'kind', message: 'only heartbeat monitors have a ping URL' }]);
    }
    const token = randomToken(24);
    await this.db.tx(async (m) => {
      await this.repo.setHeartbeatToken(m, current.id, sha256(token));
      await this.events.recordIn(m, {
        kind: 'monitor_updated',
        monitorId: current.id,
        text: `monitor "${current.config.name}": new heartbeat URL (the old one stopped working)`,
        actor: actorName(caller),
        data: { fields: ['heartbeat_url'] },
      });
    });
    this.bus.emit('monitor.token', { id: current.id });
    return { heartbeat_url: this.heartbeatUrl(token) };
  }

  // ---- shared by bulk -------------------------------------------------------------------

  /** Inserts a monitor and its state row; heartbeat monitors get a ping token (returned once). */
  async insertIn(m: EntityManager, c: MonitorConfig, caller: Caller | null, withToken = true): Promise<{ id: number; token: string | null }> {
    const now = this.clock.now();
    const token = c.kind === 'heartbeat' && withToken ? randomToken(24) : null;
    const id = await this.repo.insert(m, c, now, token ? sha256(token) : null);
    await this.repo.insertState(m, initialState(id, c.paused, now));
    await this.events.recordIn(m, {
      kind: 'monitor_created',
      monitorId: id,
      text: `monitor "${c.name}" created (${describeTarget(c)})`,
      actor: actorName(caller),
    });
    return { id, token };
  }

  /**
   * Writes a new configuration over a stored one; nothing is written when it is the same
   * (so replaying a replace changes nothing, updated_at included).
   */
  async updateIn(m: EntityManager, current: StoredMonitor, next: MonitorConfig, caller: Caller | null): Promise<UpdateOutcome> {
    if (canonicalJson(current.config) === canonicalJson(next)) return { changed: false, targetChanged: false, token: null };
    const now = this.clock.now();
    await this.repo.update(m, current.id, next, now);
    const targetChanged = current.config.kind !== next.kind || describeTarget(current.config) !== describeTarget(next);
    if (next.paused !== current.config.paused) {
      await this.repo.setStatus(m, current.id, next.paused ? 'paused' : 'unknown', now);
    } else if (targetChanged && !next.paused) {
      // Results of the old target say nothing about the new one.
      await this.repo.setStatus(m, current.id, 'unknown', now);
    }
    let token: string | null = null;
    if (next.kind === 'heartbeat' && current.config.kind !== 'heartbeat') {
      token = randomToken(24);
      await this.repo.setHeartbeatToken(m, current.id, sha256(token));
    } else if (next.kind !== 'heartbeat' && current.config.kind === 'heartbeat') {
      await this.repo.setHeartbeatToken(m, current.id, null);
    }
    const fields = changedFields(configToBody(current.config), configToBody(next));
    await this.events.recordIn(m, {
      kind: 'monitor_updated',
      monitorId: current.id,
      text: `monitor "${next.name}" changed: ${fields.join(', ')}`,
      actor: actorName(caller),
      data: { fields },
    });
    return { changed: true, targetChanged, token };
  }

  /** Picks the slug for a monitor: the given one if free (else 422), or one derived from the name. */
  async claimSlug(m: EntityManager, c: MonitorConfig, given: boolean, selfId: number | null): Promise<string> {
    if (given) {
      const holder = await this.repo.findBySlug(c.slug, m);
      if (holder && holder.id !== selfId) throw ApiError.invalid([{ field: 'slug', message: `already used by monitor ${holder.id}` }]);
      return c.slug;
    }
    const base = slugify(c.name, c.kind);
    const taken = await this.repo.slugsLike(base, m);
    return uniqueSlug(base, (s) => taken.has(s));
  }

  heartbeatUrl(token: string): string {
    return `${this.config.publicUrl}/hb/${token}`;
  }

  async resolve(ref: string): Promise<StoredMonitor> {
    let found: StoredMonitor | null = null;
    if (ref.startsWith('slug:')) {
      const slug = ref.slice(5);
      if (/^[a-z0-9-]{1,60}$/.test(slug)) found = await this.repo.findBySlug(slug);
    } else if (/^[1-9]\d{0,14}$/.test(ref)) {
      found = await this.repo.findById(Number(ref));
    }
    if (!found) throw ApiError.notFound('monitor');
    return found;
  }

  async answer(m: StoredMonitor): Promise<MonitorDto> {
    const now = this.clock.now();
    const state = this.live.get(m.id) ?? (await this.repo.stateOf(m.id));
    const stats = await this.stats.statsFor([m.id], now);
    return toMonitorDto(m, toStateDto(state ?? initialState(m.id, m.config.paused, now), m.config.muted_until, now), stats.get(m.id)!);
  }

  private async afterUpdate(id: number, outcome: UpdateOutcome, config: MonitorConfig): Promise<MonitorAnswer> {
    if (outcome.changed) this.bus.emit('monitor.changed', { id, created: false, targetChanged: outcome.targetChanged, config });
    return this.withHeartbeatUrl(await this.answer(await this.mustFind(id)), outcome.token);
  }

  private withHeartbeatUrl(dto: MonitorDto, token: string | null): MonitorAnswer {
    return token ? { ...dto, heartbeat_url: this.heartbeatUrl(token) } : dto;
  }

  private async mustFind(id: number): Promise<StoredMonitor> {
    const m = await this.repo.findById(id);
    if (!m) throw ApiError.notFound('monitor');
    return m;
  }
}

export interface UpdateOutcome {
  changed: boolean;
  targetChanged: boolean;
  token: string | null;
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
  const filter = { status, kind, group: text('group'), tag: text('tag'), q: q === undefined || q === '' ? undefined : q.toLowerCase() };
  if (errors.length) throw ApiError.invalid(errors);
  return filter;
}
