import { MonitorStats, sameStats } from './monitor-stats';

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
