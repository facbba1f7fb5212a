/**
 * What `farsight import-kuma` uploads: a copy of the user's Kuma file, never the file itself. A
 * database is copied (with its -wal, so the newest rows are in), and the copy is emptied of Kuma's
 * check history (heartbeats and statistics: most of a kuma.db's size, and nothing the import
 * reads) and compacted, so a database of gigabytes uploads as a few hundred KB. A JSON backup is
 * sent as it is. The user's file is only read (kuma-file.ts snapshotKumaDb).
 */
import * as fs from 'node:fs';
import * as sqlite3 from 'sqlite3';
import { ApiError } from '../../common/http/api-error';
import { snapshotKumaDb } from './kuma-file';

/** Kuma's history tables (1.23: heartbeat; 2.x adds the stat_* aggregates): emptied in the copy. */
const HISTORY = /^(heartbeat|stat_minutely|stat_hourly|stat_daily|monitor_tls_info|notification_sent_history)$/;

export interface KumaCopy {
  file: string;
  remove(): void;
}

/** The file to upload; a file it cannot read or a locked database is an ApiError (422 on `file`) saying why. */
export async function copyForUpload(file: string): Promise<KumaCopy> {
  let head: Buffer;
  try {
    head = Buffer.alloc(16);
    const fd = fs.openSync(file, 'r');
    head = head.subarray(0, fs.readSync(fd, head, 0, 16, 0));
    fs.closeSync(fd);
  } catch (err) {
    throw ApiError.invalid([
      { field: 'file', message: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` },
    ]);
  }
  // Not a database: sent as it is, and the service says what it is not.
  if (head.toString('latin1') !== 'SQLite format 3\0') return { file, remove: () => undefined };
  const snap = await snapshotKumaDb(file);
  try {
    const conn = await open(snap.file);
    try {
      const tables = (await all(conn, "SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) =>
        String(r.name),
      );
      for (const t of tables.filter((n) => HISTORY.test(n))) await all(conn, `DELETE FROM "${t}"`);
      // One self-contained file: the WAL folded in, the freed pages dropped.
      await all(conn, 'PRAGMA journal_mode = DELETE');
      await all(conn, 'VACUUM');
    } finally {
      await new Promise<void>((resolve) => conn.close(() => resolve()));
    }
    return snap;
  } catch (err) {
    snap.remove();
    throw err instanceof ApiError
      ? err
      : ApiError.invalid([
          { field: 'file', message: `cannot copy the database: ${err instanceof Error ? err.message : String(err)}` },
        ]);
  }
}

function open(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const conn = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(conn)));
  });
}

function all(conn: sqlite3.Database, sql: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) =>
    conn.all(sql, (err, rows) => (err ? reject(err) : resolve(rows as Record<string, unknown>[]))),
  );
}
