/**
 * One `farsight serve` per data dir. Two would both run every check, both write results and both
 * send every alert.
 *
 * The lock is an exclusive SQLite write lock on a small file of its own, `<data>/farsight.lock`,
 * held for the life of the process. SQLite's locks are fcntl() locks, which the kernel drops when
 * the process ends however it ends (kill -9, a crash, a power cut), so the lock can never go
 * stale, and no PID is ever trusted to mean "still running" (a PID is reused after a reboot).
 * The holder's PID is written beside it (`farsight.lock.pid`) only to name it in the message.
 * The database itself is not locked this way: the CLI (`backup`, `setup-link`) shares it while the
 * service runs.
 *
 * fcntl() locks belong to the process and are all released when it closes *any* descriptor of the
 * file, so nothing else in this process may open farsight.lock while the lock is held (SQLite's
 * own bookkeeping takes care of its connections; fs.* calls here happen before or after).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { StartupError } from '../config/startup-failures';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from './data-dir';

export const LOCK_FILE = 'farsight.lock';
export const LOCK_PID_FILE = 'farsight.lock.pid';

export class DataDirLock {
  private constructor(
    private readonly conn: sqlite3.Database,
    private readonly pidFile: string,
  ) {}

  /** Takes the lock or throws a StartupError naming the data dir and the holder's PID. */
  static async acquire(dataDir: string): Promise<DataDirLock> {
    const file = path.join(dataDir, LOCK_FILE);
    const pidFile = path.join(dataDir, LOCK_PID_FILE);
    ensurePrivateFile(file);
    const conn = await openConnection(file);
    try {
      // journal_mode OFF: nothing is ever written, so no journal file appears beside the lock.
      await exec(conn, 'PRAGMA journal_mode = OFF; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    } catch (err) {
      await close(conn);
      if ((err as { code?: string }).code === 'SQLITE_BUSY') {
        throw new StartupError(
          `FARSIGHT_DATA_DIR: ${dataDir} is in use by another farsight serve (${holder(pidFile)}); ` +
            'stop that one first, or give this one its own FARSIGHT_DATA_DIR',
        );
      }
      throw new StartupError(`FARSIGHT_DATA_DIR: cannot lock ${file}: ${(err as Error).message}`);
    }
    fs.writeFileSync(pidFile, `${process.pid}\n`, { mode: PRIVATE_FILE_MODE });
    fs.chmodSync(pidFile, PRIVATE_FILE_MODE);
    return new DataDirLock(conn, pidFile);
  }

  async release(): Promise<void> {
    try {
      if (fs.readFileSync(this.pidFile, 'utf8').trim() === String(process.pid)) fs.unlinkSync(this.pidFile);
    } catch {
      // already gone: nothing to tidy
    }
    await close(this.conn);
  }
}

function holder(pidFile: string): string {
  try {
    const pid = fs.readFileSync(pidFile, 'utf8').trim();
    if (/^\d+$/.test(pid)) return `pid ${pid}`;
  } catch {
    // The holder may not have written it yet.
  }
  return 'pid unknown';
}

function openConnection(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const conn = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(conn)));
  }).catch((err: Error) => {
    throw new StartupError(`FARSIGHT_DATA_DIR: cannot open ${file}: ${err.message}`);
  }) as Promise<sqlite3.Database>;
}

function exec(conn: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => conn.exec(sql, (err) => (err ? reject(err) : resolve())));
}

function close(conn: sqlite3.Database): Promise<void> {
  return new Promise((resolve) => conn.close(() => resolve()));
}
