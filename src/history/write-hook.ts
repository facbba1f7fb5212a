/**
 * The contract between the writer (writer.ts) and the work that must commit in the same
 * transaction as its check rows: the rollups (rollups.service.ts) and the engine's journal
 * (engine/journal/journal.ts).
 */
import type { EntityManager } from 'typeorm';
import type { CheckRow } from './check-row';

/** `commit`: results into the log, what must be durable, and the folds that are due. `flush`: every monitor folds (shutdown). */
export type WriteKind = 'commit' | 'flush';

/** Work that must commit in the same transaction as the rows (rollups, state rows, timeline lines). */
export interface WriteHook {
  /** Before the transaction is queued (asynchronous preparations: settings the snapshot needs). */
  prepare?(): Promise<void>;
  /** A result was queued (synchronously, in add()). */
  added?(row: CheckRow): void;
  /**
   * Called at the start of the transaction, synchronously, at the same instant the rows to write
   * are taken: the hook takes what it will write now, so what it writes was caused by those rows
   * (a state or an incident is never written without the check that made it). `folding`: the
   * monitors whose results move into `checks` in this transaction.
   */
  snapshot?(kind: WriteKind, folding: ReadonlySet<number>): void;
  /** Inside the transaction: what the hook writes for these rows. */
  onRows?(m: EntityManager, rows: CheckRow[], kind: WriteKind, folding: ReadonlySet<number>): Promise<void>;
  /** Called once the transaction committed (in-memory bookkeeping and announcements that must not run ahead of the disk). */
  afterCommit?(kind: WriteKind): void;
  /** Called when the transaction failed after the snapshot: what it took is given back. */
  rolledBack?(): void;
  /** True while the hook has something to write even without check rows (a pause, a config change); for a flush, also what only a fold writes. */
  hasWork?(kind: WriteKind): boolean;
}
