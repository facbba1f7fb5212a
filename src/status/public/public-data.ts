/**
 * What the public page is drawn from, read with queries that select public columns only: a
 * monitor's public name and section (falling back to its name and group, as the spec says), its
 * sort, creation time and status; incidents' times. Targets, hosts, errors and settings are never
 * selected, so they cannot reach a page by mistake. Figures come from the history module's
 * rollups as they stand now (written rows, buffered results and open spans).
 *
 * Statuses and incidents are read from their tables, which the engine writes within a second of
 * a change; the page is cached for 30 s anyway.
 */
import { Injectable } from '@nestjs/common';
import { Database } from '../../db/database';
import { RollupsService } from '../../history/rollups.service';
import { PublicServiceRow, publicServiceRows } from '../../catalog/monitors.repository';
import {
  firstIncidentStart,
  incidentSpansSince,
  incidentSpansStarted,
  latestIncidentSpans,
  publicIncidentSpansSince,
} from '../../events/incidents.table';
import { Tallies } from './bars';
import { HOUR_MS, localDay, periodIndex, RangePlan } from './periods';
import { TallyCache, TallyRow } from './tally-cache';
import type { IncidentInput, ServiceInput } from './public-model';

/** A monitor's public settings as the draft of a preview may change them. */
export interface PublicOverride {
  public?: boolean;
  public_name?: string | null;
  public_group?: string | null;
  sort?: number;
}

/** A minute for the writer: results reach the rollups up to a second or so after they happen. */
const WRITER_MARGIN_MS = 60_000;

/**
 * How long after a moment the rollups of it may still change: a check's outcome counts until the
 * monitor's next check, at most its interval and timeout later (a heartbeat: interval and grace).
 */
function horizonOf(r: Pick<PublicServiceRow, 'kind' | 'interval_s' | 'timeout_ms' | 'grace_s'>): number {
  return r.kind === 'heartbeat' ? (r.interval_s + (r.grace_s ?? 60)) * 1000 : r.interval_s * 1000 + r.timeout_ms;
}

/**
 * Whose outage a Down service is affected by, in public words: the cause's public name when the
 * cause is on the page, else "another service" (a private monitor's name never reaches the page).
 */
function affectedByOf(r: PublicServiceRow): string | null {
  if (r.paused === 1 || r.status !== 'down' || r.cause_monitor_id === null) return null;
  if (r.cause_public !== 1) return 'another service';
  return r.cause_public_name ?? r.cause_name ?? 'another service';
}

@Injectable()
export class PublicData {
  /** Final day rollups: 800 days is twice the longest range; final hours: two weeks, twice 7d. */
  private readonly days = new TallyCache(800);
  private readonly hours = new TallyCache(24 * 14);

  constructor(
    private readonly db: Database,
    private readonly rollups: RollupsService,
  ) {}

  /** The public services; `overrides` (a preview's draft) may add, hide or rename some. */
  async services(overrides: Map<number, PublicOverride> = new Map()): Promise<ServiceInput[]> {
    const rows = await publicServiceRows(this.db, [...overrides.keys()]);
    return rows.flatMap((r): ServiceInput[] => {
      const o = overrides.get(r.id) ?? {};
      if (!(o.public ?? r.public === 1)) return [];
      const publicName = o.public_name !== undefined ? o.public_name : r.public_name;
      const publicGroup = o.public_group !== undefined ? o.public_group : r.public_group;
      return [
        {
          key: r.id,
          name: publicName ?? r.name,
          group: publicGroup ?? r.group_name,
          sort: o.sort ?? r.sort,
          watchedFrom: r.created_at,
          status: r.paused === 1 ? 'paused' : (r.status ?? 'unknown'),
          affectedBy: affectedByOf(r),
          horizonMs: horizonOf(r),
        },
      ];
    });
  }

  /**
   * Incidents of the monitors that are public now that were open at or after `since`: the saved
   * page's, for a build that reads them beside its services (public-status.service.ts, build).
   */
  publicIncidents(since: number): Promise<IncidentInput[]> {
    return publicIncidentSpansSince(this.db, since);
  }

  /** Incidents of these services that were open at or after `since`. */
  incidents(keys: number[], since: number): Promise<IncidentInput[]> {
    return keys.length === 0 ? Promise.resolve([]) : incidentSpansSince(this.db, keys, since);
  }

