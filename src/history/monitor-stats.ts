/** `stats` of a monitor answer (StatsService computes them). Until a monitor has history every figure is null. */
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
  return a.spark.every((p, i) => p.t_ms === b.spark[i].t_ms && p.avg_ms === b.spark[i].avg_ms && p.worst === b.spark[i].worst);
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
