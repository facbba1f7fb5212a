/**
 * The only writer of check rows, built to write few bytes (docs/storage.md, docs/decisions/0001-check-log.md).
 *
 * A **commit** (one transaction) appends the waiting results to `check_log` as one bucket (the
 * commit's number first in the key, so the rows land together at the end of the table: two or
 * three pages whatever the monitors) together with whatever the hooks must make durable (state
 * changes, timeline lines, incidents, outbox rows). Plain results wait at most COMMIT_EVERY_MS for
 * it; work that must reach the disk before it is announced asks for one within FLUSH_EVERY_MS (soon()).
 *
 * In the same commit a few monitors **fold**: their logged results move into `checks` (keyed by
 * monitor) in one sorted pass, their mark in `check_marks` moves on, and the hooks write what they
 * kept in memory for them (rollup contributions, state rows whose only change is the time of the
 * last check). Monitors take turns so that each folds about once every FOLD_EVERY_MS: an hour of
 * results fills most of a page of `checks`, where a write per result would rewrite that page every
 * time. Buckets whose rows have all moved are dropped. flush() folds every monitor (shutdown).
 *
 * Readers see every result the moment it exists: waiting ones from memory (pending()), logged
 * ones from the log (unfoldedOf(), newestUnfolded(), unfoldedDown(): unfolded-reads.ts, the read
 * side). A start reads the log back (restore(): log-restore.ts). Two results of one monitor in
 * the same millisecond are kept apart by moving the later one a millisecond on.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { MinuteCounter } from '../common/minute-counter';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { FoldMemory, foldsDue, Plan, planWrite } from './fold-plan';
import { foldIn, insertRows } from './log-writes';
import { checkRow, CheckRow, StoredCheck, toRow } from './check-row';
import type { CheckCursor } from './check-cursor';
import type { CheckResult } from '../probes/check-result';
import { BucketSpan, LogView, logSpan, newestUnfolded, unfoldedDown, unfoldedOf } from './unfolded-reads';
import type { WriteHook, WriteKind } from './write-hook';
import { LogMemory, readLogBack } from './log-restore';

/** N of docs/storage.md: plain results wait at most this long in memory before they are committed. */
export const COMMIT_EVERY_MS = 10_000;
/** Work that must be durable before it is announced (soon()) waits at most this long. */
export const FLUSH_EVERY_MS = 1000;
/** A commit as soon as this many results wait (a burst of heartbeat pings). */
export const FLUSH_AT_ROWS = 2000;
/** Each monitor's logged results move into `checks` about this often. */
export const FOLD_EVERY_MS = 60 * 60_000;
/** While results wait in the log, a write runs at least this often, so that folds keep their pace when no result comes. */
export const FOLD_TICK_MS = 60_000;
/**
 * Results kept in memory while the database cannot be written (a full disk): about 15 MB, 83
 * minutes of 1,000 monitors at 60 s. Past it the oldest results are dropped first (they show as
 * gaps, "no data", in the history); the newest ones and every monitor's live state are kept.
 */
export const MAX_PENDING_ROWS = 100_000;
/** Retries after a failed write: 1 s, 2 s, 4 s ... at most 30 s apart. */
export const RETRY_MAX_MS = 30_000;

export interface WriterStats {
  /** Results not yet durable (waiting for the next commit). */
  buffered: number;
  /** Results dropped because MAX_PENDING_ROWS were already waiting (a long storage outage). */
  dropped: number;
  /** Failed writes in a row; 0 while writing works. */
  failingInRow: number;
  written: number;
  /** Successful writes. */
  flushes: number;
  lastFlushMs: number | null;
  /** When the last write committed (epoch ms), null before the first. */
  lastFlushAt: number | null;
  failures: number;
  /** The last failed write's error (kept after writes work again) and when it happened (epoch ms). */
  lastError: string | null;
  lastErrorAt: number | null;
  /** Monitors with results in the log that have not moved into `checks` yet. */
  unfoldedMonitors: number;
  /** Monitor folds done. */
  folds: number;
}

