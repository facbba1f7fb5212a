/**
 * The bars of each range and the moments they cover (spec: 24h = 24 hourly bars; 7d = 28 blocks
 * of six hours; 30d and 90d = days; 12mo = months). Days, months and six-hour blocks are the page's
 * local ones (settings tz_offset_min), so "Tuesday" is the owner's Tuesday for every visitor. Each
 * bar also names the keys of the rollup table it sums: UTC hours (rollup_hour) or local days
 * (rollup_day). Pure.
 */
import type { Range } from '../settings/look';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
const BLOCK_MS = 6 * HOUR_MS;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export interface Period {
  /** The JSON `period`: RFC 3339 start for hours and blocks, YYYY-MM-DD for days, YYYY-MM for months. */
  id: string;
  /** For people, in the page's time zone: "14:00", "Tue 3 Mar, 06:00-12:00", "3 Mar 2026", "March 2026". */
  label: string;
  /** Epoch ms; end exclusive. The current bar ends in the future. */
  start: number;
  end: number;
  /** Keys of the rollup table summed for this bar, inclusive. */
  from: number;
  to: number;
}

export interface RangePlan {
  range: Range;
  table: 'rollup_hour' | 'rollup_day';
  periods: Period[];
  /** Start of the first bar. */
  start: number;
  /** Months judge downtime by the 99.9 % line only (spec). */
  monthly: boolean;
}

/** Local day index (days since 1970-01-01 in the page's zone) of a moment; rollup_day uses the same. */
export function localDay(t: number, tzMin: number): number {
  return Math.floor((t + tzMin * 60_000) / DAY_MS);
}

export function localDayStart(day: number, tzMin: number): number {
  return day * DAY_MS - tzMin * 60_000;
}

