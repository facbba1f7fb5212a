import { emptyTally, Tallies } from './bars';
import { TallyCache, TallyRow } from './tally-cache';

const row = (id: number, key: number, up: number, down = 0, maint = 0): TallyRow => ({
  id,
  key,
  up_ms: up,
  down_ms: down,
  maint_ms: maint,
  lat_n: 1,
  lat_sum: 10,
});
const sum = (c: TallyCache, id: number, from: number, to: number) => {
  const t = emptyTally();
  c.addInto(id, from, to, t);
  return t;
};

describe('TallyCache', () => {
  it('asks for what it does not hold, on either side, and nothing twice', () => {
    const c = new TallyCache(1000);
    expect(c.missing(1, 10, 20)).toEqual([[10, 20]]);
    c.fill(1, 10, 20, [row(1, 12, 5), row(1, 20, 7, 1)]);
    expect(c.missing(1, 10, 20)).toEqual([]);
    expect(c.missing(1, 5, 25)).toEqual([
      [5, 9],
      [21, 25],
    ]);
    expect(c.missing(1, 12, 15)).toEqual([]);
    expect(c.missing(1, 30, 29)).toEqual([]);
    expect(c.missing(2, 10, 20)).toEqual([[10, 20]]);
  });

  it('sums held keys, and zero for keys without a row', () => {
    const c = new TallyCache(1000);
    c.fill(1, 10, 20, [row(1, 12, 5, 0, 3), row(1, 20, 7, 1), row(1, 99, 1000)]);
    expect(sum(c, 1, 10, 20)).toEqual({ up_ms: 12, down_ms: 1, maint_ms: 3, lat_n: 2, lat_sum: 20 });
    expect(sum(c, 1, 13, 19)).toEqual(emptyTally());
    expect(sum(c, 1, 0, 12)).toEqual({ up_ms: 5, down_ms: 0, maint_ms: 3, lat_n: 1, lat_sum: 10 });
    expect(sum(c, 2, 0, 100)).toEqual(emptyTally());
  });

  it('grows on both sides keeping what it held', () => {
    const c = new TallyCache(1000);
    c.fill(1, 10, 20, [row(1, 15, 1)]);
    c.fill(1, 21, 25, [row(1, 25, 2)]);
    c.fill(1, 5, 9, [row(1, 5, 4)]);
    expect(sum(c, 1, 0, 100)).toEqual({ up_ms: 7, down_ms: 0, maint_ms: 0, lat_n: 3, lat_sum: 30 });
    expect(c.heldTo(1)).toBe(25);
  });

  it('drops the oldest keys past its limit', () => {
    const c = new TallyCache(10);
    c.fill(1, 0, 9, [row(1, 0, 1), row(1, 9, 2)]);
    c.fill(1, 10, 14, [row(1, 14, 4)]);
    expect(c.missing(1, 0, 14)).toEqual([[0, 4]]);
    expect(sum(c, 1, 0, 14)).toEqual({ up_ms: 6, down_ms: 0, maint_ms: 0, lat_n: 2, lat_sum: 20 });
  });

  it('forgets monitors', () => {
    const c = new TallyCache(10);
    c.fill(1, 0, 1, []);
    c.fill(2, 0, 1, []);
    c.keepOnly(new Set([2]));
    expect(c.size).toBe(1);
    c.drop(2);
    expect(c.size).toBe(0);
  });

  describe('sumPeriods', () => {
    const periods = [
      { from: 10, to: 12 },
      { from: 13, to: 13 },
      { from: 14, to: 17 },
      { from: 18, to: 20 },
    ];
    const plan = periods.map((p) => `${p.from}-${p.to}`).join(',');
    const filled = () => {
      const c = new TallyCache(1000);
      c.fill(1, 10, 16, [row(1, 10, 5), row(1, 12, 7, 2, 1), row(1, 13, 3), row(1, 15, 11, 4), row(1, 16, 1)]);
      return c;
    };
    /** What addInto gives period by period, up to finalTo (nothing after it). */
    const byAddInto = (c: TallyCache, finalTo: number) =>
      Tallies.of(periods.map((p) => (p.from <= finalTo ? sum(c, 1, p.from, Math.min(p.to, finalTo)) : emptyTally())));
    const bySums = (c: TallyCache, finalTo: number, key = plan) => {
      const t = new Tallies(periods.length);
      c.sumPeriods(1, periods, finalTo, key, t.data);
      return t;
    };

    it.each([9, 10, 12, 13, 15, 16, 20])('sums each period as addInto does, up to final key %i', (finalTo) => {
      const c = filled();
      expect([...bySums(c, finalTo).data]).toEqual([...byAddInto(c, finalTo).data]);
    });

    it('keeps the sums of a plan while its final key is the same, and sums again when it moves or the span grows', () => {
      const c = filled();
      const addInto = jest.spyOn(c, 'addInto');
      const first = [...bySums(c, 15).data];
      const calls = addInto.mock.calls.length;
      expect(calls).toBeGreaterThan(0);
      expect([...bySums(c, 15).data]).toEqual(first);
      expect(addInto.mock.calls.length).toBe(calls);
      // Another final key, another plan: summed anew.
      expect([...bySums(c, 16).data]).toEqual([...byAddInto(c, 16).data]);
      expect([...bySums(c, 15, 'another').data]).toEqual(first);
      expect(addInto.mock.calls.length).toBeGreaterThan(calls);
      // New final keys: the span is replaced, and its sums with it.
      c.fill(1, 17, 20, [row(1, 17, 9, 9), row(1, 20, 2)]);
      expect([...bySums(c, 20).data]).toEqual([...byAddInto(c, 20).data]);
      expect(bySums(c, 20).at(2)).toEqual({ up_ms: 21, down_ms: 13, maint_ms: 0, lat_n: 3, lat_sum: 30 });
    });

    it('sums again after keys it held are filled anew', () => {
      const c = filled();
      bySums(c, 15);
      c.fill(1, 12, 12, [row(1, 12, 100, 0, 0)]);
      expect(bySums(c, 15).at(0)).toEqual({ up_ms: 105, down_ms: 0, maint_ms: 0, lat_n: 2, lat_sum: 20 });
      expect([...bySums(c, 15).data]).toEqual([...byAddInto(c, 15).data]);
    });

    it('writes nothing for a monitor it holds nothing of', () => {
      const t = new Tallies(periods.length);
      new TallyCache(1000).sumPeriods(2, periods, 20, plan, t.data);
      expect([...t.data].every((v) => v === 0)).toBe(true);
    });
  });
});
