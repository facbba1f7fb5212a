/**
 * Opens the SQLite database in the data dir: WAL, foreign keys, a busy timeout (so the CLI and
 * the service can share the file), and the migrations run before anything else touches it.
 * A data dir or database that cannot be used stops with a StartupError that names the path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { DataSource } from 'typeorm';
import { damagedDatabase, databaseFailure, StartupError } from '../config/startup-failures';
import { prepareDataDir, ensurePrivateFile, restrictExisting } from './data-dir';
import { databaseHeaderProblem, HEADER_BYTES } from './database-header';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export const DB_FILE = 'farsight.db';

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

export async function openDatabase(dataDir: string): Promise<DataSource> {
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
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    enableWAL: true,
    busyTimeout: 5000,
  });
  try {
    await ds.initialize();
    for (const pragma of DURABILITY_PRAGMAS) await ds.query(`PRAGMA ${pragma}`);
    await ds.runMigrations();
  } catch (err) {
    if (ds.isInitialized) await ds.destroy().catch(() => undefined);
    const line = databaseFailure(err, file);
    throw line ? new StartupError(line) : err;
  }
  return ds;
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
