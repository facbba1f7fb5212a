/**
 * The writer's statements inside its transaction (writer.ts decides what they carry): results
 * appended to `check_log` or settled straight into `checks`, and folds that move logged results
 * into `checks` and their monitors' marks on in `check_marks`.
 */
import type { EntityManager } from 'typeorm';
import { CHECK_COLUMNS, CheckRow } from './check-row';
import type { WriteKind } from './write-hook';

/** Rows per INSERT: one JSON text each, so no bound-variable limit, but a bounded statement. */
const ROWS_PER_STATEMENT = 5_000;
const COLUMN_LIST = CHECK_COLUMNS.join(', ');
/** A check row's columns out of its JSON array (insertRows), in CHECK_COLUMNS order. */
const JSON_VALUES = CHECK_COLUMNS.map((_, i) => `value->>${i}`).join(', ');
const LOG_COLUMNS = `c.${CHECK_COLUMNS.join(', c.')}`;

/**
 * `head` (an INSERT up to its column list's opening parenthesis) for rows, with a bucket first when
 * given. The rows go in as one JSON text per statement, which SQLite takes apart (json_each) in the
 * database's worker thread: binding 11 values per row cost the main thread 15 µs a row in the
 * sqlite3 module, 5-6 % of it at 3,500 pings a second. Integers and text keep their SQL types
 * (`->>`), nulls stay NULL, and rows are inserted in the order given.
 */
export async function insertRows(
  m: EntityManager,
  head: string,
  rows: readonly CheckRow[],
  bucket: number | null,
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const json = JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT).map((r) => CHECK_COLUMNS.map((c) => r[c])));
    const sql = `${head}${COLUMN_LIST}) SELECT ${bucket === null ? '' : '?, '}${JSON_VALUES} FROM json_each(?)`;
    await m.query(sql, bucket === null ? [json] : [bucket, json]);
  }
}

/**
 * Moves the folding monitors' logged results into `checks`, sorted by monitor and time, and
 * moves their marks on. A monitor's rows before its first unfolded bucket are in `checks` already.
 */
export async function foldIn(
  m: EntityManager,
  folding: ReadonlySet<number>,
  bucket: number,
  kind: WriteKind,
  unfolded: ReadonlyMap<number, number>,
  deleted: ReadonlySet<number>,
): Promise<void> {
  const ids = [...folding].sort((a, b) => a - b);
  if (kind === 'flush') {
    // Every monitor: one pass over the log, each row against its monitor's mark. Rows of a
    // monitor deleted while a write raced its deletion stay behind (dropped with their bucket).
    const gone = [...deleted];
    await m.query(
      `INSERT OR REPLACE INTO checks (${COLUMN_LIST}) SELECT ${LOG_COLUMNS} FROM check_log c
       LEFT JOIN check_marks k ON k.monitor_id = c.monitor_id
       WHERE c.bucket > COALESCE(k.bucket, 0)${gone.length ? ` AND c.monitor_id NOT IN (${gone.map(() => '?').join(', ')})` : ''}
       ORDER BY c.monitor_id, c.at`,
      gone,
    );
  } else {
    for (let i = 0; i < ids.length; i += 200) {
      const part = ids.slice(i, i + 200).filter((id) => unfolded.has(id));
      if (part.length === 0) continue;
      const lo = Math.min(...part.map((id) => unfolded.get(id)!));
      // One seek per monitor and bucket: the key is (bucket, monitor_id, at).
      await m.query(
        `WITH RECURSIVE b(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM b WHERE x < ?),
           f(id, first) AS (VALUES ${part.map(() => '(?, ?)').join(', ')})
         INSERT OR REPLACE INTO checks (${COLUMN_LIST})
         SELECT ${LOG_COLUMNS} FROM f CROSS JOIN b CROSS JOIN check_log c ON c.bucket = b.x AND c.monitor_id = f.id
         WHERE b.x >= f.first ORDER BY c.monitor_id, c.at`,
        [lo, bucket, ...part.flatMap((id) => [id, unfolded.get(id)!])],
      );
    }
  }
  for (let i = 0; i < ids.length; i += 400) {
    const part = ids.slice(i, i + 400);
    await m.query(
      `INSERT OR REPLACE INTO check_marks (monitor_id, bucket) VALUES ${part.map(() => '(?, ?)').join(', ')}`,
      part.flatMap((id) => [id, bucket]),
    );
  }
}
