/** A day of the monitor page's uptime calendar (public/dashboard/monitor/calendar-day.js): colour and words with maintenance. */
type Day = { date: string; uptime: number | null; down_ms: number; maintenance_ms?: number; checks: number };
type CalendarDay = { dayClass(d: Day): string; dayTitle(d: Day): string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dayClass, dayTitle } = require('../../public/dashboard/monitor/calendar-day.js') as CalendarDay;

const H = 3_600_000;
const day = (uptime: number | null, down_ms = 0, maintenance_ms = 0): Day => ({
  date: '2026-11-01',
  uptime,
  down_ms,
  maintenance_ms,
  checks: 1,
});

describe('calendar days', () => {
  it.each<[string, Day, string, string]>([
    ['no checks', day(null), 'none', '2026-11-01: no checks'],
    ['all up', day(100), 'ok', '2026-11-01: 100%'],
    ['some downtime', day(99.5, 7 * 60_000), 'warn', '2026-11-01: 99.5%, down 7 min'],
    ['bad', day(90, 2 * H), 'bad', '2026-11-01: 90.0%, down 2 h'],
    [
      'all in maintenance',
      day(null, 0, 24 * H),
      'maint',
      '2026-11-01: no uptime (all in maintenance), maintenance 24 h',
    ],
    [
      'mostly maintenance, up outside it',
      day(100, 0, 14 * H),
      'maint',
      '2026-11-01: 100% up outside maintenance, maintenance 14 h',
    ],
    [
      'some maintenance on a good day',
      day(100, 0, 2 * H),
      'ok',
      '2026-11-01: 100% up outside maintenance, maintenance 2 h',
    ],
    [
      'mostly maintenance but bad outside it: the outage shows',
      day(80, H, 14 * H),
      'bad',
      '2026-11-01: 80.0% up outside maintenance, down 1 h, maintenance 14 h',
    ],
    [
      'an answer from before maintenance was counted',
      { date: '2026-11-01', uptime: 100, down_ms: 0, checks: 1 },
      'ok',
      '2026-11-01: 100%',
    ],
  ])('%s', (_name, d, cls, title) => {
    expect([dayClass(d), dayTitle(d)]).toEqual([cls, title]);
  });
});
