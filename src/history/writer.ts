/**
 * The only writer of check rows. Results are buffered and committed in one transaction every
 * second or every 500 rows, whichever comes first; readers merge the unflushed buffer so a result
 * is visible the moment it exists. Shutdown flushes. Two results of one monitor in the same
 * millisecond are kept apart by moving the later one a millisecond on (the key is monitor + time).
 */
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { MinuteCounter } from '../common/minute-counter';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { CHECK_COLUMNS, CheckRow, StoredCheck, toRow } from './check-row';

export const FLUSH_EVERY_MS = 1000;
export const FLUSH_AT_ROWS = 500;
/**
 * Results kept in memory while the database cannot be written (a full disk): about 15 MB, 83
 * minutes of 1,000 monitors at 60 s. Past it the oldest results are dropped first (they show as
 * gaps, "no data", in the history); the newest ones and every monitor's live state are kept.
 */
export const MAX_PENDING_ROWS = 100_000;
/** Retries after a failed write: 1 s, 2 s, 4 s ... at most 30 s apart. */
export const RETRY_MAX_MS = 30_000;
const ROWS_PER_STATEMENT = 500;

/** Work that must commit in the same transaction as the rows (rollups, state rows, timeline lines). */
export interface WriteHook {
  /**
   * Called at the start of the transaction, synchronously, at the same instant the rows to write
   * are taken: the hook takes what it will write now, so what it writes was caused by those rows
   * (a state or an incident is never written without the check that made it).
   */
  snapshot?(): void;
  onRows(m: EntityManager, rows: CheckRow[]): Promise<void>;
  /** Called once the transaction committed (in-memory bookkeeping and announcements that must not run ahead of the disk). */
  afterCommit?(): void;
  /** True while the hook has something to write even without check rows (a pause, a config change). */
  hasWork?(): boolean;
}

export interface WriterStats {
  buffered: number;
  /** Results dropped because MAX_PENDING_ROWS were already waiting (a long storage outage). */
  dropped: number;
  /** Failed writes in a row; 0 while writing works. */
  failingInRow: number;
  written: number;
  flushes: number;
  lastFlushMs: number | null;
  /** When the last write committed (epoch ms), null before the first. */
  lastFlushAt: number | null;
  failures: number;
  /** The last failed write's error (kept after writes work again) and when it happened (epoch ms). */
  lastError: string | null;
  lastErrorAt: number | null;
}

@Injectable()
export class CheckWriter implements OnApplicationShutdown {
  private buffer: CheckRow[] = [];
  private readonly lastAt = new Map<number, number>();
  /**
   * Monitors deleted since start (ids are never reused). A flush that took its rows before the
   * deletion may run after it: its rows of these monitors are dropped when it writes.
   */
  private readonly deleted = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly hooks: WriteHook[] = [];
  private readonly log = new Logger('writer');
  private readonly rowRate = new MinuteCounter();
  readonly stats: WriterStats = { buffered: 0, dropped: 0, failingInRow: 0, written: 0, flushes: 0, lastFlushMs: null, lastFlushAt: null, failures: 0, lastError: null, lastErrorAt: null };
  private lastFailureLog = 0;

  constructor(
    private readonly db: Database,
    bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    bus.on('monitor.deleted', ({ id }) => {
      this.buffer = this.buffer.filter((r) => r.monitor_id !== id);
      this.lastAt.delete(id);
      this.deleted.add(id);
    });
  }

  addHook(hook: WriteHook): void {
    this.hooks.push(hook);
  }

  /** Queues a result; returns the stored time (moved on by a millisecond or two on a clash). */
  add(check: StoredCheck): number {
    const row = toRow(check);
    const last = this.lastAt.get(row.monitor_id);
    if (last !== undefined && row.at <= last) row.at = last + 1;
    this.lastAt.set(row.monitor_id, row.at);
    this.buffer.push(row);
    this.rowRate.add(this.clock.now());
    if (this.buffer.length > MAX_PENDING_ROWS) this.dropOldest();
    this.stats.buffered = this.buffer.length;
    // While writes fail, only the back-off timer retries: not one failing transaction per result.
    if (this.buffer.length >= FLUSH_AT_ROWS && this.stats.failingInRow === 0) void this.flush();
    else this.soon();
    return row.at;
  }

