import {
  addTally,
  BAR_STATES,
  BarState,
  barState,
  emptyTally,
  percentText,
  Tallies,
  Tally,
  uptimeOf,
  worstState,
  worstRanks,
  barRanks,
  NOT_WATCHED,
  NO_DATA,
  OK,
  MAINTENANCE,
  WARN,
  BAD,
} from './bars';
import { overallOf } from './overall';

const DAY = 86_400_000;
const period = { end: 10 * DAY };
/** A day with `down` ms of downtime out of `total` ms watched. */
const t = (down: number, total = DAY) => ({ up_ms: total - down, down_ms: down });

describe('barState', () => {
  it.each([
    ['before watching began', t(0), 10 * DAY, false, 'not_watched'],
    ['watching began at its very end', t(0), 10 * DAY, true, 'not_watched'],
    ['no up or down time', { up_ms: 0, down_ms: 0 }, 0, false, 'no_data'],
    ['all up', t(0), 0, false, 'ok'],
    ['one second down (99.9988 %)', t(1000), 0, false, 'warn'],
    ['exactly 99.9 % (86.4 s down)', t(86_400), 0, false, 'warn'],
    ['just under 99.9 %', t(86_401), 0, false, 'warn'],
    ['exactly 99 % (14.4 min down)', t(864_000), 0, false, 'warn'],
    ['just under 99 %', t(864_001), 0, false, 'bad'],
    ['all down', t(DAY), 0, false, 'bad'],
    ['a month at exactly 99.9 %', t(86_400), 0, true, 'ok'],
    ['a month one millisecond under 99.9 %', t(86_401), 0, true, 'warn'],
    ['a month with a second down', t(1000), 0, true, 'ok'],
    ['a month just under 99 %', t(864_001), 0, true, 'bad'],
    ['watching began inside the bar', t(1000, DAY / 2), 9.5 * DAY, false, 'warn'],
    ['all in maintenance (no up or down time)', { up_ms: 0, down_ms: 0, maint_ms: DAY }, 0, false, 'maintenance'],
    ['mostly maintenance, up outside it', { ...t(0, DAY / 4), maint_ms: (3 * DAY) / 4 }, 0, false, 'maintenance'],
    [
      'mostly maintenance, a little down outside it',
      { ...t(1000, DAY / 4), maint_ms: DAY / 2 },
      0,
      false,
      'maintenance',
    ],
    [
      'mostly maintenance, but bad outside it: the outage shows',
      { ...t(DAY / 8, DAY / 4), maint_ms: DAY / 2 },
      0,
      false,
      'bad',
    ],
    ['half maintenance exactly is not mostly', { ...t(0, DAY / 2), maint_ms: DAY / 2 }, 0, false, 'ok'],
    ['some maintenance, down outside it', { ...t(1000, (3 * DAY) / 4), maint_ms: DAY / 4 }, 0, false, 'warn'],
    ['maintenance before watching began', { up_ms: 0, down_ms: 0, maint_ms: DAY }, 10 * DAY, false, 'not_watched'],
  ] as const)('%s: %s', (_name, tally, watchedFrom, monthly, state) => {
    expect(barState(tally, period, watchedFrom, monthly)).toBe(state);
  });
});

describe('worstState', () => {
  it.each([
    [[], 'not_watched'],
    [['not_watched', 'no_data'], 'no_data'],
    [['no_data', 'ok'], 'ok'],
    [['ok', 'warn', 'ok'], 'warn'],
    [['warn', 'bad', 'no_data'], 'bad'],
    [['ok', 'maintenance', 'no_data'], 'maintenance'],
    [['maintenance', 'warn'], 'warn'],
  ] as const)('%j -> %s', (states, worst) => expect(worstState([...states])).toBe(worst));
});

describe('ranks: a state as its place in BAR_STATES, the later the worse', () => {
  it('names each rank by its state', () => {
    expect([NOT_WATCHED, NO_DATA, OK, MAINTENANCE, WARN, BAD].map((r) => BAR_STATES[r])).toEqual([
      'not_watched',
      'no_data',
      'ok',
      'maintenance',
      'warn',
      'bad',
    ]);
  });

  it('barRanks gives barState of each bar', () => {
    const tallies = Tallies.of([
      { ...emptyTally(), ...t(0) },
      { ...emptyTally(), ...t(1000) },
      { ...emptyTally(), ...t(864_001) },
      emptyTally(),
      { ...emptyTally(), maint_ms: DAY },
      { ...emptyTally(), ...t(0) },
    ]);
    const periods = [1, 2, 3, 4, 5, 6].map((d) => ({ end: d * DAY }));
    for (const monthly of [false, true]) {
      const ranks = barRanks(tallies, periods, 1.5 * DAY, monthly);
      expect([...ranks].map((r) => BAR_STATES[r])).toEqual(
        periods.map((p, i) => barState(tallies.at(i), p, 1.5 * DAY, monthly)),
      );
    }
  });
});

