/**
 * What `farsight restore` writes into the checked copy before it replaces the database
 * (docs/backup.md "After a restore"), so that the first start tells a restore from a crash:
 *  - the copy's last-alive mark is removed: it is the mark of the service the backup was taken
 *    of (a running one leaves clean = 0), and read as this data dir's mark it would report the
 *    restore as "stopped without warning";
 *  - one `restored` timeline line carries the backup's mark and the replaced database's own mark
 *    (engine/last-alive/offline-period.ts `RestoreRecord`), from which the start reports the real offline
 *    period, stopped as it really stopped.
 * Written in the copy, so it is replaced in one rename with the rest: a crash leaves the old
 * database or the restored one with its line, never a restored one without it.
 */
import * as sqlite3 from 'sqlite3';
import { AliveMark, RestoreRecord, restoredText } from './engine/last-alive/offline-period';

/** The last-alive mark of a database file; null when it has none (or cannot be read: a damaged database tells no stop). */
export async function aliveMarkOf(file: string): Promise<AliveMark | null> {
  try {
    const conn = await open(file);
    try {
      const rows = await all<{ at: number; clean: number }>(conn, 'SELECT at, clean FROM last_alive WHERE id = 1');
      return rows[0] ? { at: rows[0].at, clean: rows[0].clean === 1 } : null;
    } finally {
      await close(conn);
    }
  } catch {
    return null;
  }
}

/** Marks `copy` as restored at `now` over a database whose mark was `replaced` (null: none was there). */
export async function recordRestore(copy: string, replaced: AliveMark | null, now: number): Promise<RestoreRecord> {
  const conn = await open(copy);
  try {
    const hasMark =
      (await all(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'last_alive'")).length > 0;
    const backup = hasMark ? (await all<{ at: number }>(conn, 'SELECT at FROM last_alive WHERE id = 1'))[0] : undefined;
    const record: RestoreRecord = { backup_at: backup?.at ?? null, replaced };
    await run(conn, 'BEGIN');
    if (hasMark) await run(conn, 'DELETE FROM last_alive');
    await run(conn, "INSERT INTO events (at, kind, actor, text, data) VALUES (?, 'restored', 'system', ?, ?)", [
      now,
      restoredText(record),
      JSON.stringify(record),
    ]);
    await run(conn, 'COMMIT');
    // The copy is renamed without its -wal: fold the write into the file itself.
    await all(conn, 'PRAGMA wal_checkpoint(TRUNCATE)');
    return record;
  } finally {
    await close(conn);
  }
}

function open(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const conn = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(conn)));
  });
}

function close(conn: sqlite3.Database): Promise<void> {
  return new Promise((resolve) => conn.close(() => resolve()));
}

function all<T>(conn: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) =>
    conn.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
  );
}

function run(conn: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => conn.run(sql, params, (err) => (err ? reject(err) : resolve())));
}
