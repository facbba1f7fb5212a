/**
 * Judging a bar (spec "Bar state"): not_watched before the service was watched, no_data without
 * any up or down time, bad under 99 %, warn with any downtime or under 99.9 % (months: only under
 * 99.9 %, as every month of a real service has some), ok otherwise. Thresholds are compared on
 * exact times, never on a rounded percentage. Time in maintenance is in neither up nor down
 * (docs/maintenance.md, "Uptime"); a bar mostly in maintenance (more than half of its time with
 * data) is `maintenance`, unless the time outside the window was bad: an outage beside a window
 * is not hidden by it. Pure.
 */
import type { Period } from './periods';

export const BAR_STATES = ['not_watched', 'no_data', 'ok', 'maintenance', 'warn', 'bad'] as const;
export type BarState = (typeof BAR_STATES)[number];

/** The part of a rollup a bar needs. */
export interface Tally {
  up_ms: number;
  down_ms: number;
  /** Time in maintenance (rollups' maint_ms). */
  maint_ms: number;
  lat_n: number;
  lat_sum: number;
}

export function emptyTally(): Tally {
  return { up_ms: 0, down_ms: 0, maint_ms: 0, lat_n: 0, lat_sum: 0 };
}

export function addTally(into: Tally, t: Tally): void {
  into.up_ms += t.up_ms;
  into.down_ms += t.down_ms;
  into.maint_ms += t.maint_ms;
  into.lat_n += t.lat_n;
  into.lat_sum += t.lat_sum;
}

/**
 * The tallies of a strip's bars, five numbers a bar in one typed array (Tally's fields, in its
 * order). A page of 100 services over 90 days has 9,900 of them: as objects they were a
 * megabyte per build that outlived the young generation and was promoted, so that a full
 * collection came every few uncached pages (docs/performance.md, "Fourteenth round"). A strip's
 * tallies are not changed once its build has them (fragments.ts keeps them to compare).
 */
export class Tallies {
  readonly data: Float64Array;

  /** `data`: five numbers a bar, zeros by default (a view of a larger buffer: many()). */
  constructor(
    readonly length: number,
    data?: Float64Array,
  ) {
    this.data = data ?? new Float64Array(length * 5);
  }

  /**
   * `count` strips of `length` bars in one buffer: each strip's own array outside V8's heap cost
   * an allocation and a release of its own (100 services: 100 a build).
   */
  static many(count: number, length: number): Tallies[] {
    const buffer = new Float64Array(count * length * 5);
    return Array.from(
      { length: count },
      (_, i) => new Tallies(length, buffer.subarray(i * length * 5, (i + 1) * length * 5)),
    );
  }

  static of(list: readonly Tally[]): Tallies {
    const out = new Tallies(list.length);
    list.forEach((t, i) => out.add(i, t));
    return out;
  }

  /** Bar i's tally, written into `into` (a scratch object the caller reuses, or a new one). */
  at(i: number, into: Tally = emptyTally()): Tally {
    const d = this.data;
    const at = i * 5;
    into.up_ms = d[at];
    into.down_ms = d[at + 1];
    into.maint_ms = d[at + 2];
    into.lat_n = d[at + 3];
    into.lat_sum = d[at + 4];
    return into;
  }

  add(i: number, t: Tally): void {
    const d = this.data;
    const at = i * 5;
    d[at] += t.up_ms;
    d[at + 1] += t.down_ms;
    d[at + 2] += t.maint_ms;
    d[at + 3] += t.lat_n;
    d[at + 4] += t.lat_sum;
  }

  /** Adds another strip of the same length, bar by bar (a section's bars). */
  addAll(other: Tallies): void {
    for (let k = 0; k < this.data.length; k++) this.data[k] += other.data[k];
  }

