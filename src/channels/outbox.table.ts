/**
 * The `outbox` table (one row per message to one channel) and `outbox_events` (the events a
 * message carries, one row each): every statement on them. The outbox service adds events, the
 * dispatcher claims due messages with a compare-and-set and settles them (docs/alerts.md).
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';

export type OutboxState = 'pending' | 'sending' | 'retrying' | 'sent' | 'failed';

/** A message as the dispatcher reads it. */
export interface OutboxRow {
  id: number;
  channel_id: number;
  state: OutboxState;
  created_at: number;
  due_at: number;
  tries: number;
}

/** One event of a message as stored: the event as JSON, and what it is about. */
export interface OutboxEventRow {
  event: string;
  monitor_id: number | null;
  incident_id: number | null;
}

const OUTBOX_COLUMNS = [
  'id',
  'channel_id',
  'state',
  'created_at',
  'due_at',
  'tries',
] as const satisfies readonly (keyof OutboxRow)[];
const EVENT_COLUMNS = ['event', 'monitor_id', 'incident_id'] as const satisfies readonly (keyof OutboxEventRow)[];

/** The channel's message still gathering events (BATCH_MS from its first), if any. */
export async function gatheringMessageIn(tx: EntityManager, channelId: number): Promise<number | undefined> {
  const [row] = await tx.query<{ id: number }[]>(
    "SELECT id FROM outbox WHERE channel_id = ? AND state = 'pending' ORDER BY id DESC LIMIT 1",
    [channelId],
  );
  return row?.id;
}

/** A new message, due at `dueAt`: its id. */
export async function newMessageIn(tx: EntityManager, channelId: number, now: number, dueAt: number): Promise<number> {
  // TypeORM's sqlite runner answers an INSERT with the new rowid.
  return tx.query<number>("INSERT INTO outbox (channel_id, state, created_at, due_at) VALUES (?, 'pending', ?, ?)", [
    channelId,
    now,
    dueAt,
  ]);
}

export async function addEventIn(tx: EntityManager, outboxId: number, e: OutboxEventRow): Promise<void> {
  await tx.query(`INSERT INTO outbox_events (outbox_id, ${EVENT_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?)`, [
    outboxId,
    ...EVENT_COLUMNS.map((c) => e[c]),
  ]);
}

/** A message's events in the order they came. */
export function messageEventsIn(tx: EntityManager, outboxId: number): Promise<OutboxEventRow[]> {
  return tx.query<OutboxEventRow[]>(
    `SELECT ${EVENT_COLUMNS.join(', ')} FROM outbox_events WHERE outbox_id = ? ORDER BY id`,
    [outboxId],
  );
}

/** Due messages (pending or retrying), soonest first, `limit` at most. */
export function dueMessages(db: Database, now: number, limit: number): Promise<OutboxRow[]> {
  return db.read<OutboxRow[]>(
    `SELECT ${OUTBOX_COLUMNS.join(', ')} FROM outbox WHERE state IN ('pending', 'retrying') AND due_at <= ? ORDER BY due_at, id LIMIT ?`,
    [now, limit],
  );
}

/** When the next message is due, or null when none waits. */
export async function nextDueAt(db: Database): Promise<number | null> {
  const [next] = await db.read<{ at: number | null }[]>(
    "SELECT MIN(due_at) AS at FROM outbox WHERE state IN ('pending', 'retrying')",
  );
  return next.at;
}

/** The compare-and-set: true when this caller moved the message to `sending` (nobody else can). */
export async function claimIn(tx: EntityManager, id: number, at: number): Promise<boolean> {
  await tx.query(
    "UPDATE outbox SET state = 'sending', claimed_at = ?, tries = tries + 1 WHERE id = ? AND state IN ('pending', 'retrying') AND due_at <= ?",
    [at, id, at],
  );
  const [{ n }] = await tx.query<{ n: number }[]>('SELECT changes() AS n');
  return n === 1;
}

/** An attempt's outcome: sent or failed (done at `now`), or retrying at `dueAt`. */
export async function settleIn(
  tx: EntityManager,
  id: number,
  state: 'sent' | 'failed' | 'retrying',
  dueAt: number,
  now: number,
): Promise<void> {
  await tx.query('UPDATE outbox SET state = ?, due_at = ?, done_at = ? WHERE id = ?', [
    state,
    dueAt,
    state === 'retrying' ? null : now,
    id,
  ]);
}

/** A message left `sending` (its outcome could not be stored, or the service stopped) is tried again at `dueAt`. */
export async function retrySendingIn(tx: EntityManager, dueAt: number, id: number | null = null): Promise<void> {
  if (id === null) await tx.query("UPDATE outbox SET state = 'retrying', due_at = ? WHERE state = 'sending'", [dueAt]);
  else
    await tx.query("UPDATE outbox SET state = 'retrying', due_at = ? WHERE id = ? AND state = 'sending'", [dueAt, id]);
}

/** The queued messages of a channel fail (it was deleted or disabled). */
export async function failQueuedOfIn(tx: EntityManager, channelId: number, now: number): Promise<void> {
  await tx.query(
    "UPDATE outbox SET state = 'failed', done_at = ? WHERE channel_id = ? AND state IN ('pending', 'retrying')",
    [now, channelId],
  );
}

/** Messages done before `before` go, with their events. */
export async function pruneMessagesIn(tx: EntityManager, before: number): Promise<void> {
  await tx.query(
    'DELETE FROM outbox_events WHERE outbox_id IN (SELECT id FROM outbox WHERE done_at IS NOT NULL AND done_at < ?)',
    [before],
  );
  await tx.query('DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?', [before]);
}

/** How many messages are in each state (diagnostics). */
export function messageCountsByState(db: Database): Promise<{ state: OutboxState; n: number }[]> {
  return db.read<{ state: OutboxState; n: number }[]>('SELECT state, COUNT(*) AS n FROM outbox GROUP BY state');
}
