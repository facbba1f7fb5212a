import { currentSpan, nextSpan, occurrencesAfter, Schedule } from './schedule';
import { instantOf, offsetAt } from './zone-time';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

function weekly(days: string[], start_time: string, tz: string, extra: Partial<Schedule> = {}): Schedule {
  return { kind: 'weekly', days, start_time, duration_min: 60, tz, from: null, until: null, ...extra } as Schedule;
}
function monthly(day: number, extra: Record<string, unknown> = {}): Schedule {
  return {
    kind: 'monthly',
    day,
    start_time: '22:00',
    duration_min: 120,
    tz: 'UTC',
    from: null,
    until: null,
    ...extra,
  } as Schedule;
}

describe('instantOf: a wall-clock time in a zone, from Intl data', () => {
  it.each([
    // [zone, wall time, instant, why]
    ['Europe/Berlin', '2026-01-15T02:30', '2026-01-15T01:30:00.000Z', 'winter, +01:00'],
    ['Europe/Berlin', '2026-07-15T02:30', '2026-07-15T00:30:00.000Z', 'summer, +02:00'],
    ['Europe/Berlin', '2026-03-29T02:30', '2026-03-29T01:00:00.000Z', 'skipped 02:30 starts at 03:00'],
    ['Europe/Berlin', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z', 'repeated 02:30: the first one'],
    ['America/New_York', '2026-03-08T02:30', '2026-03-08T07:00:00.000Z', 'skipped 02:30 starts at 03:00 EDT'],
    ['America/New_York', '2026-11-01T01:30', '2026-11-01T05:30:00.000Z', 'repeated 01:30: the EDT one'],
    ['Australia/Lord_Howe', '2026-10-04T02:15', '2026-10-03T15:30:00.000Z', '30-minute jump: 02:15 starts at 02:30'],
    ['Australia/Lord_Howe', '2026-04-05T01:45', '2026-04-04T14:45:00.000Z', '30-minute repeat: the first 01:45'],
    ['Australia/Lord_Howe', '2026-07-01T12:00', '2026-07-01T01:30:00.000Z', 'winter, +10:30'],
  ])('%s %s is %s (%s)', (zone, wall, instant) => {
    expect(iso(instantOf(at(`${wall}:00Z`), zone))).toBe(instant);
  });

  it('knows a zone offset of 30 minutes', () => {
    expect(offsetAt(at('2026-07-01T00:00:00Z'), 'Australia/Lord_Howe')).toBe(10.5 * 3600_000);
  });
});

describe('occurrencesAfter', () => {
  it.each<[string, Schedule, string, string[]]>([
    [
      'weekly across the Berlin spring-forward night',
      weekly(['sun'], '02:30', 'Europe/Berlin'),
      '2026-03-20T00:00:00Z',
      ['2026-03-22T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-04-05T00:30:00.000Z'],
    ],
    [
      'weekly across the Berlin fall-back night',
      weekly(['sun'], '02:30', 'Europe/Berlin'),
      '2026-10-20T00:00:00Z',
      ['2026-10-25T00:30:00.000Z', '2026-11-01T01:30:00.000Z', '2026-11-08T01:30:00.000Z'],
    ],
    [
      'weekly across the New York spring-forward night',
      weekly(['sun'], '02:30', 'America/New_York'),
      '2026-03-02T00:00:00Z',
      ['2026-03-08T07:00:00.000Z', '2026-03-15T06:30:00.000Z', '2026-03-22T06:30:00.000Z'],
    ],
    [
      'weekly on Lord Howe over its 30-minute jump',
      weekly(['sun'], '02:15', 'Australia/Lord_Howe'),
      '2026-09-25T00:00:00Z',
      ['2026-09-26T15:45:00.000Z', '2026-10-03T15:30:00.000Z', '2026-10-10T15:15:00.000Z'],
    ],
    [
      'several days of the week, in order',
      weekly(['fri', 'mon'], '09:00', 'UTC'),
      '2026-06-01T10:00:00Z',
      ['2026-06-05T09:00:00.000Z', '2026-06-08T09:00:00.000Z', '2026-06-12T09:00:00.000Z'],
    ],
    [
      'an occurrence running now comes first',
      weekly(['mon'], '09:00', 'UTC'),
      '2026-06-01T09:30:00Z',
      ['2026-06-01T09:00:00.000Z', '2026-06-08T09:00:00.000Z', '2026-06-15T09:00:00.000Z'],
    ],
    [
      'day 31 skips the months without one',
      monthly(31),
      '2026-04-01T00:00:00Z',
      ['2026-05-31T22:00:00.000Z', '2026-07-31T22:00:00.000Z', '2026-08-31T22:00:00.000Z'],
    ],
    [
      'day -1 is the last day, February included (and its leap years)',
      monthly(-1),
      '2028-02-01T00:00:00Z',
      ['2028-02-29T22:00:00.000Z', '2028-03-31T22:00:00.000Z', '2028-04-30T22:00:00.000Z'],
    ],
    [
      'day 29 has no February outside leap years',
      monthly(29),
      '2027-01-30T00:00:00Z',
      ['2027-03-29T22:00:00.000Z', '2027-04-29T22:00:00.000Z', '2027-05-29T22:00:00.000Z'],
    ],
    [
      'from: nothing before its day',
      monthly(1, { from: '2026-09-01' }),
      '2026-01-01T00:00:00Z',
      ['2026-09-01T22:00:00.000Z', '2026-10-01T22:00:00.000Z', '2026-11-01T22:00:00.000Z'],
    ],
    [
      'until: its own day still starts one, none after',
      monthly(1, { until: '2026-03-01' }),
      '2026-01-15T00:00:00Z',
      ['2026-02-01T22:00:00.000Z', '2026-03-01T22:00:00.000Z'],
    ],
    [
      'from and until are days in the zone, not in UTC',
      weekly(['mon'], '00:30', 'Pacific/Auckland', { from: '2026-06-08', until: '2026-06-15' } as Partial<Schedule>),
      '2026-06-01T00:00:00Z',
      ['2026-06-07T12:30:00.000Z', '2026-06-14T12:30:00.000Z'],
    ],
    [
      'once: itself while it has not ended',
      { kind: 'once', start: at('2026-05-01T22:00:00Z'), end: at('2026-05-02T02:00:00Z') },
      '2026-05-02T01:00:00Z',
      ['2026-05-01T22:00:00.000Z'],
    ],
    [
      'once: nothing after its end',
      { kind: 'once', start: at('2026-05-01T22:00:00Z'), end: at('2026-05-02T02:00:00Z') },
      '2026-05-02T02:00:00Z',
      [],
    ],
    ['manual: never by itself', { kind: 'manual' }, '2026-05-02T02:00:00Z', []],
  ])('%s', (_why, schedule, after, starts) => {
    expect(occurrencesAfter(schedule, at(after), 3).map((o) => iso(o.start))).toEqual(starts);
  });

  it('lasts its duration in elapsed time, over a change of the clocks', () => {
    const [o] = occurrencesAfter(weekly(['sun'], '01:30', 'Europe/Berlin'), at('2026-03-28T00:00:00Z'), 1);
    expect([iso(o.start), iso(o.end)]).toEqual(['2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z']);
  });

  it('merges occurrences that overlap into one span', () => {
    const s = weekly(['mon', 'tue', 'wed'], '00:00', 'UTC', { duration_min: 1440 } as Partial<Schedule>);
    const spans = occurrencesAfter(s, at('2026-06-01T00:00:00Z'), 2);
    expect(spans.map((o) => [iso(o.start), iso(o.end)])).toEqual([
      ['2026-06-01T00:00:00.000Z', '2026-06-04T00:00:00.000Z'],
      ['2026-06-08T00:00:00.000Z', '2026-06-11T00:00:00.000Z'],
    ]);
  });
});

describe('currentSpan and nextSpan', () => {
  const s = weekly(['mon'], '09:00', 'UTC');
  it.each([
    ['before', '2026-06-01T08:59:59Z', null, '2026-06-01T09:00:00.000Z'],
    ['at the start', '2026-06-01T09:00:00Z', '2026-06-01T09:00:00.000Z', '2026-06-08T09:00:00.000Z'],
    ['inside', '2026-06-01T09:59:59Z', '2026-06-01T09:00:00.000Z', '2026-06-08T09:00:00.000Z'],
    ['at the end', '2026-06-01T10:00:00Z', null, '2026-06-08T09:00:00.000Z'],
  ])('%s', (_why, now, current, next) => {
    expect(currentSpan(s, at(now))?.start ?? null).toBe(current === null ? null : at(current));
    expect(iso(nextSpan(s, at(now))!.start)).toBe(next);
  });
});