  /** All bars together. */
  total(): Tally {
    const t = emptyTally();
    for (let k = 0; k < this.data.length; k += 5) {
      t.up_ms += this.data[k];
      t.down_ms += this.data[k + 1];
      t.maint_ms += this.data[k + 2];
      t.lat_n += this.data[k + 3];
      t.lat_sum += this.data[k + 4];
    }
    return t;
  }
}

/**
 * A state as its place in BAR_STATES, which is also its rank: the later, the worse (maintenance
 * ranks above ok, so a section shows that a service was held, and below any downtime). A page's
 * 9,000 bars keep their states as ranks in a Uint8Array per strip (barRanks, worstRanks).
 */
export const NOT_WATCHED = 0;
export const NO_DATA = 1;
export const OK = 2;
export const MAINTENANCE = 3;
export const WARN = 4;
export const BAD = 5;

export function barState(
  t: Pick<Tally, 'up_ms' | 'down_ms'> & { maint_ms?: number },
  period: Pick<Period, 'end'>,
  watchedFrom: number,
  monthly: boolean,
): BarState {
  return BAR_STATES[barRank(t, period, watchedFrom, monthly)];
}

/** barState as its rank. */
function barRank(
  t: Pick<Tally, 'up_ms' | 'down_ms'> & { maint_ms?: number },
  period: Pick<Period, 'end'>,
  watchedFrom: number,
  monthly: boolean,
): number {
  if (period.end <= watchedFrom) return NOT_WATCHED;
  const total = t.up_ms + t.down_ms;
  const maint = t.maint_ms ?? 0;
  if (total === 0) return maint > 0 ? MAINTENANCE : NO_DATA;
  if (t.up_ms * 100 < total * 99) return BAD;
  if (maint > total) return MAINTENANCE;
  if (t.up_ms * 1000 < total * 999) return WARN;
  if (!monthly && t.down_ms > 0) return WARN;
  return OK;
}

/** The ranks of a strip's bars (barRank of each). */
export function barRanks(
  tallies: Tallies,
  periods: readonly Pick<Period, 'end'>[],
  watchedFrom: number,
  monthly: boolean,
): Uint8Array {
  const out = new Uint8Array(periods.length);
  const scratch = emptyTally();
  for (let i = 0; i < periods.length; i++) out[i] = barRank(tallies.at(i, scratch), periods[i], watchedFrom, monthly);
  return out;
}

/** The worst of several bars (a section's bar shows its worst service). */
export function worstState(states: readonly BarState[]): BarState {
  let worst = NOT_WATCHED;
  for (const s of states) worst = Math.max(worst, BAR_STATES.indexOf(s));
  return BAR_STATES[worst];
}

/**
 * Bar by bar, the worst of several strips of `n` bars as ranks (a section's strip from its
 * services'): worstState of each column, without making the columns.
 */
export function worstRanks(strips: readonly Uint8Array[], n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (const strip of strips) for (let i = 0; i < n; i++) if (strip[i] > out[i]) out[i] = strip[i];
  return out;
}

/** Uptime percent with 3 decimals, as the API answers it elsewhere; null without data. */
export function uptimeOf(t: Pick<Tally, 'up_ms' | 'down_ms'>): number | null {
  const total = t.up_ms + t.down_ms;
  return total === 0 ? null : Math.round((t.up_ms / total) * 100_000) / 1000;
}

export function averageOf(t: Pick<Tally, 'lat_n' | 'lat_sum'>): number | null {
  return t.lat_n === 0 ? null : Math.round(t.lat_sum / t.lat_n);
}

/**
 * Uptime for people: two decimals, cut rather than rounded, so any downtime never reads as
 * "100%" (99.9996 is "99.99%"); whole 100 when nothing was down.
 */
export function percentText(uptime: number | null, downMs = 0): string {
  if (uptime === null) return 'No data';
  if (uptime >= 100 && downMs === 0) return '100%';
  const cut = Math.min(Math.floor(uptime * 100) / 100, 99.99);
  return `${cut.toFixed(2)}%`;
}
