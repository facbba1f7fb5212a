import { nextInRotation } from './fold-rotation';

/** The rule, written the slow way: sort, start after `after`, wrap round. */
function bySorting(ids: number[], after: number, count: number): number[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (count <= 0 || sorted.length === 0) return [];
  let i = sorted.findIndex((id) => id > after);
  if (i < 0) i = 0;
  return Array.from({ length: Math.min(count, sorted.length) }, (_, k) => sorted[(i + k) % sorted.length]);
}

describe('nextInRotation', () => {
  it.each<[string, number[], number, number, number[]]>([
    ['the next ones after the cursor', [5, 1, 9, 3, 7], 3, 2, [5, 7]],
    ['wrapping round to the smallest', [5, 1, 9, 3, 7], 7, 3, [9, 1, 3]],
    ['from the start when the cursor is past every id', [5, 1, 9], 20, 2, [1, 5]],
    ['from the start when the cursor is before every id', [5, 1, 9], 0, 2, [1, 5]],
    ['every id once when more are asked for than there are', [4, 2], 2, 5, [4, 2]],
    ['nothing when none are asked for', [4, 2], 2, 0, []],
    ['nothing from no ids', [], 2, 3, []],
    ['the cursor itself last, once round', [10, 20, 30], 20, 3, [30, 10, 20]],
  ])('%s', (_, ids, after, count, expected) => {
    expect(nextInRotation(ids, after, count)).toEqual(expected);
  });

  it('agrees with sorting on random sets, with few and with many asked for', () => {
    let seed = 11;
    const rand = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
    for (let round = 0; round < 500; round++) {
      const ids = [...new Set(Array.from({ length: rand(300) }, () => 1 + rand(1000)))];
      const after = rand(1100);
      const count = round % 5 === 0 ? rand(400) : rand(8);
      expect(nextInRotation(new Map(ids.map((id) => [id, 0])).keys(), after, count)).toEqual(
        bySorting(ids, after, count),
      );
    }
  });
});
