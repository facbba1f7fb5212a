/**
 * Monitor statistics, series and uptime days, read from the rollups (plus what is not written
 * yet): the monitor's own, or one probe location's (`?location=`, location-rollups.ts). Stats for
 * monitor lists are cached for 30 s: they move slowly and lists are read often.
 */
import { LOCAL_NAME } from '../catalog/locations.table';
import { locationResults } from '../catalog/location-results.table';
import { Inject, Injectable } from '@nestjs/common';
import { invalidField } from '../common/http/api-error';
import { CLOCK, Clock } from '../common/clock';
import { intQuery, LimitRule } from '../common/http/paging';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { Database } from '../db/database';
import { avgMs, MonitorStats, StatsCache, statsFrom } from './monitor-stats';
import { SettingsService } from '../settings/settings.service';
import { CHECK_COLUMNS, CheckRow, maintenanceOf, OUTCOME_CODES } from './check-row';
import { quantile } from './latency-histogram';
import {
  dayIndex,
  dayStart,
  emptyAcc,
  HOUR_MS,
  maintenancePct,
  mergeAcc,
  RollupAcc,
  RollupTable,
  uptimePct,
} from './rollup-math';
import { RollupsService } from './rollups.service';
import { CHECK_ERROR_CODES } from '../probes/check-result';
import { CheckWriter } from './writer';
import { LocationRollupsService } from './locations/location-rollups';
import { ChosenLocation, locationQuery } from './locations/location-query';

export const SERIES_RANGES = ['1h', '24h', '7d', '30d', '90d'] as const;
export type SeriesRange = (typeof SERIES_RANGES)[number];
/** GET /monitors/{id}/uptime `days` (spec "Limits"). */
export const UPTIME_DAYS: LimitRule = { default: 90, min: 1, max: 400 };

export interface SeriesAnswer {
  range: SeriesRange;
  resolution: 'raw' | 'hour' | 'day';
  points: Record<string, unknown>[];
}

export interface UptimeAnswer {
  uptime: number | null;
  days: { date: string; uptime: number | null; down_ms: number; maintenance_ms: number; checks: number }[];
}

/** GET /monitors/{id}/stats: a monitor answer's `stats`, and whose they are (`local`, or a location's name). */
export type LocationStatsAnswer = MonitorStats & { location: string };

/** A day of 10-second checks, and some: the most raw points a location's series answers. */
const LOCATION_POINTS_MAX = 10_000;

@Injectable()
export class StatsService {
  private readonly cache = new StatsCache();

  constructor(
    private readonly db: Database,
    private readonly rollups: RollupsService,
    private readonly locationRollups: LocationRollupsService,
    private readonly writer: CheckWriter,
    private readonly monitors: MonitorsRepository,
    private readonly settings: SettingsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    // A check in maintenance is a kind of its own for the cache: entering or leaving a window moves the figures.
    writer.addHook({
      added: (row) => this.cache.resultAdded(row.monitor_id, maintenanceOf(row.info) === null ? row.outcome : -1),
    });
  }

  async statsFor(ids: number[], now: number): Promise<Map<number, MonitorStats>> {
    const out = new Map<number, MonitorStats>();
    const stale: number[] = [];
    for (const id of ids) {
      const fresh = this.cache.fresh(id, now);
      if (fresh) out.set(id, fresh);
      else stale.push(id);
    }
    if (stale.length === 0) return out;
    const tz = (await this.settings.get()).tz_offset_min;
    const hourNow = Math.floor(now / HOUR_MS);
    const today = dayIndex(now, tz);
    // Read and kept inside reading(): a result that comes meanwhile may be missing (StatsCache).
    await this.cache.reading(async () => {
      const [hours, days] = await Promise.all([
        this.rollups.read('rollup_hour', stale, hourNow - 23, hourNow, now),
        this.rollups.read('rollup_day', stale, today - 29, today, now),
      ]);
      for (const id of stale) {
        const stats = statsFrom(hours.get(id) ?? new Map(), days.get(id) ?? new Map(), hourNow, today);
        // Unchanged figures keep their object, so answers kept per stats object (GET /monitors) stay
        // valid. Figures without data are kept until the monitor's first result (StatsCache).
        out.set(id, this.cache.put(id, stats, now));
      }
    });
    this.cache.sweep(now);
    return out;
  }

  /**
   * GET /monitors/{id}/stats: the figures of a monitor answer's `stats`, of the service's own
   * checks (no `location`, or `local`) or of one location's results (docs/agents.md).
   */
  async stats(ref: string, rawLocation: unknown): Promise<LocationStatsAnswer> {
    const monitor = await this.monitors.resolve(ref);
    const location = await locationQuery(this.db, rawLocation);
    const now = this.clock.now();
    if (location === null)
      return { location: LOCAL_NAME, ...(await this.statsFor([monitor.id], now)).get(monitor.id)! };
    const tz = (await this.settings.get()).tz_offset_min;
    const hourNow = Math.floor(now / HOUR_MS);
    const today = dayIndex(now, tz);
    const [hours, days] = await Promise.all([
      this.locationRollups.read('rollup_hour', monitor.id, location.id, hourNow - 23, hourNow, now),
      this.locationRollups.read('rollup_day', monitor.id, location.id, today - 29, today, now),
    ]);
    return { location: location.name, ...statsFrom(hours, days, hourNow, today) };
  }

