import { MonitorStats, noStats, sameStats, StatsCache, statsFrom } from './monitor-stats';
import { emptyAcc, RollupAcc } from './rollup-math';

const base: MonitorStats = {
  uptime_24h: 99.5,
  uptime_7d: 99.9,
  uptime_30d: null,
  p50_ms_24h: 12,
  p95_ms_24h: 40,
  spark: [
    { t_ms: 0, avg_ms: 10, worst: 'up' },
    { t_ms: 3_600_000, avg_ms: null, worst: null },
  ],
};
const copy = (): MonitorStats => JSON.parse(JSON.stringify(base)) as MonitorStats;

describe('sameStats', () => {
  it('holds for an equal copy', () => {
    expect(sameStats(base, copy())).toBe(true);
  });

  it.each<[string, (s: MonitorStats) => void]>([
    ['uptime_24h', (s) => (s.uptime_24h = 99.4)],
    ['uptime_7d', (s) => (s.uptime_7d = null)],
    ['uptime_30d', (s) => (s.uptime_30d = 100)],
    ['p50', (s) => (s.p50_ms_24h = 13)],
    ['p95', (s) => (s.p95_ms_24h = null)],
    ['a spark hour', (s) => (s.spark[1].t_ms = 7_200_000)],
    ['a spark average', (s) => (s.spark[0].avg_ms = 11)],
    ['a spark worst', (s) => (s.spark[1].worst = 'down')],
    ['the spark length', (s) => s.spark.pop()],
  ])('fails when %s differs', (_name, change) => {
    const other = copy();
    change(other);
    expect(sameStats(base, other)).toBe(false);
  });
});

describe('StatsCache', () => {
  const other = (): MonitorStats => ({ ...copy(), uptime_24h: 98 });

  it.each<[string, number, number, boolean]>([
    // id, read after (ms), fresh?
    ['id 0 just put', 0, 0, true],
    ['id 0 at 29.9 s', 0, 29_999, true],
    ['id 0 at 30 s', 0, 30_000, false],
    ['id 15 at 14.9 s', 15, 14_999, true],
    ['id 15 at 15 s', 15, 15_000, false],
    ['id 16 at 29.9 s (ids take turns by id % 16)', 16, 29_999, true],
    ['a clock that went back', 0, -1, false],
  ])('fresh: %s', (_name, id, after, fresh) => {
    const c = new StatsCache();
    const s = copy();
    c.put(id, s, 1_000_000);
    expect(c.fresh(id, 1_000_000 + after)).toBe(fresh ? s : null);
  });

  it('keeps the earlier object when new figures say the same, even after it expired', () => {
    const c = new StatsCache();
    const first = copy();
    expect(c.put(1, first, 0)).toBe(first);
    expect(c.put(1, copy(), 40_000)).toBe(first);
    const changed = other();
    expect(c.put(1, changed, 50_000)).toBe(changed);
  });

  it('keeps figures without data until the monitor has a result', () => {
    const c = new StatsCache();
    const empty = noStats(0);
    c.resultAdded(2, 0);
    c.put(1, empty, 0);
    c.put(2, copy(), 0);
    expect(c.fresh(1, 1000)).toBe(empty);
    c.resultAdded(1, 0);
    c.resultAdded(2, 0); // figures with data stay until they expire
    expect(c.fresh(1, 1000)).toBeNull();
    expect(c.fresh(2, 1000)).not.toBeNull();
  });

  it('drops figures when a result changes the outcome, and keeps them through a run of like results', () => {
    const c = new StatsCache();
    const up = 0;
    const down = 2;
    c.resultAdded(1, up);
    c.put(1, copy(), 0);
    c.resultAdded(1, up);
    expect(c.fresh(1, 1000)).not.toBeNull();
    c.resultAdded(1, down); // the monitor starts failing: its "up 24 h" moves now
    expect(c.fresh(1, 1000)).toBeNull();
    c.put(1, other(), 1000);
    c.resultAdded(1, down);
    expect(c.fresh(1, 2000)).not.toBeNull();
    c.resultAdded(1, up); // and recovers
    expect(c.fresh(1, 2000)).toBeNull();
    // A first result whose predecessor is not known drops them too.
    c.put(2, copy(), 0);
    c.resultAdded(2, up);
    expect(c.fresh(2, 1000)).toBeNull();
  });

  it('does not keep figures without data read while the monitor got a result', async () => {
    const c = new StatsCache();
    let release: () => void = () => undefined;
    const read = c.reading(async () => {
      await new Promise<void>((r) => (release = r));
      c.put(1, noStats(0), 0);
      c.put(2, noStats(0), 0);
      c.put(3, copy(), 0);
    });
    c.resultAdded(1, 0); // the read may have missed it
    release();
    await read;
    expect(c.fresh(1, 0)).toBeNull();
    expect(c.fresh(2, 0)).not.toBeNull();
    expect(c.fresh(3, 0)).not.toBeNull();
    // Once no read runs, what came during one is forgotten.
    c.put(1, noStats(0), 10);
    expect(c.fresh(1, 10)).not.toBeNull();
  });

  it('sweeps entries older than two cache periods, at most once a period', () => {
    const c = new StatsCache();
    c.put(1, copy(), 0);
    c.put(2, copy(), 35_000);
    c.sweep(40_000); // a walk: entry 1 is 40 s old, kept
    expect(c.size).toBe(2);
    c.sweep(65_000); // entry 1 is 65 s old, but the last walk was 25 s ago: no walk
    expect(c.size).toBe(2);
    c.sweep(70_000); // a walk: entry 1 (70 s) goes, entry 2 (35 s) stays
    expect(c.size).toBe(1);
    const s2 = copy();
    expect(c.put(2, s2, 70_000)).not.toBe(s2); // entry 2's object is the one kept
    c.sweep(130_000);
    expect(c.size).toBe(0);
  });

  it('sweeps everything after the clock went back', () => {
    const c = new StatsCache();
    c.put(1, copy(), 100_000);
    c.sweep(100_000);
    c.sweep(50_000);
    expect(c.size).toBe(0);
  });
});