@Injectable()
export class CheckWriter implements OnApplicationShutdown {
  /** Results not yet committed, in the order they came. */
  private buffer: CheckRow[] = [];
  /** Buffered results that go straight into `checks` too: they carried a transition. */
  private readonly settle = new Set<CheckRow>();
  private readonly lastAt = new Map<number, number>();
  /**
   * Monitors deleted since start (ids are never reused). A flush that took its rows before the
   * deletion may run after it: its rows of these monitors are dropped when it writes.
   */
  private readonly deleted = new Set<number>();
  /** The number of the last bucket written. */
  private lastBucket = 0;
  /** Per monitor: its results in buckets up to this one are in `checks` (check_marks). */
  private readonly marks = new Map<number, number>();
  /** Per monitor with logged results not in `checks` yet: the first bucket holding one. */
  private readonly unfolded = new Map<number, number>();
  /** The buckets still in the log, oldest first, with the time span of their results and when they were written. */
  private readonly spans = new Map<number, BucketSpan>();
  private droppedThrough = 0;
  /** The rotation of folds: the last monitor folded, the share of a fold owed, and when it was reckoned. */
  private foldCursor = 0;
  private foldCredit = 0;
  private foldTick: number;
  /** How often each monitor folds (FOLD_EVERY_MS; shorter in crash tests). */
  foldEveryMs = FOLD_EVERY_MS;
  private timer: NodeJS.Timeout | null = null;
  /** performance.now() when the timer fires. */
  private timerDue = Infinity;
  private flushing: Promise<void> | null = null;
  private readonly hooks: WriteHook[] = [];
  private readonly log = new Logger('writer');
  private readonly rowRate = new MinuteCounter();
  readonly stats: WriterStats = {
    buffered: 0,
    dropped: 0,
    failingInRow: 0,
    written: 0,
    flushes: 0,
    lastFlushMs: null,
    lastFlushAt: null,
    failures: 0,
    lastError: null,
    lastErrorAt: null,
    unfoldedMonitors: 0,
    folds: 0,
  };
  private lastFailureLog = 0;

  constructor(
    private readonly db: Database,
    bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.foldTick = clock.now();
    bus.on('monitor.deleted', ({ id }) => {
      this.buffer = this.buffer.filter((r) => r.monitor_id !== id);
      for (const r of this.settle) if (r.monitor_id === id) this.settle.delete(r);
      this.lastAt.delete(id);
      this.unfolded.delete(id);
      this.marks.delete(id);
      this.deleted.add(id);
      this.stats.buffered = this.buffer.length;
    });
  }

  addHook(hook: WriteHook): void {
    this.hooks.push(hook);
  }

  /** Queues a result; returns the stored time (moved on by a millisecond or two on a clash). */
  add(check: StoredCheck): number {
    return this.addRow(toRow(check));
  }

  /** Queues a probe's result for a monitor (the engine's path); `windowId`: the maintenance window holding it, or null. */
  addResult(result: CheckResult, monitorId: number, note: string | null, windowId: number | null = null): number {
    return this.addRow(checkRow(result, monitorId, note, windowId));
  }

  private addRow(row: CheckRow): number {
    const last = this.lastAt.get(row.monitor_id);
    if (last !== undefined && row.at <= last) row.at = last + 1;
    this.lastAt.set(row.monitor_id, row.at);
    this.buffer.push(row);
    for (const hook of this.hooks) hook.added?.(row);
    this.rowRate.add(this.clock.now());
    if (this.buffer.length > MAX_PENDING_ROWS) this.dropOldest();
    this.stats.buffered = this.buffer.length;
    // While writes fail, only the back-off timer retries: not one failing transaction per result.
    if (this.buffer.length >= FLUSH_AT_ROWS && this.stats.failingInRow === 0) {
      // A write in progress looks at the buffer again when it ends.
      if (!this.flushing) void this.run();
    } else {
      this.schedule(COMMIT_EVERY_MS);
    }
    return row.at;
  }

  /**
   * The result just added for this monitor at `at` carried a transition: it is written into
   * `checks` with the commit that makes the transition durable, not only into the log.
   */
  settleNow(monitorId: number, at: number): void {
    for (let i = this.buffer.length - 1; i >= 0; i--) {
      const r = this.buffer[i];
      if (r.monitor_id === monitorId && r.at === at) {
        this.settle.add(r);
        return;
      }
    }
  }

  /** Asks for a commit within FLUSH_EVERY_MS: a hook has work that must be durable before it is announced. */
  soon(): void {
    this.schedule(FLUSH_EVERY_MS);
  }

