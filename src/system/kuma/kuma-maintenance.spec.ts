import { mapMaintenance, wallToUtc } from './kuma-maintenance';

const row = (over: Record<string, unknown>) => ({
  id: 1,
  title: 'W',
  description: '',
  active: 1,
  timezone: 'UTC',
  ...over,
});
const schedules = (over: Record<string, unknown>, serverTz: string | null = null) => {
  const m = mapMaintenance(row(over), ['nas'], serverTz);
  if (!m.ok) throw new Error(m.reason);
  return m.windows.map((w) => w.schedule);
};

describe('mapMaintenance: Kuma strategies as extensions.md section 1 schedules', () => {
  it.each([
    [{ strategy: 'manual' }, [{ kind: 'manual' }]],
    [
      {
        strategy: 'single',
        start_date: '2026-12-01 22:00:00',
        end_date: '2026-12-02 02:00:00',
        timezone: 'Europe/Berlin',
      },
      [{ kind: 'once', start: '2026-12-01T21:00:00.000Z', end: '2026-12-02T01:00:00.000Z' }],
    ],
    [
      { strategy: 'recurring-weekday', start_time: '03:00', end_time: '04:30', weekdays: '[1,7]' },
      [
        {
          kind: 'weekly',
          days: ['sun', 'mon'],
          start_time: '03:00',
          duration_min: 90,
          tz: 'UTC',
          from: null,
          until: null,
        },
      ],
    ],
    [
      {
        strategy: 'recurring-weekday',
        start_time: '23:00',
        end_time: '01:00',
        weekdays: '[0]',
        start_date: '2026-01-01 00:00:00',
        end_date: '2026-06-30 00:00:00',
      },
      [
        {
          kind: 'weekly',
          days: ['sun'],
          start_time: '23:00',
          duration_min: 120,
          from: '2026-01-01',
          until: '2026-06-30',
        },
      ],
    ],
    [
      { strategy: 'recurring-day-of-month', start_time: '01:00', end_time: '02:00', days_of_month: '[1,"lastDay1"]' },
      [
        { kind: 'monthly', day: 1, duration_min: 60 },
        { kind: 'monthly', day: -1, duration_min: 60 },
      ],
    ],
    [
      { strategy: 'recurring-interval', interval_day: 1, start_time: '04:00', end_time: '04:15' },
      [{ kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], duration_min: 15 }],
    ],
    [
      {
        strategy: 'recurring-interval',
        interval_day: 7,
        start_date: '2026-11-26 00:00:00',
        start_time: '04:00',
        end_time: '05:00',
      },
      [{ kind: 'weekly', days: ['thu'] }],
    ],
    [
      { strategy: 'cron', cron: '30 2 * * 1-5', duration: 1800 },
      [{ kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start_time: '02:30', duration_min: 30 }],
    ],
    [
      { strategy: 'cron', cron: '0 5 1,15 * *', duration: 3600 },
      [
        { kind: 'monthly', day: 1, start_time: '05:00' },
        { kind: 'monthly', day: 15 },
      ],
    ],
    [{ strategy: 'manual', timezone: 'SAME_AS_SERVER' }, [{ kind: 'manual' }]],
  ])('%j → %j', (kuma, expected) => {
    expect(schedules(kuma)).toMatchObject(expected);
  });

  it.each([
    [
      { strategy: 'recurring-interval', interval_day: 3, start_time: '04:00', end_time: '05:00' },
      '"every 3 days" cannot be expressed: windows here repeat weekly or monthly',
    ],
    [
      { strategy: 'cron', cron: '*/5 * * * *', duration: 60 },
      'its cron line "*/5 * * * *" cannot be expressed as weekly or monthly windows',
    ],
    [
      { strategy: 'cron', cron: '0 5 1 * 1', duration: 60 },
      'its cron line "0 5 1 * 1" cannot be expressed as weekly or monthly windows',
    ],
    [
      { strategy: 'single', start_date: '2026-12-02 00:00:00', end_date: '2026-12-01 00:00:00' },
      'it ends before it starts',
    ],
    [
      { strategy: 'single', start_date: '2026-01-01 00:00:00', end_date: '2026-03-01 00:00:00' },
      'it is longer than 31 days, the longest one-off window here',
    ],
    [{ strategy: 'single', start_date: 'soon' }, 'its start or end date is missing or not a date'],
    [
      { strategy: 'recurring-weekday', start_time: '25:00', end_time: '01:00', weekdays: '[1]' },
      'its start time is missing or not HH:MM',
    ],
    [{ strategy: 'recurring-weekday', start_time: '01:00', end_time: '02:00', weekdays: '[]' }, 'it names no weekday'],
    [
      { strategy: 'recurring-day-of-month', start_time: '01:00', end_time: '02:00', days_of_month: '["lastDay2"]' },
      'it names no day of the month that can be expressed',
    ],
    [{ strategy: 'manual', timezone: 'Mars/Olympus' }, 'its time zone "Mars/Olympus" is not one this service knows'],
    [{ strategy: 'lunar' }, 'Kuma\'s "lunar" strategy has no counterpart here'],
    [{ strategy: 'manual', title: '' }, 'it has no title'],
  ])('refuses %j: %s', (kuma, reason) => {
    expect(mapMaintenance(row(kuma), [], null)).toEqual({ ok: false, reason });
  });

  it('carries the monitors, title and description, and uses Kuma’s server zone for "same as server"', () => {
    const m = mapMaintenance(
      row({
        strategy: 'recurring-weekday',
        start_time: '01:00',
        end_time: '02:00',
        weekdays: '[1]',
        timezone: 'SAME_AS_SERVER',
        description: 'Updates',
      }),
      ['nas'],
      'Europe/Berlin',
    );
    expect(m.ok && m.windows[0]).toMatchObject({
      title: 'W',
      description: 'Updates',
      monitors: ['nas'],
      public: true,
      schedule: { tz: 'Europe/Berlin' },
    });
    const utc = mapMaintenance(row({ strategy: 'manual', timezone: null, active: 0 }), [], null);
    expect(utc.ok && utc.notes).toEqual(["Kuma's server time zone is not recorded in the file: UTC is used"]);
  });

  it.each([
    ['2026-07-01 12:00:00', 'Europe/Berlin', '2026-07-01T10:00:00.000Z'],
    ['2026-01-01 12:00', 'Europe/Berlin', '2026-01-01T11:00:00.000Z'],
    ['2026-03-29 03:30:00', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    ['2026-11-01 01:30:00', 'America/New_York', '2026-11-01T05:30:00.000Z'],
  ])('wallToUtc(%s in %s) = %s', (wall, zone, iso) => {
    expect(new Date(wallToUtc(wall, zone)!).toISOString()).toBe(iso);
  });
});
