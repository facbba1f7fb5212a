/**
 * A maintenance window's schedule and its occurrences (docs/maintenance.md). Pure: every function
 * takes the moment it reasons about; wall-clock times go through zone-time.ts (Intl only).
 *
 * An occurrence starts at the wall-clock `start_time` of a matching day in `tz` and lasts
 * `duration_min` minutes of elapsed time (a 60-minute window over a change of the clocks still
 * lasts an hour). Occurrences that overlap or touch merge into one span, so a window is active
 * or not, never "active twice".
 */
import { calendarDay, dayNumber, daysInMonth, instantOf, zoneDayNumber } from './zone-time';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface OnceSchedule {
  kind: 'once';
  /** Epoch ms. */
  start: number;
  end: number;
}

interface Recurring {
  /** "HH:MM", 24-hour clock, in `tz`. */
  start_time: string;
  duration_min: number;
  tz: string;
  /** "YYYY-MM-DD" in `tz`, inclusive: the first and last days an occurrence may start on. */
  from: string | null;
  until: string | null;
}

export interface WeeklySchedule extends Recurring {
  kind: 'weekly';
  days: Weekday[];
}

export interface MonthlySchedule extends Recurring {
  kind: 'monthly';
  /** 1-31, or -1 for the month's last day. A month without the day has no occurrence. */
  day: number;
}

export interface ManualSchedule {
  kind: 'manual';
}

export type Schedule = OnceSchedule | WeeklySchedule | MonthlySchedule | ManualSchedule;

export interface Span {
  start: number;
  end: number;
}

const MINUTE = 60_000;
/** How far a walk over days looks ahead before it says "no further occurrence" (a day -1 or 29th
 *  schedule finds one within months; `from` may lie years ahead, so the walk starts there). */
const LOOKAHEAD_DAYS = 366 * 5;

export function parseDate(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return dayNumber(y, mo, d);
}

function minutesOf(startTime: string): number {
  const [h, m] = startTime.split(':').map(Number);
  return h * 60 + m;
}

function startsOn(s: WeeklySchedule | MonthlySchedule, dayNo: number): boolean {
  const c = calendarDay(dayNo);
  if (s.kind === 'weekly') return s.days.includes(WEEKDAYS[c.weekday - 1]);
  const last = daysInMonth(c.year, c.month);
  return s.day === -1 ? c.day === last : c.day === s.day;
}

/** The occurrence that starts on day `dayNo` (a day the schedule matches). */
function occurrenceOn(s: WeeklySchedule | MonthlySchedule, dayNo: number): Span {
  const start = instantOf(dayNo * 86_400_000 + minutesOf(s.start_time) * MINUTE, s.tz);
  return { start, end: start + s.duration_min * MINUTE };
}

/**
 * The occurrences (merged where they overlap or touch) that end after `after`, in start order,
 * at most `count` of them. Manual schedules have none (they run only when started by hand).
 */
export function occurrencesAfter(s: Schedule, after: number, count: number): Span[] {
  if (s.kind === 'manual' || count <= 0) return [];
  if (s.kind === 'once') return s.end > after ? [{ start: s.start, end: s.end }] : [];
  const from = s.from === null ? null : parseDate(s.from);
  const until = s.until === null ? null : parseDate(s.until);
  // An occurrence that started up to its duration (plus a day for the zone's offset) ago may still run.
  let day = zoneDayNumber(after - s.duration_min * MINUTE, s.tz) - 1;
  if (from !== null && from > day) day = from;
  const last = Math.min(until ?? Infinity, day + LOOKAHEAD_DAYS);
  const spans: Span[] = [];
  for (; day <= last; day++) {
    if (!startsOn(s, day)) continue;
    const occ = occurrenceOn(s, day);
    if (occ.end <= after) continue;
    const prev = spans[spans.length - 1];
    if (prev && occ.start <= prev.end) {
      prev.end = Math.max(prev.end, occ.end);
      continue;
    }
    if (spans.length === count) break;
    spans.push(occ);
  }
  return spans;
}

/** The span running at `now` (start <= now < end), or null. */
export function currentSpan(s: Schedule, now: number): Span | null {
  const first = occurrencesAfter(s, now, 1)[0];
  return first && first.start <= now ? first : null;
}

/** The first span that starts after `now`, or null. */
export function nextSpan(s: Schedule, now: number): Span | null {
  return occurrencesAfter(s, now, 2).find((o) => o.start > now) ?? null;
}
