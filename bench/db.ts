/**
 * Reading the service's database from the outside: row counts and size. Opened read-only while
 * the service runs (WAL lets a reader in without disturbing the writer); checkpointed only after
 * the service has stopped.
 */
import * as fs from 'node:fs';
import * as sqlite3 from 'sqlite3';

export class Sqlite {
  private constructor(private readonly db: sqlite3.Database) {}

  static open(file: string, mode: 'ro' | 'rw' = 'ro'): Promise<Sqlite> {
    const flags = mode === 'ro' ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(file, flags, (err) => (err ? reject(err) : resolve(new Sqlite(db))));
    });
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => this.db.run(sql, params, (err) => (err ? reject(err) : resolve())));
  }

  get<T>(sql: string, params: unknown[] = []): Promise<T> {
    return new Promise((resolve, reject) =>
      this.db.get(sql, params, (err, row) => (err ? reject(err) : resolve(row as T))),
    );
  }

  all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) =>
      this.db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((err) => (err ? reject(err) : resolve())));
  }
}

export interface DbSize {
  /** Stored check results: rows of `checks` plus rows of `check_log` (results not folded yet). */
  rows: number;
  /**
   * Pages in use × page_size as this reader sees it: the database file size once the WAL is
   * checkpointed, less the free pages SQLite keeps for reuse (the log's pages after a fold).
   */
  logicalBytes: number;
}

/** Stored check rows and the logical database size, in one read transaction. */
export async function measureDb(file: string): Promise<DbSize> {
  const db = await Sqlite.open(file);
  try {
    await db.run('BEGIN');
    const { n } = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks');
    // Databases from before the log (a baseline run of an older commit) have no check_log.
    const { log } = await db.get<{ log: number }>("SELECT COUNT(*) AS log FROM sqlite_master WHERE name = 'check_log'");
    const logged = log ? (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM check_log')).n : 0;
    const { page_count } = await db.get<{ page_count: number }>('PRAGMA page_count');
    const { freelist_count } = await db.get<{ freelist_count: number }>('PRAGMA freelist_count');
    const { page_size } = await db.get<{ page_size: number }>('PRAGMA page_size');
    await db.run('COMMIT');
    return { rows: n + logged, logicalBytes: (page_count - freelist_count) * page_size };
  } finally {
    await db.close();
  }
}

export interface DiskSize {
  rows: number;
  dbBytes: number;
  walBytes: number;
  /** Database + WAL files on disk (the -shm index is shared memory, not data, and is left out). */
  totalBytes: number;
}

/** After the service stopped: checkpoint the WAL into the database, then measure the files. */
export async function checkpointAndMeasure(file: string): Promise<DiskSize> {
  const size = (f: string): number => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  const db = await Sqlite.open(file, 'rw');
  try {
    await db.get('PRAGMA wal_checkpoint(TRUNCATE)');
    const { n } = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks');
    // Measured while still open: closing the last connection deletes the (now empty) WAL file.
    const dbBytes = size(file);
    const walBytes = size(`${file}-wal`);
    return { rows: n, dbBytes, walBytes, totalBytes: dbBytes + walBytes };
  } finally {
    await db.close();
  }
}
