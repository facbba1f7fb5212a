/**
 * Wall-clock time in an IANA zone, from the platform's Intl data only (no zone table of our own):
 * a zone's offset at an instant, and the instant a wall-clock time names. Pure.
 *
 * Why the gap and the repeated hour are decided here (docs/maintenance.md, "Daylight saving"):
 * - a wall time the zone skips (02:30 on a night that jumps from 02:00 to 03:00) names the first
 *   moment after the jump (03:00), so a window never starts late by the jump's length nor twice;
 * - a wall time the zone repeats (02:30 on a night that goes back from 03:00 to 02:00) names its
 *   first occurrence, so the window starts once, at the earlier moment.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True when the platform knows the zone by this exact name (or one of its aliases). */
export function isKnownZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time at `instant` in `zone`, written as if it were UTC (ms). */
export function wallMs(instant: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const seconds = Math.floor(instant / 1000) * 1000;
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall + (instant - seconds);
}

/** The zone's offset from UTC at `instant`, in ms (Berlin in summer: +7,200,000). */
export function offsetAt(instant: number, zone: string): number {
  return wallMs(instant, zone) - instant;
}

/**
 * The instant at which the zone's clocks show `wall` (a wall time written as if UTC).
 * 1. Offsets a day before and a day after bound any one change (changes are months apart).
 * 2. Each offset gives a candidate; a candidate is right when the zone shows `wall` at it.
 * 3. Two right candidates: the repeated hour, take the earlier. None: the skipped hour, take
 *    the moment of the change, found by bisection between the two candidates.
 */
export function instantOf(wall: number, zone: string): number {
  const before = offsetAt(wall - DAY, zone);
  const after = offsetAt(wall + DAY, zone);
  const candidates = [wall - before, wall - after].filter((t) => wallMs(t, zone) === wall);
  if (candidates.length) return Math.min(...candidates);
  // In the gap: the change is at some t in (wall - after, wall - before], where the offset turns
  // from `before` to `after`. Changes fall on whole minutes, so bisect over minutes.
  let lo = Math.floor((wall - after) / MINUTE);
  let hi = Math.ceil((wall - before) / MINUTE);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid * MINUTE, zone) === before) lo = mid;
    else hi = mid;
  }
  return hi * MINUTE;
}

/** A calendar date, as a day number since 1970-01-01 (zone-free calendar arithmetic). */
export function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY);
}

export interface CalendarDay {
  year: number;
  month: number;
  day: number;
  /** 1 = Monday .. 7 = Sunday (ISO 8601). */
  weekday: number;
}

export function calendarDay(dayNo: number): CalendarDay {
  const d = new Date(dayNo * DAY);
  const js = d.getUTCDay();
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: js === 0 ? 7 : js };
}

/** The number of days in a month (February of leap years included). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The calendar day the zone is on at `instant`. */
export function zoneDayNumber(instant: number, zone: string): number {
  return Math.floor(wallMs(instant, zone) / DAY);
}