describe('worstRanks: column by column, as worstState of each column', () => {
  const ranksOf = (states: BarState[]) => Uint8Array.from(states.map((s) => BAR_STATES.indexOf(s)));
  const statesOf = (ranks: Uint8Array) => [...ranks].map((r) => BAR_STATES[r]);
  const strips: BarState[][] = [
    ['not_watched', 'ok', 'ok', 'warn', 'maintenance'],
    ['no_data', 'ok', 'bad', 'ok', 'ok'],
    ['not_watched', 'maintenance', 'ok', 'no_data', 'ok'],
  ];
  it('takes the worst of each column', () => {
    expect(statesOf(worstRanks(strips.map(ranksOf), 5))).toEqual([
      'no_data',
      'maintenance',
      'bad',
      'warn',
      'maintenance',
    ]);
  });
  it('equals worstState column by column for every pair of states', () => {
    const pairs = BAR_STATES.flatMap((a) => BAR_STATES.map((b) => [a, b]));
    const columns = [pairs.map(([a]) => a), pairs.map(([, b]) => b)].map(ranksOf);
    expect(statesOf(worstRanks(columns, pairs.length))).toEqual(pairs.map((p) => worstState(p)));
  });
  it('no strips: every bar not_watched', () => {
    expect(statesOf(worstRanks([], 3))).toEqual(['not_watched', 'not_watched', 'not_watched']);
  });
});

describe('uptime figures', () => {
  it.each([
    [t(0), 100],
    [t(86_400), 99.9],
    [t(DAY / 3), 66.667],
    [{ up_ms: 0, down_ms: 0 }, null],
  ])('uptimeOf(%j) = %j', (tally, pct) => expect(uptimeOf(tally)).toBe(pct));

  it.each([
    [100, 0, '100%'],
    [100, 5, '99.99%'],
    [99.9996, 1, '99.99%'],
    [99.956, 1, '99.95%'],
    [12.3, 1, '12.30%'],
    [null, 0, 'No data'],
  ])('percentText(%j, %j) = %s', (pct, down, text) => expect(percentText(pct, down)).toBe(text));
});

describe('overallOf (the rule in ARCHITECTURE.md)', () => {
  it.each([
    [[], 'operational'],
    [['up', 'up', 'unknown'], 'operational'],
    [['up', 'paused'], 'operational'],
    [['up', 'slow'], 'degraded'],
    [['up', 'up', 'down'], 'partial_outage'],
    [['up', 'slow', 'slow', 'down'], 'partial_outage'],
    [['up', 'down'], 'major_outage'],
    [['down'], 'major_outage'],
    [['up', 'down', 'paused', 'paused'], 'major_outage'],
    [['up', 'up', 'down', 'down', 'slow'], 'partial_outage'],
    [['up', 'down', 'down', 'unknown'], 'major_outage'],
  ] as const)('%j is %s', (statuses, overall) => expect(overallOf(statuses)).toBe(overall));
});

describe('Tallies: five numbers a bar, the same sums as the objects', () => {
  const t = (up: number, down: number, maint: number, n: number, sum: number): Tally => ({
    up_ms: up,
    down_ms: down,
    maint_ms: maint,
    lat_n: n,
    lat_sum: sum,
  });
  const list = [t(1, 2, 3, 4, 5), t(0.1, 0.2, 0, 0, 0), t(86_400_000, 0, 60_000, 1440, 123_456.5)];

  it('reads each bar back as it was given, into a new object or a scratch one', () => {
    const strip = Tallies.of(list);
    expect(list.map((_, i) => strip.at(i))).toEqual(list);
    const scratch = emptyTally();
    expect(strip.at(2, scratch)).toBe(scratch);
    expect(scratch).toEqual(list[2]);
  });

  it.each([
    ['total: every bar in order', (s: Tallies) => s.total(), list.reduce((a, b) => (addTally(a, b), a), emptyTally())],
    [
      'addAll: bar by bar',
      (s: Tallies) => {
        const sum = Tallies.of(list);
        sum.addAll(s);
        return sum.at(1);
      },
      t(0.2, 0.4, 0, 0, 0),
    ],
    [
      'add: into one bar',
      (s: Tallies) => {
        s.add(0, list[1]);
        return s.at(0);
      },
      t(1.1, 2.2, 3, 4, 5),
    ],
  ])('%s', (_name, run, expected) => {
    expect(run(Tallies.of(list))).toEqual(expected);
  });

  it('many: strips of one buffer, each its own bars, starting at zero', () => {
    const strips = Tallies.many(3, list.length);
    expect(strips.map((x) => [x.length, x.data.length])).toEqual([
      [3, 15],
      [3, 15],
      [3, 15],
    ]);
    strips[1].add(2, list[2]);
    strips[2].add(0, list[0]);
    expect(strips.map((x) => x.total())).toEqual([emptyTally(), list[2], list[0]]);
    expect(strips[0].at(2)).toEqual(emptyTally());
    expect(Tallies.many(0, 90)).toEqual([]);
  });
});
