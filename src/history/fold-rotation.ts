/**
 * Which monitors fold next: the writer folds each monitor's logged results into `checks` in a
 * rotation by id, a few monitors per write. Sorting every unfolded id at each write (10,000 of
 * them every second) cost more than the folds; this picks the next few in one pass. Pure.
 */

/** Above this many, a full sort is as cheap as keeping the smallest in order. */
const SMALL = 64;

/**
 * The `count` ids that follow `after` in ascending order, wrapping round to the smallest; every id
 * at most once (fewer when there are fewer ids).
 */
export function nextInRotation(ids: Iterable<number>, after: number, count: number): number[] {
  if (count <= 0) return [];
  if (count > SMALL) {
    const sorted = [...ids].sort((a, b) => a - b);
    let i = sorted.findIndex((id) => id > after);
    if (i < 0) i = 0;
    return Array.from({ length: Math.min(count, sorted.length) }, (_, k) => sorted[(i + k) % sorted.length]);
  }
  // The smallest ids above `after`, and the smallest of all (those at or below `after` come after
  // the wrap, and are the smallest of all when there are any).
  const above: number[] = [];
  const lowest: number[] = [];
  for (const id of ids) {
    if (id > after) keepSmallest(above, id, count);
    keepSmallest(lowest, id, count);
  }
  for (const id of lowest) {
    if (above.length >= count || id > after) break;
    above.push(id);
  }
  return above;
}

/** Inserts `id` into the ascending `list` when it is among the `limit` smallest seen. */
function keepSmallest(list: number[], id: number, limit: number): void {
  if (list.length === limit && id >= list[limit - 1]) return;
  let i = list.length;
  if (i === limit) i -= 1;
  else list.push(id);
  while (i > 0 && list[i - 1] > id) {
    list[i] = list[i - 1];
    i -= 1;
  }
  list[i] = id;
}