  async series(ref: string, rawRange: unknown, rawLocation?: unknown): Promise<SeriesAnswer> {
    const range = (rawRange === undefined ? '24h' : rawRange) as SeriesRange;
    if (typeof rawRange !== 'undefined' && !(SERIES_RANGES as readonly unknown[]).includes(rawRange)) {
      throw invalidField('range', `must be one of ${SERIES_RANGES.join(', ')}`);
    }
    const monitor = await this.monitors.resolve(ref);
    const location = await locationQuery(this.db, rawLocation);
    const now = this.clock.now();
    if (range === '1h' || range === '24h') {
      const from = now - (range === '1h' ? HOUR_MS : 24 * HOUR_MS);
      const rows =
        location === null
          ? await this.rawRows(monitor.id, from, now)
          : await this.locationRawRows(monitor.id, location.id, from, now);
      return { range, resolution: 'raw', points: rows.map(rawPoint) };
    }
    const read = this.reader(monitor.id, location, now);
    if (range === '7d' || range === '30d') {
      const hourNow = Math.floor(now / HOUR_MS);
      const first = hourNow - (range === '7d' ? 7 * 24 : 30 * 24) + 1;
      const accs = await read('rollup_hour', first, hourNow);
      const points = [];
      for (let hour = first; hour <= hourNow; hour++)
        points.push(aggPoint(hour * HOUR_MS, accs.get(hour) ?? emptyAcc()));
      return { range, resolution: 'hour', points };
    }
    const tz = (await this.settings.get()).tz_offset_min;
    const today = dayIndex(now, tz);
    const accs = await read('rollup_day', today - 89, today);
    const points = [];
    for (let day = today - 89; day <= today; day++)
      points.push(aggPoint(dayStart(day, tz), accs.get(day) ?? emptyAcc()));
    return { range: '90d', resolution: 'day', points };
  }

  /** The rollups of the monitor's own checks (location null) or of one location's results, by key. */
  private reader(
    id: number,
    location: ChosenLocation | null,
    now: number,
  ): (table: RollupTable, from: number, to: number) => Promise<Map<number, RollupAcc>> {
    return async (table, from, to) =>
      location === null
        ? (await this.rollups.read(table, [id], from, to, now)).get(id)!
        : this.locationRollups.read(table, id, location.id, from, to, now);
  }

  /** A location's stored results from `from` to `to`, oldest first (at most LOCATION_POINTS_MAX, the newest). */
  private async locationRawRows(id: number, location: number, from: number, to: number): Promise<CheckRow[]> {
    const rows = await locationResults(this.db, id, location, to + 1, null, LOCATION_POINTS_MAX);
    return rows.filter((r) => r.at >= from).reverse();
  }

  async uptime(ref: string, query: Record<string, unknown>): Promise<UptimeAnswer> {
    const days = intQuery('days', query.days, UPTIME_DAYS);
    const monitor = await this.monitors.resolve(ref);
    const location = await locationQuery(this.db, query.location);
    const now = this.clock.now();
    const tz = (await this.settings.get()).tz_offset_min;
    const today = dayIndex(now, tz);
    const accs = await this.reader(monitor.id, location, now)('rollup_day', today - days + 1, today);
    const total = emptyAcc();
    const out: UptimeAnswer['days'] = [];
    for (let day = today - days + 1; day <= today; day++) {
      const acc = accs.get(day) ?? emptyAcc();
      mergeAcc(total, acc);
      out.push({
        date: localDate(day),
        uptime: uptimePct(acc),
        down_ms: acc.down_ms,
        maintenance_ms: acc.maint_ms,
        checks: acc.n_up + acc.n_slow + acc.n_down + acc.n_unknown + acc.n_maint,
      });
    }
    return { uptime: uptimePct(total), days: out };
  }

  private async rawRows(id: number, from: number, to: number): Promise<CheckRow[]> {
    // Results not in `checks` first: one only ever moves from there into `checks` (writer.ts).
    const unfolded = await this.writer.unfoldedOf(id);
    const stored = await this.db.read<CheckRow[]>(
      `SELECT ${CHECK_COLUMNS.join(', ')} FROM checks WHERE monitor_id = ? AND at >= ? AND at <= ? ORDER BY at`,
      [id, from, to],
    );
    const seen = new Set(stored.map((r) => r.at));
    const pending = unfolded.filter((r) => r.at >= from && r.at <= to && !seen.has(r.at));
    return [...stored, ...pending].sort((a, b) => a.at - b.at);
  }
}

function aggPoint(t: number, acc: RollupAcc): Record<string, unknown> {
  return {
    t_ms: t,
    avg_ms: avgMs(acc),
    p50_ms: quantile(acc.hist, 0.5),
    p95_ms: quantile(acc.hist, 0.95),
    min_ms: acc.lat_min,
    max_ms: acc.lat_max,
    up: acc.n_up,
    down: acc.n_down,
    slow: acc.n_slow,
    unknown: acc.n_unknown,
    // Checks made in maintenance are in none of the four counts above, and their time in neither side of uptime.
    maintenance: acc.n_maint,
    maintenance_ms: acc.maint_ms,
    maintenance_pct: maintenancePct(acc),
    uptime: uptimePct(acc),
  };
}

function rawPoint(r: CheckRow): Record<string, unknown> {
  return {
    t_ms: r.at,
    outcome: OUTCOME_CODES[r.outcome] ?? 'unknown',
    latency_ms: r.latency,
    dns_ms: r.dns,
    connect_ms: r.conn,
    tls_ms: r.tls,
    ttfb_ms: r.ttfb,
    status: r.status,
    error_code: r.error ? (CHECK_ERROR_CODES[r.error - 1] ?? null) : null,
    maintenance: maintenanceOf(r.info) !== null,
  };
}

/** YYYY-MM-DD of a local day index. */
function localDate(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
