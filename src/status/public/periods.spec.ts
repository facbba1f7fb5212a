import { RANGES } from '../settings/look';
import { bucketOf, DAY_MS, HOUR_MS, localDay, periodIndex, planRange, zoneLabel } from './periods';

const NOW = Date.UTC(2026, 10, 18, 14, 25); // Wed 18 Nov 2026, 14:25 UTC

describe('planRange', () => {
  it.each([
    ['24h', 24, 'rollup_hour'],
    ['7d', 28, 'rollup_hour'],
    ['30d', 30, 'rollup_day'],
    ['90d', 90, 'rollup_day'],
    ['12mo', 12, 'rollup_day'],
  ] as const)('%s has %i bars over %s', (range, n, table) => {
    const plan = planRange(range, NOW, 0);
    expect(plan.periods).toHaveLength(n);
    expect(plan.table).toBe(table);
    expect(plan.monthly).toBe(range === '12mo');
  });

  it.each(RANGES.flatMap((r) => [0, 120, -300, 330, 840, -720].map((tz) => [r, tz] as const)))(
    '%s at UTC%+i: bars follow each other without gaps, the last holds now, and keys never overlap',
    (range, tz) => {
      const plan = planRange(range, NOW, tz);
      const p = plan.periods;
      expect(p[p.length - 1].start).toBeLessThanOrEqual(NOW);
      expect(p[p.length - 1].end).toBeGreaterThan(NOW);
      for (let i = 1; i < p.length; i++) {
        expect(p[i].start).toBe(p[i - 1].end);
        expect(p[i].from).toBe(p[i - 1].to + 1);
      }
      expect(plan.start).toBe(p[0].start);
    },
  );

  it('labels hours in the page zone and names them by their UTC start', () => {
    const p = planRange('24h', NOW, 120).periods;
    expect(p[23]).toMatchObject({
      id: '2026-11-18T14:00:00.000Z',
      label: 'Wed 18 Nov, 16:00-17:00',
      from: (NOW / HOUR_MS) | 0,
    });
  });

  it('cuts six-hour blocks at local 00, 06, 12 and 18 (UTC+2: 12:00 local = 10:00 UTC)', () => {
    const p = planRange('7d', NOW, 120).periods;
    expect(p[27]).toMatchObject({ id: '2026-11-18T10:00:00.000Z', label: 'Wed 18 Nov, 12:00-18:00' });
    expect(p[27].to - p[27].from).toBe(5);
  });

  it('gives a block the UTC hours that start inside it in a zone off the hour (UTC+5:30)', () => {
    const p = planRange('7d', NOW, 330).periods;
    // 19:55 local: the block 18:00-24:00 local = 12:30-18:30 UTC, whose hours start at 13:00 .. 18:00 UTC.
    expect(p[27].label).toBe('Wed 18 Nov, 18:00-00:00');
    expect(p[27].from).toBe(Date.UTC(2026, 10, 18, 13) / HOUR_MS);
    expect(p[27].to).toBe(Date.UTC(2026, 10, 18, 18) / HOUR_MS);
  });

  it('uses local days: just after midnight in UTC+14 it is already the next day', () => {
    const late = Date.UTC(2026, 10, 18, 10, 30); // 00:30 on the 19th at UTC+14
    const p = planRange('30d', late, 840).periods;
    expect(p[29]).toMatchObject({ id: '2026-11-19', label: 'Thu 19 Nov 2026', from: localDay(late, 840) });
    expect(p[29].start).toBe(Date.UTC(2026, 10, 19) - 840 * 60_000);
  });

  it('takes whole local months for 12mo, the current one last, across a year end', () => {
    const p = planRange('12mo', Date.UTC(2026, 1, 10), 0).periods;
    expect(p.map((x) => x.id)).toEqual([
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
    expect(p[11]).toMatchObject({
      label: 'February 2026',
      from: Date.UTC(2026, 1, 1) / DAY_MS,
      to: Date.UTC(2026, 2, 1) / DAY_MS - 1,
    });
    expect(p[10].to - p[10].from + 1).toBe(31);
  });
});

describe('zoneLabel', () => {
  it.each([
    [0, 'UTC'],
    [120, 'UTC+2'],
    [-210, 'UTC-3:30'],
    [345, 'UTC+5:45'],
  ])('%i minutes is %s', (tz, text) => expect(zoneLabel(tz)).toBe(text));
});

describe('bucketOf and periodIndex', () => {
  it.each(RANGES.flatMap((r) => [0, 330].map((tz) => [r, tz] as const)))(
    '%s at %i min: the SQL bucket and the lookup agree on every key',
    (range, tz) => {
      const plan = planRange(range, NOW, tz);
      const { sql, params } = bucketOf(plan, 'k');
      // Evaluate the SQL expression for each key the way SQLite would (integer division, CASE).
      const evalSql = (k: number): number => {
        if (params.length === 0) {
          const m = /^\(\(k - (-?\d+)\) \/ (\d+)\)$/.exec(sql)!;
          return Math.trunc((k - Number(m[1])) / Number(m[2]));
        }
        const i = params.findIndex((bound) => k < bound);
        return i === -1 ? params.length : i;
      };
      for (const [i, p] of plan.periods.entries()) {
        for (const k of [p.from, p.to, Math.floor((p.from + p.to) / 2)]) {
          expect([k, evalSql(k)]).toEqual([k, i]);
          expect([k, periodIndex(plan, k)]).toEqual([k, i]);
        }
      }
      expect(periodIndex(plan, plan.periods[0].from - 1)).toBe(-1);
    },
  );

  it('uses arithmetic for even bars and one comparison per boundary for months', () => {
    expect(bucketOf(planRange('90d', NOW, 0), 'day').params).toEqual([]);
    expect(bucketOf(planRange('7d', NOW, 0), 'hour').sql).toMatch(/\/ 6\)$/);
    expect(bucketOf(planRange('12mo', NOW, 0), 'day').params).toHaveLength(11);
  });
});
