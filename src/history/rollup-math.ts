/**
 * How check rows become hourly and daily rollups. Pure.
 *
 * Counts and latency go to the hour (and local day) of each check. Time goes to outcomes: a
 * check's outcome holds from its time until the monitor's next check, but at most `cap` ms
 * (its interval plus timeout): a longer gap is time without data and counts for nothing. Good
 * checks (up or slow) give `up_ms`, failed ones `down_ms`; checks that were not counted (the
 * service was blind, a network path problem) or could not judge give `unknown_ms`, which counts
 * as neither up nor down. Uptime = up_ms / (up_ms + down_ms).
 */
import { CheckRow, OUTCOME_CODE } from './check-row';
import { addTo, Histogram } from './latency-histogram';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface RollupAcc {
  up_ms: number;
  down_ms: number;
  unknown_ms: number;
  n_up: number;
  n_slow: number;
  n_down: number;
  n_unknown: number;
  lat_n: number;
  lat_sum: number;
  lat_min: number | null;
  lat_max: number | null;
  hist: Histogram;
}

export type SpanKind = 'up' | 'down' | 'unknown';

/** The last check of a monitor whose span is still open. */
export interface Tail {
  at: number;
  kind: SpanKind;
}

export function emptyAcc(): RollupAcc {
  return { up_ms: 0, down_ms: 0, unknown_ms: 0, n_up: 0, n_slow: 0, n_down: 0, n_unknown: 0, lat_n: 0, lat_sum: 0, lat_min: null, lat_max: null, hist: {} };
}

export function isCounted(row: Pick<CheckRow, 'info'>): boolean {
  return row.info === null || !row.info.includes('"n":');
}

export function spanKind(row: Pick<CheckRow, 'outcome' | 'info'>): SpanKind {
  if (!isCounted(row) || row.outcome === OUTCOME_CODE.unknown) return 'unknown';
  return row.outcome === OUTCOME_CODE.down ? 'down' : 'up';
}

/** Start of the local day (epoch ms, UTC) that holds `t`, for a zone `tzOffsetMin` east of UTC. */
export function dayIndex(t: number, tzOffsetMin: number): number {
  return Math.floor((t + tzOffsetMin * 60_000) / DAY_MS);
}

export function dayStart(index: number, tzOffsetMin: number): number {
  return index * DAY_MS - tzOffsetMin * 60_000;
}

export class RollupBatch {
  readonly hours = new Map<string, { monitorId: number; key: number; acc: RollupAcc }>();
  readonly days = new Map<string, { monitorId: number; key: number; acc: RollupAcc }>();

  constructor(private readonly tzOffsetMin: number) {}

  private accs(monitorId: number, t: number): RollupAcc[] {
    const hour = Math.floor(t / HOUR_MS);
    const day = dayIndex(t, this.tzOffsetMin);
    return [this.get(this.hours, monitorId, hour), this.get(this.days, monitorId, day)];
  }

  private get(map: RollupBatch['hours'], monitorId: number, key: number): RollupAcc {
    const k = `${monitorId}:${key}`;
    let e = map.get(k);
    if (!e) {
      e = { monitorId, key, acc: emptyAcc() };
      map.set(k, e);
    }
    return e.acc;
  }

  addCheck(row: CheckRow): void {
    for (const acc of this.accs(row.monitor_id, row.at)) {
      if (row.outcome === OUTCOME_CODE.up) acc.n_up += 1;
      else if (row.outcome === OUTCOME_CODE.slow) acc.n_slow += 1;
      else if (row.outcome === OUTCOME_CODE.down) acc.n_down += 1;
      else acc.n_unknown += 1;
      // Latency statistics describe answers that came back good.
      if ((row.outcome === OUTCOME_CODE.up || row.outcome === OUTCOME_CODE.slow) && row.latency !== null) {
        acc.lat_n += 1;
        acc.lat_sum += row.latency;
        acc.lat_min = acc.lat_min === null ? row.latency : Math.min(acc.lat_min, row.latency);
        acc.lat_max = acc.lat_max === null ? row.latency : Math.max(acc.lat_max, row.latency);
        addTo(acc.hist, row.latency);
      }
    }
  }

  /** Adds [from, to) of one outcome, split at hour and local-day boundaries. */
  addSpan(monitorId: number, from: number, to: number, kind: SpanKind): void {
    let t = from;
    while (t < to) {
      const hourEnd = (Math.floor(t / HOUR_MS) + 1) * HOUR_MS;
      const dayEnd = dayStart(dayIndex(t, this.tzOffsetMin) + 1, this.tzOffsetMin);
      const end = Math.min(to, hourEnd, dayEnd);
      for (const acc of this.accs(monitorId, t)) acc[`${kind}_ms`] += end - t;
      t = end;
    }
  }
}

/** The part of a tail's span that lies before `next` (capped). */
export function closedSpan(tail: Tail, next: number, capMs: number): [number, number] {
  return [tail.at, Math.min(next, tail.at + capMs)];
}

/**
 * Accounts a batch of rows (any order) against the open tails: each monitor's previous check
 * closes its span at the next check. Mutates `tails`.
 */
export function accountRows(rows: readonly CheckRow[], tails: Map<number, Tail>, capFor: (monitorId: number) => number, tzOffsetMin: number): RollupBatch {
  const batch = new RollupBatch(tzOffsetMin);
  const sorted = [...rows].sort((a, b) => a.monitor_id - b.monitor_id || a.at - b.at);
  for (const row of sorted) {
    batch.addCheck(row);
    const tail = tails.get(row.monitor_id);
    if (tail && row.at > tail.at) {
      const [from, to] = closedSpan(tail, row.at, capFor(row.monitor_id));
      batch.addSpan(row.monitor_id, from, to, tail.kind);
    }
    if (!tail || row.at > tail.at) tails.set(row.monitor_id, { at: row.at, kind: spanKind(row) });
  }
  return batch;
}

export function mergeAcc(into: RollupAcc, from: RollupAcc): void {
  into.up_ms += from.up_ms;
  into.down_ms += from.down_ms;
  into.unknown_ms += from.unknown_ms;
  into.n_up += from.n_up;
  into.n_slow += from.n_slow;
  into.n_down += from.n_down;
  into.n_unknown += from.n_unknown;
  into.lat_n += from.lat_n;
  into.lat_sum += from.lat_sum;
  into.lat_min = from.lat_min === null ? into.lat_min : into.lat_min === null ? from.lat_min : Math.min(into.lat_min, from.lat_min);
  into.lat_max = from.lat_max === null ? into.lat_max : into.lat_max === null ? from.lat_max : Math.max(into.lat_max, from.lat_max);
  for (const [b, n] of Object.entries(from.hist)) into.hist[Number(b)] = (into.hist[Number(b)] ?? 0) + n;
}

/** Uptime percent from up and down time, or null when neither was seen. */
export function uptimePct(acc: Pick<RollupAcc, 'up_ms' | 'down_ms'>): number | null {
  const total = acc.up_ms + acc.down_ms;
  return total === 0 ? null : Math.round((acc.up_ms / total) * 100_000) / 1000;
}
