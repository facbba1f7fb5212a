/**
 * Opens the SQLite database in the data dir: WAL, foreign keys, a busy timeout and transactions
 * that take the write lock when they begin (so the CLI and the service can share the file), and
 * the migrations run before anything else touches it.
 * A data dir or database that cannot be used stops with a StartupError that names the path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { DataSource, DataSourceOptions } from 'typeorm';
import { damagedDatabase, databaseFailure, StartupError } from '../config/startup-failures';
import { prepareDataDir, ensurePrivateFile, restrictExisting } from './data-dir';
import { databaseHeaderProblem, HEADER_BYTES } from './database-header';
import { MIGRATIONS } from './migrations';

export const DB_FILE = 'farsight.db';

/**
 * How long a statement waits for a lock another connection holds (the CLI beside the service, the
 * service's reading connection beside its writing one) before SQLite answers SQLITE_BUSY.
 */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * How the connection writes (docs/storage.md, "What a crash, a power cut and a SIGTERM can lose"):
 * - synchronous FULL: in WAL mode every commit is synced to the disk before it returns, so a
 *   power cut cannot take back a commit that was acknowledged or announced (with NORMAL it could
 *   take back every commit since the last checkpoint). The writer commits at most every second
 *   (a transition) or every ten seconds (plain results), so this is a few syncs a minute.
 * - temp_store MEMORY: the fold's sort of the logged results stays in memory instead of a
 *   temporary file (bytes written for nothing).
 */
export const DURABILITY_PRAGMAS = ['synchronous = FULL', 'temp_store = MEMORY'] as const;

const quietSqlite3 = Object.create(sqlite3, { verbose: { value: () => sqlite3 } }) as typeof sqlite3;

export function databasePath(dataDir: string): string {
  return path.join(dataDir, DB_FILE);
}

/**
 * `entities`: the TypeORM entities the connection maps, the composition's list (src/entities.ts)
 * for the service; none for a database read and written in plain SQL only (db/ names no feature
 * module, so it cannot supply them itself).
 */
export async function openDatabase(dataDir: string, entities: DataSourceOptions['entities'] = []): Promise<DataSource> {
  prepareDataDir(dataDir);
  const file = databasePath(dataDir);
  // Created (or tightened) to 0600 before SQLite opens it: SQLite gives -wal and -shm the same mode.
  ensurePrivateFile(file);
  restrictExisting([`${file}-wal`, `${file}-shm`]);
  checkHeader(file);
  const ds = new DataSource({
    type: 'sqlite',
    database: databasePath(dataDir),
    // Passed explicitly (not found by name) so the single binary can supply its bundled addon.
    // TypeORM calls driver.verbose(), which wraps every query in stack capture and argument
    // formatting (~10 % of the engine's CPU); this driver's verbose() leaves sqlite3 as it is.
    driver: quietSqlite3,
    entities,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // TypeORM's enableWAL would send `PRAGMA journal_mode = WAL` before the busy timeout, so that
    // first statement (it reads the file) would wait only node-sqlite3's default 1 s for a lock held
    // elsewhere. Without it the busy timeout is the first statement, and WAL follows below.
    busyTimeout: BUSY_TIMEOUT_MS,
  });
  try {
    await ds.initialize();
    beginWritesImmediately(ds);
    await ds.query('PRAGMA journal_mode = WAL');
    for (const pragma of DURABILITY_PRAGMAS) await ds.query(`PRAGMA ${pragma}`);
    await ds.runMigrations();
  } catch (err) {
    if (ds.isInitialized) await ds.destroy().catch(() => undefined);
    const line = databaseFailure(err, file);
    throw line ? new StartupError(line) : err;
  }
  return ds;
}

/** The statement TypeORM's sqlite query runner begins every transaction with (a deferred BEGIN). */
const TYPEORM_BEGIN = 'BEGIN TRANSACTION';

/**
 * Every transaction on this connection takes the write lock when it begins (BEGIN IMMEDIATE), and
 * waits for it up to the busy timeout. With TypeORM's deferred BEGIN, a transaction's first SELECT
 * only takes a snapshot; its first write must then upgrade it, and if another process (the CLI
 * beside the service, or the service beside the CLI) committed in between, SQLite refuses at once
 * with SQLITE_BUSY: the busy timeout does not cover a connection that already holds a snapshot.
 * `farsight setup-link` failed that way beside a service that was still writing its first rows.
 * Within one process nothing changes: its transactions already run one after another (Database.tx).
 *
 * TypeORM shares one query runner per sqlite connection (transactions, migrations, ds.query), so
 * replacing its BEGIN there covers all of them; every other statement passes through unchanged.
 */
function beginWritesImmediately(ds: DataSource): void {
  const runner = ds.createQueryRunner();
  const query = runner.query.bind(runner) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
  const immediate = (sql: string, ...rest: unknown[]) =>
    query(sql === TYPEORM_BEGIN ? 'BEGIN IMMEDIATE TRANSACTION' : sql, ...rest);
  runner.query = immediate as typeof runner.query;
}

function checkHeader(file: string): void {
  const fd = fs.openSync(file, 'r');
  let problem: string | null;
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const read = fs.readSync(fd, header, 0, HEADER_BYTES, 0);
    problem = databaseHeaderProblem(header.subarray(0, read), fs.fstatSync(fd).size, fileSize(`${file}-wal`));
  } finally {
    fs.closeSync(fd);
  }
  if (problem) throw new StartupError(damagedDatabase(file, problem));
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