  /** Incidents of these services that started in [from, to), newest first. */
  incidentsBetween(keys: number[], from: number, to: number): Promise<IncidentInput[]> {
    return keys.length === 0 ? Promise.resolve([]) : incidentSpansStarted(this.db, keys, from, to);
  }

  /** The newest incidents of these services (by start), at most `limit`, with their ids (the feeds). */
  latestIncidents(keys: number[], limit: number): Promise<(IncidentInput & { id: number })[]> {
    return keys.length === 0 ? Promise.resolve([]) : latestIncidentSpans(this.db, keys, limit);
  }

  /** When the oldest incident of these services started, or null. */
  firstIncident(keys: number[]): Promise<number | null> {
    return keys.length === 0 ? Promise.resolve(null) : firstIncidentStart(this.db, keys);
  }

  /**
   * Each service's tally per bar of a range: final keys from memory (read once, tally-cache.ts),
   * the rest from the history module as it stands now, with what the writer has not written yet
   * and each monitor's open span.
   */
  async range(
    services: Pick<ServiceInput, 'key' | 'horizonMs'>[],
    plan: RangePlan,
    now: number,
    tzMin: number,
  ): Promise<Map<number, Tallies>> {
    const strips = Tallies.many(services.length, plan.periods.length);
    const out = new Map<number, Tallies>(services.map((s, i) => [s.key, strips[i]]));
    if (services.length === 0) return out;
    const cache = plan.table === 'rollup_day' ? this.days : this.hours;
    cache.keepOnly(new Set(services.map((s) => s.key)));
    const first = plan.periods[0].from;
    const last = plan.periods[plan.periods.length - 1].to;
    const keyOf = (t: number) => (plan.table === 'rollup_day' ? localDay(t, tzMin) : Math.floor(t / HOUR_MS));
    // Keys before the one holding (now - horizon) are final; group services by where that falls.
    const byFinal = new Map<number, number[]>();
    for (const s of services) {
      const finalTo = Math.min(last, keyOf(now - s.horizonMs - WRITER_MARGIN_MS) - 1);
      const group = byFinal.get(finalTo);
      if (group) group.push(s.key);
      else byFinal.set(finalTo, [s.key]);
    }
    // The periods' keys, which the final sums are kept by (tally-cache.ts, sumPeriods).
    const planKey = plan.periods.map((p) => `${p.from}-${p.to}`).join(',');
    for (const [finalTo, ids] of byFinal) {
      await this.load(cache, plan.table, ids, first, finalTo);
      for (const id of ids) cache.sumPeriods(id, plan.periods, finalTo, planKey, out.get(id)!.data);
      if (finalTo >= last) continue;
      await this.rollups.readTallies(plan.table, ids, Math.max(first, finalTo + 1), last, now, (id, k, t) => {
        const i = periodIndex(plan, k);
        if (i >= 0) out.get(id)!.add(i, t);
      });
    }
    return out;
  }

  /** Reads into the cache what it lacks of [from, to] for these monitors. */
  private async load(
    cache: TallyCache,
    table: RangePlan['table'],
    ids: number[],
    from: number,
    to: number,
  ): Promise<void> {
    const column = table === 'rollup_day' ? 'day' : 'hour';
    const wanted = new Map<string, number[]>();
    for (const id of ids) {
      for (const [a, b] of cache.missing(id, from, to))
        wanted.set(`${a}:${b}`, [...(wanted.get(`${a}:${b}`) ?? []), id]);
    }
    for (const [span, group] of wanted) {
      const [a, b] = span.split(':').map(Number);
      for (let i = 0; i < group.length; i += 500) {
        const part = group.slice(i, i + 500);
        const rows = await this.db.read<TallyRow[]>(
          `SELECT monitor_id AS id, ${column} AS key, up_ms, down_ms, maint_ms, lat_n, lat_sum FROM ${table}
           WHERE monitor_id IN (${part.map(() => '?').join(', ')}) AND ${column} >= ? AND ${column} <= ?`,
          [...part, a, b],
        );
        const byId = new Map<number, TallyRow[]>(part.map((id) => [id, []]));
        for (const r of rows) byId.get(r.id)?.push(r);
        for (const [id, list] of byId) cache.fill(id, a, b, list);
      }
    }
  }

  /** A monitor's history went with it. */
  forget(id: number): void {
    this.days.drop(id);
    this.hours.drop(id);
  }
}
