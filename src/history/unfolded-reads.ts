/**
 * The read side of the writer (writer.ts): results that are not in `checks` yet, either waiting in
 * memory for their commit or committed to `check_log` and not folded, and the time span the log
 * covers. Readers see every result the moment it exists; they read `checks` after these resolve,
 * and since a result only ever moves from here to there, nothing falls between the two reads.
 *
 * These functions only look at the writer's memory (LogView) and read the database's query-only
 * connection; the writer alone changes either.
 */
import type { Database } from '../db/database';
import { CheckCursor, isAfterCursor } from './check-cursor';
import { CHECK_COLUMNS, CheckRow } from './check-row';

const COLUMN_LIST = CHECK_COLUMNS.join(', ');
const LOG_COLUMNS = `c.${CHECK_COLUMNS.join(', c.')}`;
/**
 * A result can be older than its bucket by at most the time its check took: a bucket whose newest
 * result is older than this margin before the n-th newest found holds nothing newer.
 */
const BUCKET_SLACK_MS = 5 * 60_000;

/** One bucket of `check_log`: the time span of its results and when it was written. */
export interface BucketSpan {
  lo: number;
  hi: number;
  /** Clock time of the commit (of the start, for buckets read back). */
  t: number;
}

/** The writer's memory as readers see it at the moment they start. */
export interface LogView {
  /** Results not yet committed, in the order they came. */
  buffer: readonly CheckRow[];
  /** Per monitor with logged results not in `checks` yet: the first bucket holding one. */
  unfolded: ReadonlyMap<number, number>;
  /** The buckets still in the log, oldest first. */
  spans: ReadonlyMap<number, BucketSpan>;
  /** The number of the last bucket written. */
  lastBucket: number;
}

/** One monitor's results that are not in `checks` yet (in the log, or waiting), oldest first. */
export async function unfoldedOf(db: Database, v: LogView, monitorId: number): Promise<CheckRow[]> {
  const waiting = v.buffer.filter((r) => r.monitor_id === monitorId);
  const first = v.unfolded.get(monitorId);
  const logged =
    first === undefined
      ? []
      : await db.read<CheckRow[]>(
          `WITH RECURSIVE b(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM b WHERE x < ?)
     SELECT ${LOG_COLUMNS} FROM b CROSS JOIN check_log c ON c.bucket = b.x AND c.monitor_id = ?`,
          [first, v.lastBucket, monitorId],
        );
  return mergeRows(logged, waiting);
}

/**
 * Up to `n` results of any monitor not in `checks` yet, newest first, that come after a GET
 * /checks cursor and pass `keep`.
 */
export async function newestUnfolded(
  db: Database,
  v: LogView,
  n: number,
  cursor: CheckCursor | null,
  keep?: (row: CheckRow) => boolean,
): Promise<CheckRow[]> {
  const ok = (r: CheckRow): boolean => isAfterCursor(r, cursor) && (!keep || keep(r));
  const out: CheckRow[] = v.buffer.filter(ok);
  const unfolded = v.unfolded;
  const buckets = [...v.spans.keys()].reverse();
  // Buckets are in the order they were written: once a bucket's newest result is older than the
  // n-th newest found (give or take BUCKET_SLACK_MS), no older bucket holds a newer one.
  for (let i = 0; i < buckets.length; i += 20) {
    const part = buckets.slice(i, i + 20);
    if (out.length >= n) {
      const nth = out.sort(newestFirst)[n - 1];
      if (part.every((b) => (v.spans.get(b)?.hi ?? -Infinity) + BUCKET_SLACK_MS < nth.at)) break;
    }
    const rows = await db.read<(CheckRow & { bucket: number })[]>(
      `SELECT bucket, ${COLUMN_LIST} FROM check_log WHERE bucket >= ? AND bucket <= ?`,
      [part[part.length - 1], part[0]],
    );
    for (const { bucket, ...r } of rows) if (bucket >= (unfolded.get(r.monitor_id) ?? Infinity) && ok(r)) out.push(r);
  }
  return dedupe(out.sort(newestFirst)).slice(0, n);
}

/** Up to `n` failed results of any monitor not in `checks` yet, newest first, after a GET /checks cursor. */
export async function unfoldedDown(
  db: Database,
  v: LogView,
  n: number,
  cursor: CheckCursor | null,
  down: number,
): Promise<CheckRow[]> {
  const waiting = v.buffer.filter((r) => r.outcome === down && isAfterCursor(r, cursor));
  const params: unknown[] = [down];
  let where = 'outcome = ?';
  if (cursor) {
    where += ' AND (at < ? OR (at = ? AND monitor_id < ?))';
    params.push(cursor.at, cursor.at, cursor.monitorId);
  }
  // Rows already folded may still be in the log: the caller merges with `checks`, which has them.
  const logged = await db.read<CheckRow[]>(
    `SELECT ${COLUMN_LIST} FROM check_log WHERE ${where} ORDER BY at DESC, monitor_id DESC LIMIT ?`,
    [...params, n],
  );
  return dedupe([...logged, ...waiting].sort(newestFirst)).slice(0, n);
}

/** The time span of the results in the log and in memory (null when there are none). */
export function logSpan(v: LogView): { oldest: number; newest: number } | null {
  let oldest = Infinity;
  let newest = -Infinity;
  for (const s of v.spans.values()) {
    oldest = Math.min(oldest, s.lo);
    newest = Math.max(newest, s.hi);
  }
  for (const r of v.buffer) {
    oldest = Math.min(oldest, r.at);
    newest = Math.max(newest, r.at);
  }
  return newest === -Infinity ? null : { oldest, newest };
}

function newestFirst(a: CheckRow, b: CheckRow): number {
  return b.at - a.at || b.monitor_id - a.monitor_id;
}

/** Rows sorted newest first without repeats of one (monitor, time). */
function dedupe(sorted: CheckRow[]): CheckRow[] {
  return sorted.filter((r, i) => i === 0 || r.at !== sorted[i - 1].at || r.monitor_id !== sorted[i - 1].monitor_id);
}

/** Logged and waiting rows of one monitor, oldest first, each time once. */
function mergeRows(logged: CheckRow[], waiting: CheckRow[]): CheckRow[] {
  const seen = new Set(logged.map((r) => r.at));
  return [...logged, ...waiting.filter((r) => !seen.has(r.at))].sort((a, b) => a.at - b.at);
}
