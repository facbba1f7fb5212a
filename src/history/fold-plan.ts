/**
 * What one write of the writer (writer.ts) does to the log and its folds, decided at the write's
 * snapshot from the writer's memory. Pure: the writer applies the plan to its memory once the
 * write committed (CheckWriter.applied), so a failed write changes nothing.
 *
 * Each monitor with results in the log folds (its results move into `checks`) about once every
 * `everyMs`: the share of a fold owed grows with the time since it was last reckoned, and the
 * monitors owed one are the next in a rotation by id (fold-rotation.ts). A flush folds them all.
 */
import type { CheckRow } from './check-row';
import { nextInRotation } from './fold-rotation';
import type { BucketSpan } from './unfolded-reads';
import type { WriteKind } from './write-hook';

/** The writer's memory a plan is made from (never changed here). */
export interface FoldMemory {
  /** The number of the last bucket written. */
  lastBucket: number;
  /** Per monitor with logged results not in `checks` yet: the first bucket holding one. */
  unfolded: ReadonlyMap<number, number>;
  /** The buckets still in the log, with the time span of their results and when they were written. */
  spans: ReadonlyMap<number, BucketSpan>;
  /** The rotation: the last monitor folded, the share of a fold owed, and when it was reckoned. */
  cursor: number;
  credit: number;
  tick: number;
  /** How often each monitor folds. */
  everyMs: number;
}

/** What one write does, decided at its snapshot; applied to memory once it committed. */
export interface Plan {
  bucket: number;
  folding: Set<number>;
  /** Monitors that get their first unfolded results in this write, with its bucket (applied: folded ones leave `unfolded`, these join). */
  added: Map<number, number>;
  dropThrough: number;
  span: BucketSpan | null;
  credit: number;
  cursor: number;
  tick: number;
}

/** How many monitors are owed a fold by now (each folds once every everyMs), and the credit behind it. */
export function foldsOwed(f: FoldMemory, now: number): { count: number; credit: number } {
  const credit = f.credit + (f.unfolded.size * Math.max(0, now - f.tick)) / f.everyMs;
  return { count: Math.min(f.unfolded.size, Math.floor(credit)), credit };
}

/** Whether a commit without results still has folds to do by now. */
export function foldsDue(f: FoldMemory, now: number): boolean {
  if (foldsOwed(f, now).count > 0) return true;
  const overdue = now - 2 * f.everyMs;
  for (const first of f.unfolded.values()) if ((f.spans.get(first)?.t ?? now) <= overdue) return true;
  return false;
}

/** Decides, at the snapshot, what a write of `rows` does. */
export function planWrite(kind: WriteKind, rows: readonly CheckRow[], f: FoldMemory, now: number): Plan {
  const bucket = rows.length > 0 ? f.lastBucket + 1 : f.lastBucket;
  const folding = new Set<number>();
  let credit = 0;
  let cursor = f.cursor;
  if (kind === 'flush') {
    for (const id of f.unfolded.keys()) folding.add(id);
    for (const r of rows) folding.add(r.monitor_id);
  } else {
    const owed = foldsOwed(f, now);
    credit = owed.credit - owed.count;
    if (owed.count > 0) {
      // The next monitors after the cursor, in id order, wrapping round.
      const next = nextInRotation(f.unfolded.keys(), f.cursor, owed.count);
      for (const id of next) folding.add(id);
      cursor = next[next.length - 1];
    }
    // The rotation goes round the monitors that have results in the log; when few get new ones
    // (a quiet service), a monitor waiting twice as long as it should folds anyway.
    const overdue = now - 2 * f.everyMs;
    for (const [id, first] of f.unfolded) if ((f.spans.get(first)?.t ?? now) <= overdue) folding.add(id);
  }
  // Not a copy of `unfolded` (10,000 entries at every write): what changes in it.
  const added = new Map<number, number>();
  let span: Plan['span'] = null;
  for (const r of rows) {
    if (!folding.has(r.monitor_id) && !f.unfolded.has(r.monitor_id)) added.set(r.monitor_id, bucket);
    span = span ? { lo: Math.min(span.lo, r.at), hi: Math.max(span.hi, r.at), t: now } : { lo: r.at, hi: r.at, t: now };
  }
  let dropThrough = added.size > 0 ? bucket - 1 : bucket;
  for (const [id, first] of f.unfolded) if (!folding.has(id)) dropThrough = Math.min(dropThrough, first - 1);
  return { bucket, folding, added, dropThrough, span, credit, cursor, tick: now };
}
