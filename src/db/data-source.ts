/**
 * Opens the SQLite database in the data dir: WAL, foreign keys, a busy timeout (so the CLI and
 * the service can share the file), and the migrations run before anything else touches it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export const DB_FILE = 'farsight.db';

const quietSqlite3 = Object.create(sqlite3, { verbose: { value: () => sqlite3 } }) as typeof sqlite3;

export function databasePath(dataDir: string): string {
  return path.join(dataDir, DB_FILE);
}

export async function openDatabase(dataDir: string): Promise<DataSource> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o750 });
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
  await ds.initialize();
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commit.
  await ds.query('PRAGMA synchronous = NORMAL');
  await ds.runMigrations();
  return ds;
}
