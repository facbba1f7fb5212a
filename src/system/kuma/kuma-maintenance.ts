/**
 * One Kuma maintenance → maintenance windows in the shape of extensions.md section 1 (`title`,
 * `description`, `monitors`, `schedule`, `public`), or the reason it cannot be expressed.
 * Kuma's strategies (server/model/maintenance.js, commit 6398a958): `manual`; `single` (start_date,
 * end_date: wall-clock text in the window's zone); `recurring-weekday` (weekdays: 0 or 7 = Sunday,
 * 1 = Monday); `recurring-day-of-month` (days_of_month: 1-31 and "lastDay1".."lastDay4");
 * `recurring-interval` (every interval_day days from start_date); `cron` (a cron line and a
 * duration in seconds). start_time/end_time are "HH:mm"; the zone is an IANA name, "UTC", or
 * "SAME_AS_SERVER" (the `serverTimezone` setting). A day-of-month window with several days becomes
 * one monthly window per day (a monthly schedule here has one day). Pure.
 */
import type { KumaRow } from './kuma-data';
import { json, num, str } from './kuma-values';

export type MaintenanceMapping =
  { ok: true; windows: Record<string, unknown>[]; notes: string[] } | { ok: false; reason: string };

const STRATEGIES = ['manual', 'single', 'recurring-weekday', 'recurring-day-of-month', 'recurring-interval', 'cron'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MAX_ONCE_MS = 31 * 24 * 3600_000;

export function mapMaintenance(row: KumaRow, monitors: string[], serverTz: string | null): MaintenanceMapping {
  const fail = (reason: string): MaintenanceMapping => ({ ok: false, reason });
  const notes: string[] = [];
  const title = str(row.title);
  if (!title) return fail('it has no title');
  const zone = zoneOf(row.timezone, serverTz, notes);
  if (zone === null) return fail(`its time zone "${String(row.timezone).slice(0, 40)}" is not one this service knows`);
  const base = {
    title: [...title].slice(0, 120).join(''),
    description: str(row.description) ? [...str(row.description)!].slice(0, 2000).join('') : null,
    monitors,
    public: true,
  };
  const strategy = str(row.strategy) ?? 'single';
  if (!STRATEGIES.includes(strategy)) return fail(`Kuma's "${strategy.slice(0, 40)}" strategy has no counterpart here`);
  const one = (schedule: Record<string, unknown>): MaintenanceMapping => ({
    ok: true,
    windows: [{ ...base, schedule }],
    notes,
  });

  if (strategy === 'manual') {
    if (num(row.active) === 1 || row.active === true)
      notes.push('it is on in Kuma: start it here by hand (POST /maintenance/{id}/start)');
    return one({ kind: 'manual' });
  }
  if (strategy === 'single') {
    const start = wallToUtc(row.start_date, zone);
    const end = wallToUtc(row.end_date, zone);
    if (start === null || end === null) return fail('its start or end date is missing or not a date');
    if (end <= start) return fail('it ends before it starts');
    if (end - start > MAX_ONCE_MS) return fail('it is longer than 31 days, the longest one-off window here');
    return one({ kind: 'once', start: new Date(start).toISOString(), end: new Date(end).toISOString() });
  }

  // The recurring ones: a start time and a duration.
  const range = { from: datePart(row.start_date), until: datePart(row.end_date) };
  let startTime: string | null;
  let duration: number | null;
  let cronDays: { weekly: string[] } | { monthly: (number | string)[] } | null = null;
  if (strategy === 'cron') {
    const cron = parseCron(str(row.cron));
    if (!cron)
      return fail(`its cron line "${String(row.cron).slice(0, 60)}" cannot be expressed as weekly or monthly windows`);
    startTime = cron.time;
    const seconds = num(row.duration);
    duration = seconds !== null && seconds > 0 ? Math.round(seconds / 60) : null;
    cronDays = cron.days;
  } else {
    startTime = hhmm(row.start_time);
    const end = hhmm(row.end_time);
    duration = startTime && end ? minutesBetween(startTime, end) : null;
  }
  if (!startTime) return fail('its start time is missing or not HH:MM');
  if (duration === null || duration < 1 || duration > 10_080)
    return fail('its duration is not between 1 minute and 7 days');
  const timing = { start_time: startTime, duration_min: duration, tz: zone, ...range };
  const weekly = (days: string[]) => one({ kind: 'weekly', days, ...timing });

  if (strategy === 'recurring-weekday' || (cronDays && 'weekly' in cronDays)) {
    let days: string[];
    if (cronDays && 'weekly' in cronDays) days = cronDays.weekly;
    else {
      const list = json(row.weekdays);
      if (!Array.isArray(list)) return fail('its weekdays are not a JSON list');
      days = [
        ...new Set(
          list.map((d) => (num(d) === 7 ? 0 : num(d))).filter((d): d is number => d !== null && d >= 0 && d <= 6),
        ),
      ]
        .sort()
        .map((d) => DAYS[d]);
    }
    if (days.length === 0) return fail('it names no weekday');
    return weekly(days);
  }
  if (strategy === 'recurring-day-of-month' || (cronDays && 'monthly' in cronDays)) {
    const list = cronDays && 'monthly' in cronDays ? cronDays.monthly : json(row.days_of_month);
    if (!Array.isArray(list)) return fail('its days of the month are not a JSON list');
    const days: number[] = [];
    for (const d of list) {
      if (d === 'lastDay1' || d === 'L') days.push(-1);
      else if (typeof d === 'string' && d.startsWith('lastDay'))
        notes.push(`"${d}" (a day counted from the month's end) cannot be expressed and is left out`);
      else if (num(d) !== null && Number.isInteger(num(d)) && num(d)! >= 1 && num(d)! <= 31) days.push(num(d)!);
    }
    const unique = [...new Set(days)];
    if (unique.length === 0) return fail('it names no day of the month that can be expressed');
    const windows = unique.map((day) => ({
      ...base,
      title: unique.length > 1 ? `${base.title.slice(0, 100)} (${day === -1 ? 'last day' : `day ${day}`})` : base.title,
      schedule: { kind: 'monthly', day, ...timing },
    }));
    if (windows.length > 1) notes.push(`one monthly window per day: ${windows.length} windows`);
    return { ok: true, windows, notes };
  }
  if (strategy === 'recurring-interval') {
    const every = num(row.interval_day);
    if (every === 1) return weekly([...DAYS.slice(1), 'sun']);
    if (every === 7 && range.from) return weekly([DAYS[new Date(`${range.from}T12:00:00Z`).getUTCDay()]]);
    return fail(
      `"every ${String(row.interval_day).slice(0, 10)} days" cannot be expressed: windows here repeat weekly or monthly`,
    );
  }
  return fail(`its ${strategy} schedule cannot be expressed`);
}

function zoneOf(raw: unknown, serverTz: string | null, notes: string[]): string | null {
  let zone = str(raw);
  if (zone === null || zone === 'SAME_AS_SERVER') {
    zone = serverTz ?? 'UTC';
    if (!serverTz) notes.push("Kuma's server time zone is not recorded in the file: UTC is used");
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}

const hhmm = (v: unknown): string | null => {
  const m = typeof v === 'string' ? /^(\d{1,2}):(\d{2})/.exec(v) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return null;
  return `${m[1].padStart(2, '0')}:${m[2]}`;
};

const datePart = (v: unknown): string | null =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;

function minutesBetween(a: string, b: string): number {
  const m = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const d = m(b) - m(a);
  // Kuma: an end before the start is on the next day (server/model/maintenance.js calcDuration).
  return d <= 0 ? d + 24 * 60 : d;
}

/** Wall-clock text ("2026-01-02 03:04[:05]") in `zone` → epoch ms. */
export function wallToUtc(v: unknown, zone: string): number | null {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(v) : null;
  if (!m) return null;
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  if (Number.isNaN(asUtc)) return null;
  // Two rounds of "what is this instant's wall clock there": right also across a DST change.
  let t = asUtc;
  for (let i = 0; i < 2; i++) t = asUtc - offsetMs(t, zone);
  return t;
}

function offsetMs(t: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(t)); // prettier-ignore
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return (
    Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) -
    Math.floor(t / 1000) * 1000
  );
}

