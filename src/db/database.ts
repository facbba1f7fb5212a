/**
 * The database handle the services use. SQLite has one connection here, and TypeORM's sqlite
 * runner shares it between callers, so two interleaved transactions would nest into each other.
 * Every write therefore goes through tx(), which runs transactions one after another.
 */
import { DataSource, EntityManager } from 'typeorm';

export class Database {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly ds: DataSource) {}

  get manager(): EntityManager {
    return this.ds.manager;
  }

  /** Runs fn in a transaction, after every transaction queued before it. */
  tx<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    const run = this.tail.then(() => this.ds.transaction(fn));
    this.tail = run.catch(() => undefined);
    return run;
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
