import { MinuteCounter } from './minute-counter';

describe('MinuteCounter', () => {
  it.each<[string, [number, number][], number, number]>([
    ['nothing counted', [], 0, 0],
    [
      'events in the same second add up',
      [
        [1_000, 1],
        [1_500, 2],
      ],
      1_900,
      3,
    ],
    ['an event 59 s ago still counts', [[0, 1]], 59_999, 1],
    ['an event 60 s ago no longer counts', [[0, 1]], 60_000, 0],
    [
      'only the last minute of a longer run',
      [
        [0, 5],
        [40_000, 1],
        [90_000, 2],
      ],
      95_000,
      3,
    ],
  ])('%s', (_what, adds, at, expected) => {
    const c = new MinuteCounter();
    for (const [t, n] of adds) c.add(t, n);
    expect(c.count(at)).toBe(expected);
  });

  it('keeps no more than two minutes of buckets however long it runs', () => {
    const c = new MinuteCounter();
    for (let t = 0; t < 3_600_000; t += 1000) c.add(t);
    expect(c.count(3_600_000)).toBe(59);
    expect((c as unknown as { perSecond: Map<number, number> }).perSecond.size).toBeLessThanOrEqual(121);
  });
});
