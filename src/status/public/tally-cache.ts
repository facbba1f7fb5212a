/**
 * Rollups that can no longer change, kept in memory per monitor: a page of 100 services over 90
 * days sums 9,000 rollup rows, and reading them from SQLite each time costs far more than the
 * rest of the page. A rollup key (a UTC hour or a local day) is final once no check can add to
 * it any more: the writer adds a check's outcome up to its next check, at most the monitor's
 * interval and timeout later (a heartbeat: interval and grace), so keys that ended before that
 * horizon, and a minute for the writer, are final. Newer keys are read fresh on every build.
 * Pure: the caller reads the rows.
 */
import { emptyTally, Tally } from './bars';

export interface TallyRow {
  id: number;
  key: number;
  up_ms: number;
  down_ms: number;
  maint_ms: number;
  lat_n: number;
  lat_sum: number;
}

const FIELDS = 5;

interface Span {
  /** Keys from..to (inclusive) are held; `to` is the newest final key loaded. */
  from: number;
  to: number;
  data: Float64Array;
  /** Per plan (sumPeriods' `plan`): its bars' sums up to `finalTo`, in Tallies' layout; dropped by fill. */
  sums?: Map<string, { finalTo: number; bars: Float64Array }>;
}

/** Plans whose sums a span keeps: a page's ranges on one table (30d, 90d and 12mo share the days). */
const KEPT_PLANS = 4;

export class TallyCache {
  private readonly spans = new Map<number, Span>();

  /** `keep`: at most this many keys per monitor, the newest (older ones are dropped as new ones come). */
  constructor(private readonly keep: number) {}

  /** The key ranges of a monitor still to be read so that [from, to] is held (none, one or two). */
  missing(id: number, from: number, to: number): [number, number][] {
    if (to < from) return [];
    const s = this.spans.get(id);
    if (!s) return [[from, to]];
    const out: [number, number][] = [];
    if (from < s.from) out.push([from, Math.min(to, s.from - 1)]);
    if (to > s.to) out.push([Math.max(from, s.to + 1), to]);
    return out;
  }

  /** Stores the rows of [from, to] for a monitor (keys without a row are zero). */
  fill(id: number, from: number, to: number, rows: readonly TallyRow[]): void {
    const old = this.spans.get(id);
    const hi = old ? Math.max(old.to, to) : to;
    const lo = Math.max(old ? Math.min(old.from, from) : from, hi - this.keep + 1);
    let span = old;
    if (!old || lo !== old.from || hi !== old.to) {
      span = { from: lo, to: hi, data: new Float64Array((hi - lo + 1) * FIELDS) };
      if (old) {
        // Copy what overlaps: the oldest keys fall out when the span would pass `keep`.
        const a = Math.max(old.from, lo);
        if (a <= old.to) span.data.set(old.data.subarray((a - old.from) * FIELDS), (a - lo) * FIELDS);
      }
      this.spans.set(id, span);
    }
    const s = span!;
    // Sums made from what the span held before (sumPeriods) are made again from what it holds now.
    s.sums = undefined;
    // A gap between the old span and the new range holds zeros: only ever filled as one range, so none occurs.
    s.data.fill(0, (Math.max(from, s.from) - s.from) * FIELDS, (to - s.from + 1) * FIELDS);
    for (const r of rows) {
      if (r.key < Math.max(from, s.from) || r.key > to) continue;
      const i = (r.key - s.from) * FIELDS;
      s.data[i] += r.up_ms;
      s.data[i + 1] += r.down_ms;
      s.data[i + 2] += r.lat_n;
      s.data[i + 3] += r.lat_sum;
      s.data[i + 4] += r.maint_ms;
    }
  }

  /** Adds the held keys [from, to] of a monitor into `into`. */
  addInto(id: number, from: number, to: number, into: Tally): void {
    const s = this.spans.get(id);
    if (!s) return;
    const a = Math.max(from, s.from);
    const b = Math.min(to, s.to);
    for (let k = a; k <= b; k++) {
      const i = (k - s.from) * FIELDS;
      into.up_ms += s.data[i];
      into.down_ms += s.data[i + 1];
      into.lat_n += s.data[i + 2];
      into.lat_sum += s.data[i + 3];
      into.maint_ms += s.data[i + 4];
    }
  }

  /**
   * Each period's held keys up to `finalTo`, summed into `into` (zeros, five numbers a period in
   * Tally's order: bars.ts, Tallies), as addInto would sum them one period at a time. The sums are
   * kept with the monitor's span for `plan` (a signature of the periods' keys) while `finalTo` is
   * the same: a page built again copies them instead of adding up every key of every bar (9,000
   * additions of five numbers for 100 services over 90 days). fill() drops them: keys only ever
   * change there.
   */
  sumPeriods(
    id: number,
    periods: readonly { from: number; to: number }[],
    finalTo: number,
    plan: string,
    into: Float64Array,
  ): void {
    const s = this.spans.get(id);
    if (!s) return;
    let kept = s.sums?.get(plan);
    if (kept?.finalTo !== finalTo) {
      const bars = new Float64Array(periods.length * FIELDS);
      const t = emptyTally();
      for (let i = 0; i < periods.length && periods[i].from <= finalTo; i++) {
        t.up_ms = t.down_ms = t.maint_ms = t.lat_n = t.lat_sum = 0;
        this.addInto(id, periods[i].from, Math.min(periods[i].to, finalTo), t);
        const at = i * FIELDS;
        bars[at] = t.up_ms;
        bars[at + 1] = t.down_ms;
        bars[at + 2] = t.maint_ms;
        bars[at + 3] = t.lat_n;
        bars[at + 4] = t.lat_sum;
      }
      kept = { finalTo, bars };
      if (!s.sums || s.sums.size >= KEPT_PLANS) s.sums = new Map();
      s.sums.set(plan, kept);
    }
    into.set(kept.bars);
  }

  /** The newest final key held for a monitor, or null. */
  heldTo(id: number): number | null {
    return this.spans.get(id)?.to ?? null;
  }

  drop(id: number): void {
    this.spans.delete(id);
  }

  /** Keeps only these monitors (the others are no longer on the page). */
  keepOnly(ids: ReadonlySet<number>): void {
    for (const id of this.spans.keys()) if (!ids.has(id)) this.spans.delete(id);
  }

  clear(): void {
    this.spans.clear();
  }

  get size(): number {
    return this.spans.size;
  }
}
