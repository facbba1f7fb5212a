/**
 * The writer's start (CheckWriter.restore): its memory of the log, rebuilt from what the last run
 * left on disk. After a clean stop the log is empty; after a crash it holds the results of the last
 * hour or so, and those after their monitor's mark are returned (oldest first per monitor) to be
 * accounted again.
 */
import type { Clock } from '../common/clock';
import { readTable } from '../db/bulk-read';
import type { Database } from '../db/database';
import { CHECK_COLUMNS, CheckRow } from './check-row';
import type { BucketSpan } from './unfolded-reads';

const COLUMN_LIST = CHECK_COLUMNS.join(', ');

/** The writer's memory of the log: its maps are filled in place, its numbers set, as the reads go. */
export interface LogMemory {
  /** Per monitor: its results in buckets up to this one are in `checks` (check_marks). */
  marks: Map<number, number>;
  /** Per monitor with logged results not in `checks` yet: the first bucket holding one. */
  unfolded: Map<number, number>;
  spans: Map<number, BucketSpan>;
  /** The last stored time per monitor (clash handling). */
  lastAt: Map<number, number>;
  lastBucket: number;
  droppedThrough: number;
}

/** Reads the marks and the log into `mem`; returns the logged results not folded yet. */
export async function readLogBack(db: Database, clock: Clock, mem: LogMemory): Promise<CheckRow[]> {
  for (const r of await readTable<{ monitor_id: number; bucket: number }>(db, 'check_marks')) {
    mem.marks.set(r.monitor_id, r.bucket);
    mem.lastBucket = Math.max(mem.lastBucket, r.bucket);
  }
  // Rows of a monitor deleted while a write raced its deletion may be left: they go now.
  const [{ n }] = await db.read<
    {
      n: number;
    }[]
  >('SELECT COUNT(*) AS n FROM (SELECT 1 FROM check_log LIMIT 1)');
  if (n > 0) await db.tx((m) => m.query('DELETE FROM check_log WHERE monitor_id NOT IN (SELECT id FROM monitors)'));
  const rows = await db.read<
    (CheckRow & {
      bucket: number;
    })[]
  >(`SELECT bucket, ${COLUMN_LIST} FROM check_log ORDER BY bucket, monitor_id, at`);
  const out: CheckRow[] = [];
  mem.droppedThrough = rows.length > 0 ? rows[0].bucket - 1 : mem.lastBucket;
  for (const { bucket, ...r } of rows) {
    mem.lastBucket = Math.max(mem.lastBucket, bucket);
    const s = mem.spans.get(bucket);
    mem.spans.set(
      bucket,
      s ? { lo: Math.min(s.lo, r.at), hi: Math.max(s.hi, r.at), t: s.t } : { lo: r.at, hi: r.at, t: clock.now() },
    );
    if ((mem.lastAt.get(r.monitor_id) ?? -1) < r.at) mem.lastAt.set(r.monitor_id, r.at);
    if (bucket <= (mem.marks.get(r.monitor_id) ?? 0)) continue;
    if (!mem.unfolded.has(r.monitor_id)) mem.unfolded.set(r.monitor_id, bucket);
    out.push(r);
  }
  return out.sort((a, b) => a.monitor_id - b.monitor_id || a.at - b.at);
}