describe('statsFrom', () => {
  const acc = (over: Partial<RollupAcc>): RollupAcc => ({ ...emptyAcc(), ...over });
  const hourNow = 500_000;
  const today = 20_000;

  it.each<[string, [number, RollupAcc][], [number, RollupAcc][], Partial<MonitorStats>]>([
    ['no rows: every figure null', [], [], { uptime_24h: null, uptime_7d: null, uptime_30d: null, p50_ms_24h: null }],
    [
      'the last 24 hours only, the hour 24 back left out',
      [
        [hourNow, acc({ up_ms: 3000, down_ms: 1000 })],
        [hourNow - 24, acc({ down_ms: 9000 })],
      ],
      [],
      { uptime_24h: 75 },
    ],
    [
      'days: 7 and 30 back from today, maintenance and unknown time in neither side',
      [],
      [
        [today, acc({ up_ms: 1000, maint_ms: 5000, unknown_ms: 5000 })],
        [today - 6, acc({ down_ms: 1000 })],
        [today - 29, acc({ up_ms: 2000 })],
        [today - 30, acc({ down_ms: 99_000 })],
      ],
      { uptime_24h: null, uptime_7d: 50, uptime_30d: 75 },
    ],
  ])('%s', (_, hours, days, expected) => {
    expect(statsFrom(new Map(hours), new Map(days), hourNow, today)).toMatchObject(expected);
  });

  it('draws the spark from the hours, oldest first, with the average and the worst outcome of each', () => {
    const s = statsFrom(
      new Map([
        [hourNow - 23, acc({ n_up: 2, lat_n: 2, lat_sum: 31 })],
        [hourNow, acc({ n_up: 1, n_down: 1, lat_n: 1, lat_sum: 10 })],
        [hourNow - 1, acc({ n_maint: 4 })],
      ]),
      new Map(),
      hourNow,
      today,
    );
    expect(s.spark).toHaveLength(24);
    expect(s.spark[0]).toEqual({ t_ms: (hourNow - 23) * 3_600_000, avg_ms: 16, worst: 'up' });
    expect(s.spark[22]).toEqual({ t_ms: (hourNow - 1) * 3_600_000, avg_ms: null, worst: null });
    expect(s.spark[23]).toEqual({ t_ms: hourNow * 3_600_000, avg_ms: 10, worst: 'down' });
  });
});
