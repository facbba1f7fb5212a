import { MonitorChanges } from './monitor-changes';

type Op = ['change' | 'delete', number];

describe('MonitorChanges', () => {
  it.each<[string, Op[], { changed: number[]; deleted: number[] }]>([
    ['nothing', [], { changed: [], deleted: [] }],
    [
      'each changed id once, ascending',
      [
        ['change', 3],
        ['change', 1],
        ['change', 3],
        ['change', 2],
      ],
      { changed: [1, 2, 3], deleted: [] },
    ],
    [
      'deleted ids',
      [
        ['delete', 5],
        ['delete', 4],
      ],
      { changed: [], deleted: [4, 5] },
    ],
    [
      'created then deleted in one window: only deleted',
      [
        ['change', 7],
        ['delete', 7],
      ],
      { changed: [], deleted: [7] },
    ],
    [
      'a late change of a deleted monitor stays deleted',
      [
        ['delete', 7],
        ['change', 7],
      ],
      { changed: [], deleted: [7] },
    ],
    [
      'both kinds',
      [
        ['change', 1],
        ['delete', 2],
        ['change', 3],
      ],
      { changed: [1, 3], deleted: [2] },
    ],
  ])('%s', (_, ops, expected) => {
    const c = new MonitorChanges();
    for (const [op, id] of ops) c[op](id);
    expect(c.take()).toEqual(expected);
    expect(c.empty).toBe(true);
  });

  it('collects a burst of 1,000 changes into one event', () => {
    const c = new MonitorChanges();
    for (let id = 1; id <= 1000; id++) c.change(id);
    expect(c.empty).toBe(false);
    expect(c.take().changed).toHaveLength(1000);
  });

  it('starts a fresh window after take()', () => {
    const c = new MonitorChanges();
    c.delete(1);
    c.take();
    c.change(1);
    expect(c.take()).toEqual({ changed: [1], deleted: [] });
  });
});
