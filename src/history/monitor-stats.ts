/** `stats` of a monitor answer (StatsService computes them). Until a monitor has history every figure is null. */
import { quantile } from './latency-histogram';
import { emptyAcc, mergeAcc, RollupAcc, uptimePct } from './rollup-math';

export interface SparkPoint {
  t_ms: number;
  avg_ms: number | null;
  worst: 'up' | 'slow' | 'down' | 'unknown' | null;
}

export interface MonitorStats {
  uptime_24h: number | null;
  uptime_7d: number | null;
  uptime_30d: number | null;
  p50_ms_24h: number | null;
  p95_ms_24h: number | null;
  spark: SparkPoint[];
}

/** Whether two stats say the same (readers that keep an answer per stats object can then keep it). */
export function sameStats(a: MonitorStats, b: MonitorStats): boolean {
  if (a.uptime_24h !== b.uptime_24h || a.uptime_7d !== b.uptime_7d || a.uptime_30d !== b.uptime_30d) return false;
  if (a.p50_ms_24h !== b.p50_ms_24h || a.p95_ms_24h !== b.p95_ms_24h || a.spark.length !== b.spark.length) return false;
  return a.spark.every(
    (p, i) => p.t_ms === b.spark[i].t_ms && p.avg_ms === b.spark[i].avg_ms && p.worst === b.spark[i].worst,
  );
}

const CACHE_MS = 30_000;
/**
 * How long one monitor's stats are kept: 15 to 30 s by its id, so that the stats of a long list,
 * read together once, do not all expire (and their list answers get rebuilt) in the same request.
 */
export const statsTtlMs = (id: number): number => CACHE_MS - (id % 16) * 1_000;

/**
 * Each monitor's latest stats, fresh for statsTtlMs. An expired entry is still offered as the
 * one to keep when new figures say the same (answers kept per stats object stay valid), but only
 * for one more cache period: entries read longer ago are swept, so memory follows the monitors
 * read lately and not every monitor ever read.
 *
 * Stats without any data (a monitor that has no result yet) are kept too, until the monitor's
 * first result: `resultAdded` drops them, so that result shows at once. A result that comes while
 * figures are being read (inside `reading`) may be missing from them: such figures are not kept
 * when they have no data.
 *
 * A result whose outcome differs from the monitor's previous one (a monitor that starts failing,
 * or recovers) drops its figures too: the dashboard re-reads a monitor when its status changes,
 * and its "up 24 h" must move then, not up to 30 s later. A run of like results keeps them.
 */
export class StatsCache {
  private readonly entries = new Map<number, { at: number; stats: MonitorStats; empty: boolean }>();
  private sweptAt = -Infinity;
  private reads = 0;
  /** Monitors that got a result while a read was running (cleared when none runs). */
  private readonly fedDuringRead = new Set<number>();
  /** Each monitor's latest outcome code, to tell a result that changes its figures from one more of the same. */
  private readonly lastOutcome = new Map<number, number>();

  get size(): number {
    return this.entries.size;
  }

  /** The monitor's stats when still fresh at `now` (a clock that went back makes them stale). */
  fresh(id: number, now: number): MonitorStats | null {
    const e = this.entries.get(id);
    return e && now - e.at < statsTtlMs(id) && now >= e.at ? e.stats : null;
  }

  /** Around the reading of new figures and their put(): results that come meanwhile are noted (see put). */
  async reading<T>(read: () => Promise<T>): Promise<T> {
    this.reads += 1;
    try {
      return await read();
    } finally {
      this.reads -= 1;
      if (this.reads === 0) this.fedDuringRead.clear();
    }
  }

  /**
   * New figures for a monitor: the object kept before when they say the same, else `stats`.
   * Figures without data are not kept when a result came for the monitor while they were read.
   */
  put(id: number, stats: MonitorStats, now: number): MonitorStats {
    const before = this.entries.get(id)?.stats;
    const kept = before && sameStats(before, stats) ? before : stats;
    const empty = !hasData(stats);
    if (!empty || !this.fedDuringRead.has(id)) this.entries.set(id, { at: now, stats: kept, empty });
    return kept;
  }

