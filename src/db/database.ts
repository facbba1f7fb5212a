/**
 * The database handle the services use. SQLite has one connection here, and TypeORM's sqlite
 * runner shares it between callers, so two interleaved transactions would nest into each other.
 * Every write therefore goes through tx(), which runs transactions one after another.
 *
 * A transaction that fails (a full disk, an I/O error) is rolled back and leaves the shared
 * connection clean for the next one; while writes fail for lack of space or a read-only file,
 * tx() throws StorageUnavailable (answered 503 `unavailable`) and the state is kept for
 * diagnostics. The first write that works again ends the episode.
 */
import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** The database cannot be written (disk full, I/O error, read-only file): nothing was changed. */
export class StorageUnavailable extends Error {
  constructor(readonly code: string) {
    super(`the database cannot be written (${describeStorageCode(code)}); nothing was changed, try again later`);
    this.name = 'StorageUnavailable';
  }
}

/** SQLite result codes that mean "the storage under us fails", not "this statement is wrong". */
export function storageFailureCode(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  const text = err instanceof Error ? err.message : '';
  const found = typeof code === 'string' ? code : /\b(SQLITE_[A-Z_]+)\b/.exec(text)?.[1] ?? null;
  if (!found) return null;
  return /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)/.test(found) ? found : null;
}

function describeStorageCode(code: string): string {
  if (code.startsWith('SQLITE_FULL')) return 'the disk is full';
  if (code.startsWith('SQLITE_READONLY')) return 'the database file is read-only';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'the database file cannot be opened';
  return 'a disk input/output error';
}

export interface StorageHealth {
  writable: boolean;
  /** Epoch ms when writes began to fail; null while writable. */
  failingSince: number | null;
  lastError: string | null;
  failedTransactions: number;
}

/** TypeORM's one sqlite query runner: its bookkeeping must be reset when SQLite ended the transaction itself. */
interface RunnerState {
  isTransactionActive: boolean;
  transactionDepth: number;
}

export class Database {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly log = new Logger('database');
  private readonly healthState: StorageHealth = { writable: true, failingSince: null, lastError: null, failedTransactions: 0 };

  constructor(readonly ds: DataSource) {}

  get manager(): EntityManager {
    return this.ds.manager;
  }

  health(): Readonly<StorageHealth> {
    return { ...this.healthState };
  }

  /** Runs fn in a transaction, after every transaction queued before it. */
  tx<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    const run = this.tail.then(() => this.runTx(fn));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async runTx<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      const out = await this.ds.transaction(fn);
      if (!this.healthState.writable) this.recovered();
      return out;
    } catch (err) {
      await this.cleanUp();
      const code = storageFailureCode(err);
      if (!code) throw err;
      this.failed(code, err);
      throw new StorageUnavailable(code);
    }
  }

  /**
   * After SQLITE_FULL or an I/O error SQLite may or may not have rolled back by itself (its docs:
   * "applications should respond by explicitly issuing a ROLLBACK"), and when COMMIT itself fails
   * TypeORM keeps believing a transaction is open, which would turn every later transaction into
   * a savepoint of a transaction that never commits: acknowledged writes lost at the next start.
   */
  private async cleanUp(): Promise<void> {
    await this.ds.query('ROLLBACK').catch(() => undefined);
    const runner = this.ds.createQueryRunner() as unknown as RunnerState;
    runner.isTransactionActive = false;
    runner.transactionDepth = 0;
  }

  private failed(code: string, err: unknown): void {
    const h = this.healthState;
    h.failedTransactions += 1;
    h.lastError = `${code}: ${err instanceof Error ? err.message : String(err)}`;
    if (h.writable) {
      h.writable = false;
      h.failingSince = Date.now();
      this.log.error(`the database cannot be written (${describeStorageCode(code)}): API changes answer 503 and check results wait in memory until it can (${h.lastError})`);
    }
  }

  private recovered(): void {
    const h = this.healthState;
    const seconds = h.failingSince === null ? 0 : Math.round((Date.now() - h.failingSince) / 1000);
    this.log.log(`the database can be written again after ${seconds} s (${h.failedTransactions} failed transactions)`);
    h.writable = true;
    h.failingSince = null;
    h.lastError = null;
  }

  query<T = unknown>(sql: string, params: unknown[] = []): Promise<T> {
    return this.ds.query(sql, params) as Promise<T>;
  }

  /** Writes a consistent copy of the live database to file (works while the service runs). */
  async backupTo(file: string): Promise<void> {
    await this.ds.query('VACUUM INTO ?', [file]);
  }

  async close(): Promise<void> {
    await this.tail;
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}