/** The local wall-clock fields of a moment. */
export function localParts(
  t: number,
  tzMin: number,
): { y: number; mo: number; d: number; h: number; mi: number; wd: number } {
  const x = new Date(t + tzMin * 60_000);
  return {
    y: x.getUTCFullYear(),
    mo: x.getUTCMonth(),
    d: x.getUTCDate(),
    h: x.getUTCHours(),
    mi: x.getUTCMinutes(),
    wd: x.getUTCDay(),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** "3 Mar 2026" of a local day index. */
export function dayLabel(day: number): string {
  const x = new Date(day * DAY_MS);
  return `${x.getUTCDate()} ${MONTHS[x.getUTCMonth()].slice(0, 3)} ${x.getUTCFullYear()}`;
}

export function monthLabel(y: number, mo: number): string {
  return `${MONTHS[mo]} ${y}`;
}

/** "14:05" in the page's zone. */
export function clockLabel(t: number, tzMin: number): string {
  const p = localParts(t, tzMin);
  return `${pad(p.h)}:${pad(p.mi)}`;
}

/** "3 Mar 2026, 14:05" in the page's zone. */
export function momentLabel(t: number, tzMin: number): string {
  return `${dayLabel(localDay(t, tzMin))}, ${clockLabel(t, tzMin)}`;
}

/** "UTC", "UTC+2", "UTC-3:30". */
export function zoneLabel(tzMin: number): string {
  if (tzMin === 0) return 'UTC';
  const a = Math.abs(tzMin);
  return `UTC${tzMin < 0 ? '-' : '+'}${Math.floor(a / 60)}${a % 60 ? `:${pad(a % 60)}` : ''}`;
}

/** Local day index of the first day of a month (month 0-11, may run over either way). */
export function monthFirstDay(y: number, mo: number): number {
  return Math.floor(Date.UTC(y, mo, 1) / DAY_MS);
}

export function planRange(range: Range, now: number, tzMin: number): RangePlan {
  switch (range) {
    case '24h':
      return hours(now, tzMin);
    case '7d':
      return blocks(now, tzMin);
    case '30d':
      return days(range, 30, now, tzMin);
    case '90d':
      return days(range, 90, now, tzMin);
    case '12mo':
      return months(now, tzMin);
  }
}

function hours(now: number, tzMin: number): RangePlan {
  const current = Math.floor(now / HOUR_MS);
  const periods: Period[] = [];
  for (let h = current - 23; h <= current; h++) {
    const start = h * HOUR_MS;
    const p = localParts(start, tzMin);
    periods.push({
      id: new Date(start).toISOString(),
      label: `${WEEKDAYS[p.wd]} ${p.d} ${MONTHS[p.mo].slice(0, 3)}, ${clockLabel(start, tzMin)}-${clockLabel(start + HOUR_MS, tzMin)}`,
      start,
      end: start + HOUR_MS,
      from: h,
      to: h,
    });
  }
  return { range: '24h', table: 'rollup_hour', periods, start: periods[0].start, monthly: false };
}

/**
 * Six-hour blocks starting at local 00:00, 06:00, 12:00 and 18:00. They sum UTC hours, so in a
 * zone off the hour (UTC+5:30) each block takes the six hours that start inside it.
 */
function blocks(now: number, tzMin: number): RangePlan {
  const shift = tzMin * 60_000;
  const current = Math.floor((now + shift) / BLOCK_MS);
  const periods: Period[] = [];
  for (let b = current - 27; b <= current; b++) {
    const start = b * BLOCK_MS - shift;
    const end = start + BLOCK_MS;
    const p = localParts(start, tzMin);
    periods.push({
      id: new Date(start).toISOString(),
      label: `${WEEKDAYS[p.wd]} ${p.d} ${MONTHS[p.mo].slice(0, 3)}, ${clockLabel(start, tzMin)}-${clockLabel(end, tzMin)}`,
      start,
      end,
      from: Math.ceil(start / HOUR_MS),
      to: Math.ceil(end / HOUR_MS) - 1,
    });
  }
  return { range: '7d', table: 'rollup_hour', periods, start: periods[0].start, monthly: false };
}

function days(range: Range, n: number, now: number, tzMin: number): RangePlan {
  const today = localDay(now, tzMin);
  const periods: Period[] = [];
  for (let d = today - n + 1; d <= today; d++) {
    const wd = WEEKDAYS[new Date(d * DAY_MS).getUTCDay()];
    periods.push({
      id: isoDate(d),
      label: `${wd} ${dayLabel(d)}`,
      start: localDayStart(d, tzMin),
      end: localDayStart(d + 1, tzMin),
      from: d,
      to: d,
    });
  }
  return { range, table: 'rollup_day', periods, start: periods[0].start, monthly: false };
}

function months(now: number, tzMin: number): RangePlan {
  const { y, mo } = localParts(now, tzMin);
  const periods: Period[] = [];
  for (let i = 11; i >= 0; i--) {
    const first = monthFirstDay(y, mo - i);
    const next = monthFirstDay(y, mo - i + 1);
    const x = new Date(first * DAY_MS);
    periods.push({
      id: `${x.getUTCFullYear()}-${pad(x.getUTCMonth() + 1)}`,
      label: monthLabel(x.getUTCFullYear(), x.getUTCMonth()),
      start: localDayStart(first, tzMin),
      end: localDayStart(next, tzMin),
      from: first,
      to: next - 1,
    });
  }
  return { range: '12mo', table: 'rollup_day', periods, start: periods[0].start, monthly: true };
}

/** The bar (index into plan.periods) that holds a rollup key, or -1. */
export function periodIndex(plan: RangePlan, key: number): number {
  for (let i = plan.periods.length - 1; i >= 0; i--) {
    const p = plan.periods[i];
    if (key >= p.from && key <= p.to) return i;
  }
  return -1;
}

/**
 * SQL for the bar index of a rollup key: arithmetic when all bars are as wide (hours, six-hour
 * blocks, days), else one comparison per boundary (months).
 */
export function bucketOf(plan: RangePlan, column: string): { sql: string; params: number[] } {
  const first = plan.periods[0].from;
  const width = plan.periods[0].to - first + 1;
  if (plan.periods.every((p, i) => p.from === first + i * width && p.to === p.from + width - 1)) {
    return { sql: `((${column} - ${first}) / ${width})`, params: [] };
  }
  const bounds = plan.periods.slice(1).map((p) => p.from);
  return {
    sql: `(CASE ${bounds.map((_, i) => `WHEN ${column} < ? THEN ${i}`).join(' ')} ELSE ${bounds.length} END)`,
    params: bounds,
  };
}

/** Words for the start of a range's bars ("90 days ago"). */
export const RANGE_WORDS: Record<Range, { tab: string; ago: string; span: string }> = {
  '24h': { tab: '24 hours', ago: '24 hours ago', span: 'the last 24 hours' },
  '7d': { tab: '7 days', ago: '7 days ago', span: 'the last 7 days' },
  '30d': { tab: '30 days', ago: '30 days ago', span: 'the last 30 days' },
  '90d': { tab: '90 days', ago: '90 days ago', span: 'the last 90 days' },
  '12mo': { tab: '12 months', ago: '12 months ago', span: 'the last 12 months' },
};