  /**
   * A result was queued for the monitor: kept figures without data are out of date, and so are
   * figures when the outcome differs from the previous result's (or that one is not known).
   */
  resultAdded(id: number, outcome: number): void {
    const entry = this.entries.get(id);
    if (entry && (entry.empty || this.lastOutcome.get(id) !== outcome)) this.entries.delete(id);
    this.lastOutcome.set(id, outcome);
    if (this.reads > 0) this.fedDuringRead.add(id);
  }

  /** Drops the entries older than two cache periods; does the walk at most once a period. */
  sweep(now: number): void {
    if (now - this.sweptAt < CACHE_MS && now >= this.sweptAt) return;
    this.sweptAt = now;
    for (const [id, e] of this.entries) if (now - e.at >= 2 * CACHE_MS || now < e.at) this.entries.delete(id);
    // Outcomes of monitors no longer read (or deleted) are forgotten: their next result then drops
    // figures read meanwhile, which is only ever too careful.
    for (const id of this.lastOutcome.keys()) if (!this.entries.has(id)) this.lastOutcome.delete(id);
  }
}

/** Whether the figures say anything (a monitor with no result in 30 days has none). */
function hasData(s: MonitorStats): boolean {
  return s.uptime_30d !== null || s.uptime_24h !== null || s.spark.some((p) => p.worst !== null);
}

export const HOUR_MS = 3600_000;

/** The 24 hourly spark slots ending with the current hour, oldest first. */
export function sparkHours(now: number): number[] {
  const current = Math.floor(now / HOUR_MS) * HOUR_MS;
  return Array.from({ length: 24 }, (_, i) => current - (23 - i) * HOUR_MS);
}

export function noStats(now: number): MonitorStats {
  return {
    uptime_24h: null,
    uptime_7d: null,
    uptime_30d: null,
    p50_ms_24h: null,
    p95_ms_24h: null,
    spark: sparkHours(now).map((t) => ({ t_ms: t, avg_ms: null, worst: null })),
  };
}

/**
 * The figures from hourly accumulators (the last 24 hours up to `hourNow`) and daily ones (up to
 * the local day `today`): one reckoning for a monitor's own stats and a location's. Pure.
 */
export function statsFrom(
  hours: ReadonlyMap<number, RollupAcc>,
  days: ReadonlyMap<number, RollupAcc>,
  hourNow: number,
  today: number,
): MonitorStats {
  const last24 = sumAccs(hours, hourNow - 23, hourNow);
  return {
    uptime_24h: uptimePct(last24),
    uptime_7d: uptimePct(sumAccs(days, today - 6, today)),
    uptime_30d: uptimePct(sumAccs(days, today - 29, today)),
    p50_ms_24h: quantile(last24.hist, 0.5),
    p95_ms_24h: quantile(last24.hist, 0.95),
    spark: Array.from({ length: 24 }, (_, i): SparkPoint => {
      const hour = hourNow - 23 + i;
      const acc = hours.get(hour) ?? emptyAcc();
      return { t_ms: hour * HOUR_MS, avg_ms: avgMs(acc), worst: worstOf(acc) };
    }),
  };
}

/** The accumulators of keys `from` to `to`, summed. */
export function sumAccs(map: ReadonlyMap<number, RollupAcc>, from: number, to: number): RollupAcc {
  const acc = emptyAcc();
  for (const [k, v] of map) if (k >= from && k <= to) mergeAcc(acc, v);
  return acc;
}

export function avgMs(acc: RollupAcc): number | null {
  return acc.lat_n === 0 ? null : Math.round(acc.lat_sum / acc.lat_n);
}

/** The worst outcome among the checks (maintenance ones are in none). */
export function worstOf(acc: RollupAcc): SparkPoint['worst'] {
  if (acc.n_down > 0) return 'down';
  if (acc.n_slow > 0) return 'slow';
  if (acc.n_up > 0) return 'up';
  if (acc.n_unknown > 0) return 'unknown';
  return null;
}
