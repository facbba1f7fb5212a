import { parseSchedule } from './schedule-input';

const weekly = { kind: 'weekly', days: ['sat'], start_time: '02:30', duration_min: 60, tz: 'Europe/Berlin' };
const monthly = {
  kind: 'monthly',
  day: -1,
  start_time: '22:00',
  duration_min: 120,
  tz: 'UTC',
  from: null,
  until: null,
};

describe('parseSchedule: accepted', () => {
  it.each([
    ['once', { kind: 'once', start: '2026-05-01T22:00:00Z', end: '2026-05-02T02:00:00+02:00' }],
    ['once of exactly 31 days', { kind: 'once', start: '2026-05-01T00:00:00Z', end: '2026-06-01T00:00:00Z' }],
    ['weekly without bounds', weekly],
    ['weekly with bounds', { ...weekly, from: '2026-01-01', until: '2026-12-31' }],
    ['monthly, last day', monthly],
    ['monthly, day 31', { ...monthly, day: 31 }],
    ['a week long', { ...weekly, duration_min: 10080 }],
    ['manual', { kind: 'manual' }],
  ])('%s', (_why, raw) => {
    expect(parseSchedule(raw)).toMatchObject({ ok: true });
  });

  it('sorts the days and fills absent bounds with null', () => {
    expect(parseSchedule({ ...weekly, days: ['sun', 'mon'] })).toEqual({
      ok: true,
      schedule: { ...weekly, days: ['mon', 'sun'], from: null, until: null },
    });
  });
});

describe('parseSchedule: refused, naming the field', () => {
  it.each<[string, unknown, string]>([
    ['not an object', 'weekly', 'schedule'],
    ['unknown kind', { kind: 'daily' }, 'schedule.kind'],
    ['end before start', { kind: 'once', start: '2026-05-02T00:00:00Z', end: '2026-05-01T00:00:00Z' }, 'schedule.end'],
    [
      'end equal to start',
      { kind: 'once', start: '2026-05-02T00:00:00Z', end: '2026-05-02T00:00:00Z' },
      'schedule.end',
    ],
    [
      'once longer than 31 days',
      { kind: 'once', start: '2026-05-01T00:00:00Z', end: '2026-06-01T00:00:01Z' },
      'schedule.end',
    ],
    ['start not RFC 3339', { kind: 'once', start: 'tomorrow', end: '2026-05-01T00:00:00Z' }, 'schedule.start'],
    ['unknown zone', { ...weekly, tz: 'Mars/Olympus_Mons' }, 'schedule.tz'],
    ['zone not a string', { ...weekly, tz: 3 }, 'schedule.tz'],
    ['no days', { ...weekly, days: [] }, 'schedule.days'],
    ['a day out of range', { ...weekly, days: ['mon', 'funday'] }, 'schedule.days'],
    ['a day twice', { ...weekly, days: ['mon', 'mon'] }, 'schedule.days'],
    ['month day 0', { ...monthly, day: 0 }, 'schedule.day'],
    ['month day 32', { ...monthly, day: 32 }, 'schedule.day'],
    ['month day -2', { ...monthly, day: -2 }, 'schedule.day'],
    ['duration 0', { ...weekly, duration_min: 0 }, 'schedule.duration_min'],
    ['duration over a week', { ...weekly, duration_min: 10081 }, 'schedule.duration_min'],
    ['duration not whole', { ...weekly, duration_min: 1.5 }, 'schedule.duration_min'],
    ['start_time 24:00', { ...weekly, start_time: '24:00' }, 'schedule.start_time'],
    ['start_time without minutes', { ...weekly, start_time: '2' }, 'schedule.start_time'],
    ['from not a date', { ...weekly, from: '2026-02-30' }, 'schedule.from'],
    ['until before from', { ...weekly, from: '2026-03-01', until: '2026-02-28' }, 'schedule.until'],
    ['a field of another kind', { kind: 'manual', days: ['mon'] }, 'schedule.days'],
  ])('%s', (_why, raw, field) => {
    const r = parseSchedule(raw);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors.map((e) => e.field)).toContain(field);
  });
});
