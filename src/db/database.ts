/**
 * The database handle the services use. Writes have one connection, and TypeORM's sqlite runner
 * shares it between callers, so two interleaved transactions would nest into each other. Every
 * write therefore goes through tx(), which runs transactions one after another.
 *
 * Reads that answer the API, fill caches or decide what to send go through read(): a second
 * connection, query-only, that sees committed data only (WAL gives it a snapshot per statement).
 * On the writing connection a read issued while a transaction is open sees that transaction's
 * rows before they are committed: an answer could show a delivery as sent, or a state, that a
 * SIGKILL or a full disk then takes back. The reading connection also runs in parallel with the
 * writer's transactions instead of between their statements.
 *
 * A transaction that fails (a full disk, an I/O error) is rolled back and leaves the shared
 * connection clean for the next one; while writes fail for lack of space or a read-only file,
 * tx() throws StorageUnavailable (answered 503 `unavailable`) and the state is kept for
 * diagnostics. The first write that works again ends the episode.
 */
import { Logger } from '@nestjs/common';
import type * as sqlite3 from 'sqlite3';
import { DataSource, EntityManager } from 'typeorm';
import type { SqliteConnectionOptions } from 'typeorm/driver/sqlite/SqliteConnectionOptions';
import { BUSY_TIMEOUT_MS } from './data-source';

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
  const found = typeof code === 'string' ? code : (/\b(SQLITE_[A-Z_]+)\b/.exec(text)?.[1] ?? null);
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

/** How many of the reader's prepared statements are kept (Database.prepared); ours are a few dozen texts. */
const KEPT_STATEMENTS = 200;

export class Database {
  private tail: Promise<unknown> = Promise.resolve();
  /** The reading connection, opened at the first read (a CLI command may never read). */
  private reader: sqlite3.Database | null = null;
  /** The reader's prepared statements by SQL text, least recently used first (prepared()). */
  private readonly statements = new Map<string, Promise<sqlite3.Statement>>();
  private closed = false;
  /** Callbacks for after the running transaction commits (transactions run one at a time). */
  private commitHooks: (() => void)[] = [];
  private readonly log = new Logger('database');
  private readonly healthState: StorageHealth = {
    writable: true,
    failingSince: null,
    lastError: null,
    failedTransactions: 0,
  };

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

  /**
   * Inside a tx() callback: runs fn once the transaction has committed (not at all after a
   * rollback). For caches filled by read(): one filled while the transaction was open holds what
   * was committed before it, and must be dropped again when the change becomes visible.
   */
  afterCommit(fn: () => void): void {
    this.commitHooks.push(fn);
  }

  private async runTx<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    this.commitHooks = [];
    try {
      const out = await this.ds.transaction(fn);
      if (!this.healthState.writable) this.recovered();
      const hooks = this.commitHooks;
      this.commitHooks = [];
      for (const hook of hooks) hook();
      return out;
    } catch (err) {
      this.commitHooks = [];
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
      this.log.error(
        `the database cannot be written (${describeStorageCode(code)}): API changes answer 503 and check results wait in memory until it can (${h.lastError})`,
      );
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

  /**
   * One statement on the writing connection, outside tx(): pragmas and upkeep (VACUUM, a
   * checkpoint), and tests. A SELECT here would see an open transaction's rows: use read().
   */
  query<T = unknown>(sql: string, params: unknown[] = []): Promise<T> {
    return this.ds.query(sql, params) as Promise<T>;
  }

  /** One SELECT on the reading connection: its rows, as committed when it ran. */
  async read<T = unknown>(sql: string, params: unknown[] = []): Promise<T> {
    return (await this.startRead<T>(sql, params)).rows;
  }

  /**
   * read(), for rows wanted a while later: resolves as soon as SQLite runs the statement, and
   * `rows` gives its answer. node-sqlite3 passes through the main thread between preparing a
   * statement and running it, so a read asked for just before the main thread gets busy (the
   * start, while Nest wires the service) would otherwise only run once it is free again.
   */
  async startRead<T = unknown>(sql: string, params: unknown[] = []): Promise<{ rows: Promise<T> }> {
    if (this.closed) throw new Error('read(): the database is closed');
    const statement = await this.prepared(sql);
    const rows = new Promise<T>((resolve, reject) => {
      statement.all(params, (err: Error | null, out: unknown) => (err ? reject(err) : resolve(out as T)));
    });
    return { rows };
  }

  /**
   * The reader's statement for this SQL, prepared once and kept (up to KEPT_STATEMENTS, the least
   * recently used dropped): each step of node-sqlite3 is a trip to its worker thread and back
   * through the main thread, so a kept statement is one trip a read instead of two, which a busy
   * main thread (a list page under load) made the larger part of a read's wait. A statement is
   * reset when its rows are read, so it holds no snapshot between reads; node-sqlite3 runs the
   * reads of one statement one after the other, and finalizes it after those already asked for.
   */
  private prepared(sql: string): Promise<sqlite3.Statement> {
    const kept = this.statements.get(sql);
    if (kept) {
      this.statements.delete(sql);
      this.statements.set(sql, kept);
      return kept;
    }
    const reader = (this.reader ??= this.openReader());
    const statement = new Promise<sqlite3.Statement>((resolve, reject) => {
      const s = reader.prepare(sql, (err: Error | null) => (err ? reject(err) : resolve(s)));
    });
    this.statements.set(sql, statement);
    // A statement that did not prepare (an error in it, a schema it names not there yet) is not kept.
    statement.catch(() => {
      if (this.statements.get(sql) === statement) this.statements.delete(sql);
    });
    if (this.statements.size > KEPT_STATEMENTS) {
      const [oldest, dropped] = this.statements.entries().next().value as [string, Promise<sqlite3.Statement>];
      this.statements.delete(oldest);
      dropped.then(
        (s) => s.finalize(),
        () => undefined,
      );
    }
    return statement;
  }

  /**
   * The same file through the same sqlite3 module as TypeORM's connection (the single binary
   * supplies its own). Opened read-write but query_only: a read-only open would need the WAL's
   * shared-memory file to be writable by other means. node-sqlite3 holds statements until the
   * file is open, and runs exec() alone, so the pragmas come before the first read.
   */
  private openReader(): sqlite3.Database {
    const options = this.ds.options as SqliteConnectionOptions;
    const driver = options.driver as typeof sqlite3 | undefined;
    if (!driver) throw new Error('read(): the DataSource was not opened by openDatabase (no sqlite3 driver given)');
    const failed = (err: Error | null) => {
      if (err) this.log.error(`the database could not be opened for reading: ${err.message}`);
    };
    const reader = new driver.Database(options.database, driver.OPEN_READWRITE, failed);
    reader.configure('busyTimeout', BUSY_TIMEOUT_MS);
    reader.exec('PRAGMA query_only = ON; PRAGMA temp_store = MEMORY', failed);
    return reader;
  }

  /** Writes a consistent copy of the live database to file (works while the service runs). */
  async backupTo(file: string): Promise<void> {
    await this.ds.query('VACUUM INTO ?', [file]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
    const reader = this.reader;
    this.reader = null;
    // SQLite will not close a connection with statements still prepared.
    const statements = [...this.statements.values()];
    this.statements.clear();
    for (const s of await Promise.allSettled(statements)) {
      if (s.status === 'fulfilled') await new Promise<void>((resolve) => s.value.finalize(() => resolve()));
    }
    if (reader) await new Promise<void>((resolve) => reader.close(() => resolve()));
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}
