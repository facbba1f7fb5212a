/**
 * How check rows become hourly and daily rollups. Pure.
 *
 * Counts and latency go to the hour (and local day) of each check. Time goes to outcomes: a
 * check's outcome holds from its time until the monitor's next check, but at most `cap` ms
 * (its interval plus timeout): a longer gap is time without data and counts for nothing. Good
 * checks (up or slow) give `up_ms`, failed ones `down_ms`; checks that were not counted (the
 * service was blind, a network path problem) or could not judge give `unknown_ms`, which counts
 * as neither up nor down. Checks made while a maintenance window held the monitor give
 * `maint_ms` and count as `n_maint` (not as up or down, whatever their outcome), so time in
 * maintenance is outside both sides of uptime too (docs/maintenance.md, "Uptime").
 * Uptime = up_ms / (up_ms + down_ms): null when neither was seen (a day all in maintenance).
 */
import { CheckRow, maintenanceOf, OUTCOME_CODE } from './check-row';
import { addTo, Histogram } from './latency-histogram';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface RollupAcc {
  up_ms: number;
  down_ms: number;
  unknown_ms: number;
  maint_ms: number;
  n_up: number;
  n_slow: number;
  n_down: number;
  n_unknown: number;
  n_maint: number;
  lat_n: number;
  lat_sum: number;
  lat_min: number | null;
  lat_max: number | null;
  hist: Histogram;
}

/** What a status page's bar takes of an accumulator (status/public/bars.ts, Tally). */
export type RollupTally = Pick<RollupAcc, 'up_ms' | 'down_ms' | 'maint_ms' | 'lat_n' | 'lat_sum'>;

export type SpanKind = 'up' | 'down' | 'unknown' | 'maintenance';

/** The last check of a monitor whose span is still open. */
export interface Tail {
  at: number;
  kind: SpanKind;
}

export function emptyAcc(): RollupAcc {
  return {
    up_ms: 0,
    down_ms: 0,
    unknown_ms: 0,
    maint_ms: 0,
    n_up: 0,
    n_slow: 0,
    n_down: 0,
    n_unknown: 0,
    n_maint: 0,
    lat_n: 0,
    lat_sum: 0,
    lat_min: null,
    lat_max: null,
    hist: {},
  };
}

export function isCounted(row: Pick<CheckRow, 'info'>): boolean {
  return row.info === null || !row.info.includes('"n":');
}