  private schedule(delayMs: number): void {
    const delay = this.stats.failingInRow > 0 ? this.retryDelayMs() : delayMs;
    const due = performance.now() + delay;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      void this.run();
    }, delay);
    this.timer.unref();
  }

  private retryDelayMs(): number {
    const n = this.stats.failingInRow;
    return n === 0 ? FLUSH_EVERY_MS : Math.min(RETRY_MAX_MS, FLUSH_EVERY_MS * 2 ** (n - 1));
  }

  private dropOldest(): void {
    // A chunk at a time, so a long outage does not shift the whole array on every result.
    const n = this.buffer.length - MAX_PENDING_ROWS + 1000;
    for (const r of this.buffer.splice(0, n)) this.settle.delete(r);
    if (this.stats.dropped === 0)
      this.log.error(`${MAX_PENDING_ROWS} check results are waiting to be written: dropping the oldest from now on`);
    this.stats.dropped += n;
  }

  /** Rows added in the last 60 seconds (how densely the checks table fills). */
  rowsPerMinute(): number {
    return this.rowRate.count(this.clock.now());
  }

  /** Results not yet durable (waiting for the next commit), oldest first. */
  pending(monitorId?: number): readonly CheckRow[] {
    return monitorId === undefined ? this.buffer : this.buffer.filter((r) => r.monitor_id === monitorId);
  }

  /** The memory the read side looks at (unfolded-reads.ts), as it is now. */
  private view(): LogView {
    return { buffer: this.buffer, unfolded: this.unfolded, spans: this.spans, lastBucket: this.lastBucket };
  }

  /**
   * One monitor's results that are not in `checks` yet (in the log, or waiting), oldest first.
   * Read `checks` after this resolves: a result only ever moves from here to there.
   */
  unfoldedOf(monitorId: number): Promise<CheckRow[]> {
    return unfoldedOf(this.db, this.view(), monitorId);
  }

  /** Up to `n` results of any monitor not in `checks` yet, newest first, after a GET /checks cursor, that pass `keep`. */
  newestUnfolded(n: number, cursor: CheckCursor | null, keep?: (row: CheckRow) => boolean): Promise<CheckRow[]> {
    return newestUnfolded(this.db, this.view(), n, cursor, keep);
  }

  /** Up to `n` failed results of any monitor not in `checks` yet, newest first, after a GET /checks cursor. */
  unfoldedDown(n: number, cursor: CheckCursor | null, down: number): Promise<CheckRow[]> {
    return unfoldedDown(this.db, this.view(), n, cursor, down);
  }

  /**
   * Deletes a monitor's rows from the log in the caller's transaction (a deletion), with one seek
   * per bucket still in the log, folded or not: a row left there would come back at the next start.
   */
  async deleteLoggedIn(m: EntityManager, monitorId: number): Promise<void> {
    // The buckets a write in progress may add are covered by the deletion event (its rows are dropped).
    if (this.lastBucket <= this.droppedThrough) return;
    await m.query(
      `WITH RECURSIVE b(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM b WHERE x < ?)
       DELETE FROM check_log WHERE (bucket, monitor_id, at) IN (SELECT c.bucket, c.monitor_id, c.at FROM b CROSS JOIN check_log c ON c.bucket = b.x AND c.monitor_id = ?)`,
      [this.droppedThrough + 1, this.lastBucket, monitorId],
    );
  }

  /** The time span of the results in the log (null when it is empty). */
  logSpan(): { oldest: number; newest: number } | null {
    return logSpan(this.view());
  }

  /** Writes everything now, each thing in its final place: every monitor folds. Resolves when it is on disk. */
  async flush(): Promise<void> {
    await this.writeNow('flush');
  }

  /** Makes everything that waits durable now (a commit, with the folds that are due). */
  async commit(): Promise<void> {
    await this.writeNow('commit');
  }

  private run(): Promise<void> {
    return this.writeNow('commit');
  }

  private hasWork(kind: WriteKind): boolean {
    if (this.buffer.length > 0) return true;
    if (kind === 'flush' ? this.unfolded.size > 0 : foldsDue(this.foldMemory(), this.clock.now())) return true;
    return this.hooks.some((h) => h.hasWork?.(kind));
  }

  private async writeNow(kind: WriteKind): Promise<void> {
    if (kind === 'flush' && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.timerDue = Infinity;
    }
    while (this.flushing) await this.flushing;
    if (!this.hasWork(kind)) return;
    this.flushing = this.write(kind).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  /** The memory a write's plan is made from (fold-plan.ts), as it is now. */
  private foldMemory(): FoldMemory {
    return {
      lastBucket: this.lastBucket,
      unfolded: this.unfolded,
      spans: this.spans,
      cursor: this.foldCursor,
      credit: this.foldCredit,
      tick: this.foldTick,
      everyMs: this.foldEveryMs,
    };
  }

  private async write(kind: WriteKind): Promise<void> {
    const started = performance.now();
    let taken: CheckRow[] = [];
    let rows: CheckRow[] = [];
    let plan: Plan | null = null;
    try {
      for (const hook of this.hooks) await hook.prepare?.();
      await this.db.tx(async (m) => {
        // Taken once the transaction has begun (it may have waited for others), together with the
        // hooks' snapshots, before any await: rows, states and incidents of one instant.
        taken = this.buffer.slice();
        // Decided inside the transaction: a deletion that committed before it is known by now.
        rows = this.deleted.size ? taken.filter((r) => !this.deleted.has(r.monitor_id)) : taken;
        const p = planWrite(kind, rows, this.foldMemory(), this.clock.now());
        plan = p;
        for (const hook of this.hooks) hook.snapshot?.(kind, p.folding);
        if (rows.length > 0) {
          const sorted = [...rows].sort((a, b) => a.monitor_id - b.monitor_id || a.at - b.at);
          await insertRows(m, 'INSERT INTO check_log (bucket, ', sorted, p.bucket);
        }
        await insertRows(
          m,
          'INSERT OR REPLACE INTO checks (',
          rows.filter((r) => this.settle.has(r)),
          null,
        );
        if (p.folding.size > 0) await foldIn(m, p.folding, p.bucket, kind, this.unfolded, this.deleted);
        if (p.dropThrough > this.droppedThrough)
          await m.query('DELETE FROM check_log WHERE bucket <= ?', [p.dropThrough]);
        for (const hook of this.hooks) await hook.onRows?.(m, rows, kind, p.folding);
      });
      for (const hook of this.hooks) hook.afterCommit?.(kind);
      if (this.stats.failingInRow > 0) {
        this.log.log(
          `check results are written again after ${this.stats.failingInRow} failed attempts (${rows.length} results in this write, ${this.stats.dropped} dropped in all)`,
        );
        this.stats.failingInRow = 0;
      }
      this.applied(plan!);
      // Only now leave the buffer: readers saw the rows in the buffer until they were committed.
      const written = new Set(taken);
      this.buffer = this.buffer.filter((r) => !written.has(r));
      for (const r of taken) this.settle.delete(r);
      this.stats.written += rows.length;
      this.stats.flushes += 1;
      this.stats.lastFlushMs = Math.round(performance.now() - started);
      this.stats.lastFlushAt = this.clock.now();
      if (this.buffer.length >= FLUSH_AT_ROWS) setImmediate(() => void this.run());
      else if (this.buffer.length > 0) this.schedule(COMMIT_EVERY_MS);
      // A quiet service still folds what it logged.
      else if (this.unfolded.size > 0) this.schedule(FOLD_TICK_MS);
    } catch (err) {
      if (plan) for (const hook of this.hooks) hook.rolledBack?.();
      this.stats.failures += 1;
      this.stats.lastError = err instanceof Error ? err.message : String(err);
      this.stats.lastErrorAt = this.clock.now();
      this.stats.failingInRow += 1;
      const now = Date.now();
      // One line when it starts, then one a minute: a full disk must not also fill the journal.
      if (this.stats.failingInRow === 1 || now - this.lastFailureLog >= 60_000) {
        this.lastFailureLog = now;
        this.log.error(
          `could not write ${rows.length} check results (attempt ${this.stats.failingInRow}), retrying in ${Math.round(this.retryDelayMs() / 1000)} s: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.timerDue = Infinity;
      this.schedule(FLUSH_EVERY_MS);
    } finally {
      this.stats.buffered = this.buffer.length;
    }
  }

  /** The write committed: memory follows what it did. */
  private applied(p: Plan): void {
    this.lastBucket = p.bucket;
    if (p.span) this.spans.set(p.bucket, p.span);
    for (const id of p.folding) if (!this.deleted.has(id)) this.marks.set(id, p.bucket);
    // Only a deletion changes `unfolded` while a write runs (and takes its monitor out of it).
    for (const id of p.folding) this.unfolded.delete(id);
    for (const [id, bucket] of p.added)
      if (!this.deleted.has(id) && !this.unfolded.has(id)) this.unfolded.set(id, bucket);
    if (p.dropThrough > this.droppedThrough) {
      for (const b of [...this.spans.keys()]) if (b <= p.dropThrough) this.spans.delete(b);
      this.droppedThrough = p.dropThrough;
    }
    this.foldCredit = p.credit;
    this.foldCursor = p.cursor;
    this.foldTick = p.tick;
    this.stats.folds += p.folding.size;
    this.stats.unfoldedMonitors = this.unfolded.size;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** At start: the marks, and the log as the last run left it (log-restore.ts); returns the results to account again. */
  async restore(): Promise<CheckRow[]> {
    const mem: LogMemory = {
      marks: this.marks,
      unfolded: this.unfolded,
      spans: this.spans,
      lastAt: this.lastAt,
      lastBucket: this.lastBucket,
      droppedThrough: this.droppedThrough,
    };
    const out = await readLogBack(this.db, this.clock, mem);
    this.lastBucket = mem.lastBucket;
    this.droppedThrough = mem.droppedThrough;
    this.stats.unfoldedMonitors = this.unfolded.size;
    if (out.length > 0) {
      this.log.warn(
        `${out.length} check results committed since their monitors' last fold were read back from the log (the last stop was not clean)`,
      );
      this.schedule(FOLD_TICK_MS);
    }
    return out;
  }

  /** Restores the last stored time per monitor after a restart (so clash handling stays right). */
  seedLastTimes(latest: readonly { monitor_id: number; at: number }[]): void {
    for (const r of latest) if ((this.lastAt.get(r.monitor_id) ?? -1) < r.at) this.lastAt.set(r.monitor_id, r.at);
  }
}