/** "m h dom mon dow" with fixed m and h, mon "*", and either days of the week or days of the month. */
function parseCron(
  line: string | null,
): { time: string; days: { weekly: string[] } | { monthly: (number | string)[] } } | null {
  const f = line?.split(/\s+/) ?? [];
  if (f.length !== 5 || !/^\d{1,2}$/.test(f[0]) || !/^\d{1,2}$/.test(f[1]) || f[3] !== '*') return null;
  if (+f[0] > 59 || +f[1] > 23) return null;
  const time = `${f[1].padStart(2, '0')}:${f[0].padStart(2, '0')}`;
  if (f[2] === '*' && f[4] === '*') return { time, days: { weekly: [...DAYS.slice(1), 'sun'] } };
  if (f[2] === '*') {
    // Days and ranges of days (`1-5`), Sunday being 0 or 7.
    const days: number[] = [];
    for (const part of f[4].split(',')) {
      const r = /^([0-7])(?:-([0-7]))?$/.exec(part);
      if (!r || +(r[2] ?? r[1]) < +r[1]) return null;
      for (let d = +r[1]; d <= +(r[2] ?? r[1]); d++) days.push(d % 7);
    }
    return { time, days: { weekly: [...new Set(days)].sort().map((d) => DAYS[d]) } };
  }
  if (f[4] === '*') {
    const days = f[2].split(',');
    if (!days.every((d) => /^(\d{1,2}|L)$/.test(d))) return null;
    return { time, days: { monthly: days.map((d) => (d === 'L' ? 'L' : +d)) } };
  }
  return null;
}
