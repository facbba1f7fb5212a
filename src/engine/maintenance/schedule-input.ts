/**
 * A schedule as a client sends it, checked (docs/maintenance.md, "Schedules"). Pure; every
 * problem is a field error naming the field under `schedule.`, and nothing half-checked is kept.
 */
import type { FieldError } from '../../common/http/api-error';
import { parseIso, toIso } from '../../common/time';
import { parseDate, Schedule, WEEKDAYS, Weekday } from './schedule';
import { isKnownZone } from './zone-time';

export const ONCE_MAX_MS = 31 * 86_400_000;
export const DURATION_MIN = { min: 1, max: 10_080 };
const KINDS = ['once', 'weekly', 'monthly', 'manual'] as const;
const FIELDS: Record<(typeof KINDS)[number], readonly string[]> = {
  once: ['kind', 'start', 'end'],
  weekly: ['kind', 'days', 'start_time', 'duration_min', 'tz', 'from', 'until'],
  monthly: ['kind', 'day', 'start_time', 'duration_min', 'tz', 'from', 'until'],
  manual: ['kind'],
};

type Result = { ok: true; schedule: Schedule } | { ok: false; errors: FieldError[] };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isInt(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/** Reads `raw` as a schedule; `at` is the field's name in the body ("schedule"). */
export function parseSchedule(raw: unknown, at = 'schedule'): Result {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field: `${at}.${field}`, message });
  if (!isRecord(raw)) return { ok: false, errors: [{ field: at, message: 'must be an object with a kind' }] };
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) {
    return { ok: false, errors: [{ field: `${at}.kind`, message: `must be one of ${KINDS.join(', ')}` }] };
  }
  const k = kind as (typeof KINDS)[number];
  for (const key of Object.keys(raw)) {
    if (!FIELDS[k].includes(key))
      fail(key.slice(0, 60), `unknown field (a ${k} schedule takes ${FIELDS[k].join(', ')})`);
  }
  if (k === 'manual') return errors.length ? { ok: false, errors } : { ok: true, schedule: { kind: 'manual' } };
  if (k === 'once') {
    const start = parseIso(raw.start);
    const end = parseIso(raw.end);
    if (start === null) fail('start', 'must be an RFC 3339 time, such as 2026-05-01T22:00:00Z');
    if (end === null) fail('end', 'must be an RFC 3339 time, such as 2026-05-02T02:00:00Z');
    if (start !== null && end !== null) {
      if (end <= start) fail('end', 'must be after start');
      else if (end - start > ONCE_MAX_MS) fail('end', 'a once window lasts at most 31 days');
    }
    return errors.length || start === null || end === null
      ? { ok: false, errors }
      : { ok: true, schedule: { kind: 'once', start, end } };
  }
  const startTime = raw.start_time;
  if (typeof startTime !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(startTime))
    fail('start_time', 'must be HH:MM on a 24-hour clock, such as 02:30');
  if (!isInt(raw.duration_min, DURATION_MIN.min, DURATION_MIN.max))
    fail('duration_min', `must be a whole number of minutes from ${DURATION_MIN.min} to ${DURATION_MIN.max} (7 days)`);
  if (typeof raw.tz !== 'string' || !isKnownZone(raw.tz))
    fail('tz', 'must be an IANA time zone name this service knows, such as Europe/Berlin');
  const bounds: Record<'from' | 'until', number | null> = { from: null, until: null };
  for (const name of ['from', 'until'] as const) {
    const v = raw[name];
    if (v === undefined || v === null) continue;
    const day = typeof v === 'string' ? parseDate(v) : null;
    if (day === null) fail(name, 'must be a date YYYY-MM-DD or null');
    bounds[name] = day;
  }
  if (bounds.from !== null && bounds.until !== null && bounds.until < bounds.from)
    fail('until', 'must be on or after from');
  let days: Weekday[] = [];
  let day = 0;
  if (k === 'weekly') {
    const v = raw.days;
    if (
      !Array.isArray(v) ||
      v.length < 1 ||
      v.length > 7 ||
      !v.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)) ||
      new Set(v).size !== v.length
    )
      fail('days', `must list 1 to 7 distinct days out of ${WEEKDAYS.join(', ')}`);
    else days = WEEKDAYS.filter((d) => v.includes(d));
  } else if (isInt(raw.day, 1, 31) || raw.day === -1) day = raw.day as number;
  else fail('day', 'must be a day of the month from 1 to 31, or -1 for the last day');
  if (errors.length) return { ok: false, errors };
  const common = {
    start_time: startTime as string,
    duration_min: raw.duration_min as number,
    tz: raw.tz as string,
    from: (raw.from as string | null | undefined) ?? null,
    until: (raw.until as string | null | undefined) ?? null,
  };
  return {
    ok: true,
    schedule: k === 'weekly' ? { kind: 'weekly', days, ...common } : { kind: 'monthly', day, ...common },
  };
}

/** A schedule as answers show it (times as RFC 3339). */
export function scheduleAnswer(s: Schedule): Record<string, unknown> {
  if (s.kind === 'once') return { kind: 'once', start: toIso(s.start), end: toIso(s.end) };
  return { ...s };
}