  /** Asks for a flush within FLUSH_EVERY_MS: a hook has work that came without a check row. */
  soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.retryDelayMs());
    this.timer.unref();
  }

  private retryDelayMs(): number {
    const n = this.stats.failingInRow;
    return n === 0 ? FLUSH_EVERY_MS : Math.min(RETRY_MAX_MS, FLUSH_EVERY_MS * 2 ** (n - 1));
  }

  private dropOldest(): void {
    // A chunk at a time, so a long outage does not shift the whole array on every result.
    const n = this.buffer.length - MAX_PENDING_ROWS + 1000;
    this.buffer.splice(0, n);
    if (this.stats.dropped === 0) this.log.error(`${MAX_PENDING_ROWS} check results are waiting to be written: dropping the oldest from now on`);
    this.stats.dropped += n;
  }

  /** Rows added in the last 60 seconds (how densely the checks table fills). */
  rowsPerMinute(): number {
    return this.rowRate.count(this.clock.now());
  }

  /** Results not yet committed, oldest first (readers merge them). */
  pending(monitorId?: number): readonly CheckRow[] {
    return monitorId === undefined ? this.buffer : this.buffer.filter((r) => r.monitor_id === monitorId);
  }

  /** Commits everything buffered so far; resolves when it is on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0 && !this.hooks.some((h) => h.hasWork?.())) return;
    this.flushing = this.write().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(): Promise<void> {
    const started = performance.now();
    let taken: CheckRow[] = [];
    let rows: CheckRow[] = [];
    try {
      await this.db.tx(async (m) => {
        // Taken once the transaction has begun (it may have waited for others), together with the
        // hooks' snapshots, before any await: rows, states and incidents of one instant.
        taken = this.buffer.slice();
        for (const hook of this.hooks) hook.snapshot?.();
        // Decided inside the transaction: a deletion that committed before it is known by now.
        rows = this.deleted.size ? taken.filter((r) => !this.deleted.has(r.monitor_id)) : taken;
        for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
          const part = rows.slice(i, i + ROWS_PER_STATEMENT);
          const values = part.map(() => `(${CHECK_COLUMNS.map(() => '?').join(',')})`).join(',');
          await m.query(
            `INSERT OR REPLACE INTO checks (${CHECK_COLUMNS.join(',')}) VALUES ${values}`,
            part.flatMap((r) => CHECK_COLUMNS.map((c) => r[c])),
          );
        }
        for (const hook of this.hooks) await hook.onRows(m, rows);
      });
      for (const hook of this.hooks) hook.afterCommit?.();
      if (this.stats.failingInRow > 0) {
        this.log.log(`check results are written again after ${this.stats.failingInRow} failed attempts (${rows.length} results in this write, ${this.stats.dropped} dropped in all)`);
        this.stats.failingInRow = 0;
      }
      // Only now leave the buffer: readers saw the rows in the buffer until they were committed.
      const written = new Set(taken);
      this.buffer = this.buffer.filter((r) => !written.has(r));
      this.stats.written += rows.length;
      this.stats.flushes += 1;
      this.stats.lastFlushMs = Math.round(performance.now() - started);
      this.stats.lastFlushAt = this.clock.now();
    } catch (err) {
      this.stats.failures += 1;
      this.stats.lastError = err instanceof Error ? err.message : String(err);
      this.stats.lastErrorAt = this.clock.now();
      this.stats.failingInRow += 1;
      const now = Date.now();
      // One line when it starts, then one a minute: a full disk must not also fill the journal.
      if (this.stats.failingInRow === 1 || now - this.lastFailureLog >= 60_000) {
        this.lastFailureLog = now;
        this.log.error(`could not write ${rows.length} check results (attempt ${this.stats.failingInRow}), retrying in ${Math.round(this.retryDelayMs() / 1000)} s: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.soon();
    } finally {
      this.stats.buffered = this.buffer.length;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Restores the last stored time per monitor after a restart (so clash handling stays right). */
  seedLastTimes(latest: readonly { monitor_id: number; at: number }[]): void {
    for (const r of latest) if ((this.lastAt.get(r.monitor_id) ?? -1) < r.at) this.lastAt.set(r.monitor_id, r.at);
  }
}