/** A check in maintenance holds maintenance time even when it was not counted (blind): the window was planned. */
export function spanKind(row: Pick<CheckRow, 'outcome' | 'info'>): SpanKind {
  if (maintenanceOf(row.info) !== null) return 'maintenance';
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

export type RollupTable = 'rollup_hour' | 'rollup_day';

/** One accumulator of a RollupDeltas: a monitor, a table and its key (hour or local day). */
export interface RollupEntry {
  monitorId: number;
  table: RollupTable;
  key: number;
  acc: RollupAcc;
}

/**
 * Contributions to the rollups not yet on disk, per monitor: its hours and its local days. Rows
 * and spans are added as they come; the writer moves them to the database at each fold.
 */
export class RollupDeltas {
  private readonly monitors = new Map<number, { hours: Map<number, RollupAcc>; days: Map<number, RollupAcc> }>();

  get monitorCount(): number {
    return this.monitors.size;
  }

  private monitorAccs(monitorId: number): { hours: Map<number, RollupAcc>; days: Map<number, RollupAcc> } {
    let m = this.monitors.get(monitorId);
    if (!m) {
      m = { hours: new Map(), days: new Map() };
      this.monitors.set(monitorId, m);
    }
    return m;
  }

  addCheck(row: CheckRow, tzOffsetMin: number): void {
    const m = this.monitorAccs(row.monitor_id);
    countCheck(slot(m.hours, Math.floor(row.at / HOUR_MS)), row);
    countCheck(slot(m.days, dayIndex(row.at, tzOffsetMin)), row);
  }

  /** Adds [from, to) of one outcome, split at hour and local-day boundaries. */
  addSpan(monitorId: number, from: number, to: number, kind: SpanKind, tzOffsetMin: number): void {
    const m = this.monitorAccs(monitorId);
    let t = from;
    while (t < to) {
      const hourEnd = (Math.floor(t / HOUR_MS) + 1) * HOUR_MS;
      const dayEnd = dayStart(dayIndex(t, tzOffsetMin) + 1, tzOffsetMin);
      const end = Math.min(to, hourEnd, dayEnd);
      addMs(slot(m.hours, Math.floor(t / HOUR_MS)), kind, end - t);
      addMs(slot(m.days, dayIndex(t, tzOffsetMin)), kind, end - t);
      t = end;
    }
  }

  /** One monitor's accumulators of a table, by key (undefined when it has none). */
  of(monitorId: number, table: RollupTable): ReadonlyMap<number, RollupAcc> | undefined {
    const m = this.monitors.get(monitorId);
    return m && (table === 'rollup_hour' ? m.hours : m.days);
  }

  *entries(): IterableIterator<RollupEntry> {
    for (const [monitorId, m] of this.monitors) {
      for (const [key, acc] of m.hours) yield { monitorId, table: 'rollup_hour', key, acc };
      for (const [key, acc] of m.days) yield { monitorId, table: 'rollup_day', key, acc };
    }
  }

  /** Adds everything of `other` (a fold that failed gives its contributions back). */
  absorb(other: RollupDeltas): void {
    for (const e of other.entries()) {
      const m = this.monitorAccs(e.monitorId);
      mergeAcc(slot(e.table === 'rollup_hour' ? m.hours : m.days, e.key), e.acc);
    }
  }

  drop(monitorId: number): void {
    this.monitors.delete(monitorId);
  }

  /** Moves the accumulators of these monitors out into a RollupDeltas of their own. */
  take(monitorIds: Iterable<number>): RollupDeltas {
    const out = new RollupDeltas();
    for (const id of monitorIds) {
      const m = this.monitors.get(id);
      if (!m) continue;
      out.monitors.set(id, m);
      this.monitors.delete(id);
    }
    return out;
  }
}

function countCheck(acc: RollupAcc, row: CheckRow): void {
  if (maintenanceOf(row.info) !== null) acc.n_maint += 1;
  else if (row.outcome === OUTCOME_CODE.up) acc.n_up += 1;
  else if (row.outcome === OUTCOME_CODE.slow) acc.n_slow += 1;
  else if (row.outcome === OUTCOME_CODE.down) acc.n_down += 1;
  else acc.n_unknown += 1;
  // Latency statistics describe answers that came back good (in maintenance too: a real answer's time).
  if ((row.outcome === OUTCOME_CODE.up || row.outcome === OUTCOME_CODE.slow) && row.latency !== null) {
    acc.lat_n += 1;
    acc.lat_sum += row.latency;
    acc.lat_min = acc.lat_min === null ? row.latency : Math.min(acc.lat_min, row.latency);
    acc.lat_max = acc.lat_max === null ? row.latency : Math.max(acc.lat_max, row.latency);
    addTo(acc.hist, row.latency);
  }
}

function addMs(acc: RollupAcc, kind: SpanKind, ms: number): void {
  if (kind === 'up') acc.up_ms += ms;
  else if (kind === 'down') acc.down_ms += ms;
  else if (kind === 'maintenance') acc.maint_ms += ms;
  else acc.unknown_ms += ms;
}

function slot(map: Map<number, RollupAcc>, key: number): RollupAcc {
  let acc = map.get(key);
  if (!acc) {
    acc = emptyAcc();
    map.set(key, acc);
  }
  return acc;
}

/** The part of a tail's span that lies before `next` (capped). */
export function closedSpan(tail: Tail, next: number, capMs: number): [number, number] {
  return [tail.at, Math.min(next, tail.at + capMs)];
}

/**
 * Accounts one row against its monitor's open tail: the previous check's span closes at this
 * check (at most `capMs` long), the check itself is counted, and it becomes the tail. Rows of one
 * monitor must come in time order; one not after the tail is counted but moves no span.
 */
export function accountRow(
  row: CheckRow,
  tails: Map<number, Tail>,
  capMs: number,
  tzOffsetMin: number,
  into: RollupDeltas,
): void {
  into.addCheck(row, tzOffsetMin);
  const tail = tails.get(row.monitor_id);
  if (!tail) {
    tails.set(row.monitor_id, { at: row.at, kind: spanKind(row) });
  } else if (row.at > tail.at) {
    const [from, to] = closedSpan(tail, row.at, capMs);
    into.addSpan(row.monitor_id, from, to, tail.kind, tzOffsetMin);
    // The tail is this map's own (readers take its fields, never the object): moved in place.
    tail.at = row.at;
    tail.kind = spanKind(row);
  }
}

/** Accounts a batch of rows (any order): sorted by monitor and time, then one by one. Mutates `tails`. */
export function accountRows(
  rows: readonly CheckRow[],
  tails: Map<number, Tail>,
  capFor: (monitorId: number) => number,
  tzOffsetMin: number,
  into = new RollupDeltas(),
): RollupDeltas {
  const sorted = [...rows].sort((a, b) => a.monitor_id - b.monitor_id || a.at - b.at);
  for (const row of sorted) accountRow(row, tails, capFor(row.monitor_id), tzOffsetMin, into);
  return into;
}

export function mergeAcc(into: RollupAcc, from: RollupAcc): void {
  mergeCounts(into, from);
  for (const [b, n] of Object.entries(from.hist)) into.hist[Number(b)] = (into.hist[Number(b)] ?? 0) + n;
}

/** Everything of mergeAcc but the histogram: sums, the smaller minimum and the larger maximum. */
export function mergeCounts(into: Omit<RollupAcc, 'hist'>, from: Omit<RollupAcc, 'hist'>): void {
  into.up_ms += from.up_ms;
  into.down_ms += from.down_ms;
  into.unknown_ms += from.unknown_ms;
  into.maint_ms += from.maint_ms;
  into.n_up += from.n_up;
  into.n_slow += from.n_slow;
  into.n_down += from.n_down;
  into.n_unknown += from.n_unknown;
  into.n_maint += from.n_maint;
  into.lat_n += from.lat_n;
  into.lat_sum += from.lat_sum;
  into.lat_min =
    from.lat_min === null ? into.lat_min : into.lat_min === null ? from.lat_min : Math.min(into.lat_min, from.lat_min);
  into.lat_max =
    from.lat_max === null ? into.lat_max : into.lat_max === null ? from.lat_max : Math.max(into.lat_max, from.lat_max);
}

/** Uptime percent from up and down time, or null when neither was seen (maintenance and unknown time are in neither). */
export function uptimePct(acc: Pick<RollupAcc, 'up_ms' | 'down_ms'>): number | null {
  const total = acc.up_ms + acc.down_ms;
  return total === 0 ? null : Math.round((acc.up_ms / total) * 100_000) / 1000;
}

/** Which share of the time with data (up, down, unknown, maintenance) was in maintenance, percent; null without any. */
export function maintenancePct(acc: Pick<RollupAcc, 'up_ms' | 'down_ms' | 'unknown_ms' | 'maint_ms'>): number | null {
  const total = acc.up_ms + acc.down_ms + acc.unknown_ms + acc.maint_ms;
  return total === 0 ? null : Math.round((acc.maint_ms / total) * 100_000) / 1000;
}
