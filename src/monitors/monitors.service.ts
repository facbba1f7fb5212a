/**
 * Monitor configuration: create, read, change, replace by slug, delete, pause, mute and the
 * heartbeat URL. Every change is one transaction with its timeline line (who did it) and is
 * announced on the event bus after it commits.
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { actorName, Caller } from '../common/access/caller';
import { randomToken, sha256 } from '../common/access/tokens';
import { API_ROOT } from '../common/http/routes';
import { ShownOnce, shownOnce } from '../common/secrets/shown-once';
import { ApiError } from '../common/http/api-error';
import { isSlug } from '../common/validation/ids';
import { CLOCK, Clock } from '../common/clock';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { requireObjectBody } from '../common/validation/validation';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import { SettingsService } from '../settings/settings.service';
import { canonicalJson, changedFields } from '../common/canonical';
import { MonitorConfig } from '../probes/monitor-config';
import { mergePatch, parseMonitorBody, ParseResult } from './monitor-input';
import { configToBody, MonitorDto, toMonitorDto } from './monitor.mapper';
import { initialState, toStateAnswer } from '../probes/status';
import { removeMonitorIn } from '../engine/maintenance/windows.table';
import { HistoryService } from '../history/history.service';
import { StatsService } from '../history/stats.service';
import { EngineService } from '../engine/engine.service';
import { ChannelsService } from '../channels/channels.service';
import type { IncidentRow } from '../events/incident';
import { MonitorsRepository, StoredMonitor } from '../catalog/monitors.repository';
import { insertStateIn, resetStateIn, stateRowOf } from '../catalog/monitor-state.table';
import { slugify, uniqueSlug } from './slug';
import { describeTarget } from '../probes/target';
import { DependsOnService } from './depends-on/depends-on.service';

export type MonitorAnswer = MonitorDto & { heartbeat_url?: ShownOnce };

@Injectable()
export class MonitorsService {
  constructor(
    private readonly db: Database,
    private readonly repo: MonitorsRepository,
    private readonly settings: SettingsService,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stats: StatsService,
    private readonly history: HistoryService,
    private readonly engine: EngineService,
    private readonly channels: ChannelsService,
    private readonly dependsOn: DependsOnService,
  ) {}

  async get(ref: string): Promise<MonitorDto> {
    return this.answer(await this.repo.resolve(ref));
  }

  async create(body: unknown, caller: Caller | null): Promise<MonitorAnswer> {
    requireObjectBody(body);
    const defaults = (await this.settings.get()).defaults;
    const parsed = this.withKnownChannels(parseMonitorBody(body, defaults, null));
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    const { id, token } = await this.db.tx(async (m) => {
      parsed.config.slug = await this.claimSlug(m, parsed.config, parsed.slugGiven, null);
      await this.dependsOn.resolveIn(m, parsed, null);
      return this.insertIn(m, parsed.config, caller);
    });
    this.bus.emit('monitor.changed', { id, created: true, targetChanged: true, config: parsed.config });
    return this.withHeartbeatUrl(await this.answer(await this.mustFind(id)), token);
  }

  /**
   * The patch is checked against the monitor as read, outside the transaction (checking is the
   * slow part). When another change got in before the transaction, the patch is merged and
   * checked again over that change, so PATCHes of different fields that arrive together all stay.
   */
  async patch(ref: string, body: unknown, caller: Caller | null): Promise<MonitorAnswer> {
    const current = await this.repo.resolve(ref);
    const defaults = (await this.settings.get()).defaults;
    const parse = (stored: MonitorConfig) =>
      mustParse(this.withKnownChannels(parseMonitorBody(mergePatch(configToBody(stored), body), defaults, stored)));
    let parsed = parse(current.config);
    const outcome = await this.db.tx(async (m) => {
      const fresh = await this.repo.findById(current.id, m);
      if (!fresh) throw ApiError.notFound('monitor');
      if (configKey(fresh) !== configKey(current)) parsed = parse(fresh.config);
      // `slug: null` (not given after the merge) derives it from the name again, as at creation.
      if (!parsed.slugGiven || parsed.config.slug !== fresh.config.slug) {
        parsed.config.slug = await this.claimSlug(m, parsed.config, parsed.slugGiven, fresh.id);
      }
      await this.dependsOn.resolveIn(m, parsed, fresh.id);
      return this.updateIn(m, fresh, parsed.config, caller);
    });
    return this.afterUpdate(current.id, outcome, parsed.config);
  }

  /**
   * Create or replace by slug; `created` tells the controller which status to answer with.
   * Whether the slug exists is decided inside the transaction, so identical PUTs that arrive
   * together answer one 201 and then 200s (the body is checked again only if the stored monitor
   * changed between the first read and the transaction).
   */
  async putBySlug(
    slug: string,
    body: unknown,
    caller: Caller | null,
  ): Promise<{ created: boolean; monitor: MonitorAnswer }> {
    if (!isSlug(slug)) throw ApiError.notFound('monitor');
    requireObjectBody(body);
    // The path names the monitor: a slug in the body must repeat it; null means "the default", which is the path's.
    if (body.slug !== undefined && body.slug !== null && body.slug !== slug) {
      throw ApiError.invalid([{ field: 'slug', message: 'must match the slug in the path (or be left out, or null)' }]);
    }
    const defaults = (await this.settings.get()).defaults;
    const parse = (stored: StoredMonitor | null) =>
      mustParse(this.withKnownChannels(parseMonitorBody({ ...body, slug }, defaults, stored?.config ?? null)));
    const seen = await this.repo.findBySlug(slug);
    let parsed = parse(seen);
    const done = await this.db.tx(async (m) => {
      const existing = await this.repo.findBySlug(slug, m);
      if (configKey(existing) !== configKey(seen)) parsed = parse(existing);
      await this.dependsOn.resolveIn(m, parsed, existing?.id ?? null);
      if (!existing) return { created: true as const, ...(await this.insertIn(m, parsed.config, caller)) };
      return {
        created: false as const,
        id: existing.id,
        outcome: await this.updateIn(m, existing, parsed.config, caller),
      };
    });
    if (!done.created) return { created: false, monitor: await this.afterUpdate(done.id, done.outcome, parsed.config) };
    this.bus.emit('monitor.changed', { id: done.id, created: true, targetChanged: true, config: parsed.config });
    return {
      created: true,
      monitor: this.withHeartbeatUrl(await this.answer(await this.mustFind(done.id)), done.token),
    };
  }

  async remove(ref: string, caller: Caller | null): Promise<void> {
    const current = await this.repo.resolve(ref);
    const ended = await this.db.tx(async (m) => {
      // The history goes with the monitor (spec: "deletes monitor and history"); its incidents
      // stay, an open one ended with `deleted` (docs/incidents.md).
      const incident = await this.engine.endIncidentIn(m, current.id, 'deleted', actorName(caller));
      await this.history.deleteMonitorIn(m, current.id);
      await this.repo.delete(m, current.id);
      // It leaves the maintenance windows that named it, each change on the timeline (docs/maintenance.md).
      for (const w of await removeMonitorIn(m, current.id, this.clock.now())) {
        await this.events.recordIn(m, {
          kind: 'maintenance_updated',
          text: `maintenance window "${w.title}" no longer covers the deleted monitor "${current.config.name}"`,
          actor: actorName(caller),
          data: { window_id: w.id, fields: ['monitors'] },
        });
      }
      const dependants = await this.dependsOn.dropIn(m, current, caller);
      await this.events.recordIn(m, {
        kind: 'monitor_deleted',
        text: `monitor "${current.config.name}" deleted`,
        actor: actorName(caller),
        data: { monitor_id: current.id, slug: current.config.slug },
      });
      return { incident, dependants };
    });
    this.bus.emit('monitor.deleted', { id: current.id, endedIncident: ended.incident });
    for (const d of ended.dependants)
      this.bus.emit('monitor.changed', { id: d.id, created: false, targetChanged: false, config: d.config });
  }

  async setPaused(ref: string, paused: boolean, caller: Caller | null): Promise<MonitorDto> {
    const current = await this.repo.resolve(ref);
    if (current.config.paused === paused) return this.answer(current);
    return this.patch(String(current.id), { paused }, caller);
  }

  async setMutedUntil(ref: string, until: number | null, caller: Caller | null): Promise<MonitorDto> {
    const current = await this.repo.resolve(ref);
    if (until !== null && until <= this.clock.now()) {
      throw ApiError.invalid([{ field: 'until', message: 'must be in the future' }]);
    }
    if (current.config.muted_until === until) return this.answer(current);
    return this.patch(
      String(current.id),
      { muted_until: until === null ? null : new Date(until).toISOString() },
      caller,
    );
  }

  async newHeartbeatToken(ref: string, caller: Caller | null): Promise<{ heartbeat_url: ShownOnce }> {
    const current = await this.repo.resolve(ref);
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
    return { heartbeat_url: this.heartbeatUrl(current.id, token) };
  }

  // ---- shared by bulk -------------------------------------------------------------------

  /** Inserts a monitor and its state row; heartbeat monitors get a ping token (returned once). */
  async insertIn(
    m: EntityManager,
    c: MonitorConfig,
    caller: Caller | null,
    withToken = true,
  ): Promise<{ id: number; token: string | null }> {
    const now = this.clock.now();
    const token = c.kind === 'heartbeat' && withToken ? randomToken(24) : null;
    const id = await this.repo.insert(m, c, now, token ? sha256(token) : null);
    await insertStateIn(m, initialState(id, c.paused, now));
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
  async updateIn(
    m: EntityManager,
    current: StoredMonitor,
    next: MonitorConfig,
    caller: Caller | null,
  ): Promise<UpdateOutcome> {
    if (canonicalJson(current.config) === canonicalJson(next))
      return { changed: false, targetChanged: false, token: null, endedIncident: null };
    const now = this.clock.now();
    await this.repo.update(m, current.id, next, now);
    const targetChanged = current.config.kind !== next.kind || describeTarget(current.config) !== describeTarget(next);
    let endedIncident: IncidentRow | null = null;
    if (next.paused !== current.config.paused) {
      if (next.paused) endedIncident = await this.engine.endIncidentIn(m, current.id, 'paused', actorName(caller));
      await resetStateIn(m, current.id, next.paused ? 'paused' : 'unknown', now);
    } else if (targetChanged && !next.paused) {
      // Results of the old target say nothing about the new one.
      endedIncident = await this.engine.endIncidentIn(m, current.id, 'config_changed', actorName(caller));
      await resetStateIn(m, current.id, 'unknown', now);
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
    return { changed: true, targetChanged, token, endedIncident };
  }

  /**
   * Picks the slug for a monitor: the given one if free (else 422), or one derived from the name,
   * with -2, -3, ... when another monitor holds it (the monitor's own slug never counts as taken).
   */
  async claimSlug(m: EntityManager, c: MonitorConfig, given: boolean, selfId: number | null): Promise<string> {
    if (given) {
      const holder = await this.repo.findBySlug(c.slug, m);
      if (holder && holder.id !== selfId)
        throw ApiError.invalid([{ field: 'slug', message: `already used by monitor ${holder.id}` }]);
      return c.slug;
    }
    const base = slugify(c.name, c.kind);
    const taken = await this.repo.slugsLike(base, m, selfId);
    return uniqueSlug(base, (s) => taken.has(s));
  }

  /** A monitor may only name channels that exist: an unknown id is a 422 on `channels[i]`. */
  withKnownChannels(parsed: ParseResult): ParseResult {
    if (!parsed.ok || !parsed.config.channels?.length) return parsed;
    const unknown = new Set(this.channels.unknownIds(parsed.config.channels));
    if (unknown.size === 0) return parsed;
    return {
      ok: false,
      errors: parsed.config.channels.flatMap((id, i) =>
        unknown.has(id) ? [{ field: `channels[${i}]`, message: `there is no channel ${id}` }] : [],
      ),
    };
  }

  /** The ping URL holds the token itself: shown in this one answer, only its hash is stored. */
  private heartbeatUrl(id: number, token: string): ShownOnce {
    return shownOnce(
      `${this.config.publicUrl}/hb/${token}`,
      `POST /${API_ROOT}/monitors/${id}/heartbeat-token gives a new ping URL (the old one then stops working)`,
    );
  }

  async answer(m: StoredMonitor): Promise<MonitorDto> {
    const now = this.clock.now();
    const state = this.engine.stateOf(m.id) ?? (await stateRowOf(this.db.manager, m.id));
    const stats = await this.stats.statsFor([m.id], now);
    return toMonitorDto(
      m,
      toStateAnswer(
        state ?? initialState(m.id, m.config.paused, now),
        m.config.muted_until,
        now,
        this.engine.maintenance.markOf(m.id),
        this.engine.votes.answer(m.id, m.config),
      ),
      stats.get(m.id)!,
    );
  }

  private async afterUpdate(id: number, outcome: UpdateOutcome, config: MonitorConfig): Promise<MonitorAnswer> {
    if (outcome.changed)
      this.bus.emit('monitor.changed', {
        id,
        created: false,
        targetChanged: outcome.targetChanged,
        config,
        endedIncident: outcome.endedIncident,
      });
    return this.withHeartbeatUrl(await this.answer(await this.mustFind(id)), outcome.token);
  }

  private withHeartbeatUrl(dto: MonitorDto, token: string | null): MonitorAnswer {
    return token ? { ...dto, heartbeat_url: this.heartbeatUrl(dto.id, token) } : dto;
  }

  private async mustFind(id: number): Promise<StoredMonitor> {
    const m = await this.repo.findById(id);
    if (!m) throw ApiError.notFound('monitor');
    return m;
  }
}

function mustParse(parsed: ParseResult): Extract<ParseResult, { ok: true }> {
  if (!parsed.ok) throw ApiError.invalid(parsed.errors);
  return parsed;
}

/** What a body was checked against: a stored monitor's configuration (or none). */
function configKey(stored: StoredMonitor | null): string {
  return stored === null ? '' : canonicalJson(stored.config);
}

export interface UpdateOutcome {
  changed: boolean;
  targetChanged: boolean;
  token: string | null;
  /** The open incident this change ended (a pause, a new kind or target), to announce after the commit. */
  endedIncident: IncidentRow | null;
}
