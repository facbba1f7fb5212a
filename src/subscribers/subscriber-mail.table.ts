/**
 * The subscribers' mail queue: `subscriber_notices` (what happened, once: an incident opened or
 * ended, a maintenance window announced) and `subscriber_mail` (one row per mail to one
 * subscriber, a confirmation or a notice). Every statement on both. Rows are written in the
 * transaction of the change they tell of; the dispatcher claims a due row with a compare-and-set,
 * as the alert outbox does (channels/outbox.table.ts).
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';

export type NoticeKind = 'opened' | 'resolved' | 'maintenance';
export type MailState = 'pending' | 'sending' | 'retrying' | 'sent' | 'failed';

export interface MailRow {
  id: number;
  subscriber_id: number;
  notice_id: number | null;
  state: MailState;
  due_at: number;
  tries: number;
}

/** A claimed mail with what it needs to be written: the notice (null: a confirmation) and its secret. */
export interface MailToSend extends MailRow {
  secret: string | null;
  kind: NoticeKind | null;
  payload: string | null;
}

/**
 * A notice, once per `ref` (`opened:<incident id>`, `maintenance:<window id>:<start>`): its id, or
 * null when that ref was noticed before (a window announced before a restart is not announced again).
 */
export async function insertNoticeIn(
  tx: EntityManager,
  kind: NoticeKind,
  ref: string,
  payload: unknown,
  now: number,
): Promise<number | null> {
  await tx.query('INSERT OR IGNORE INTO subscriber_notices (kind, ref, payload, created_at) VALUES (?, ?, ?, ?)', [
    kind,
    ref,
    JSON.stringify(payload),
    now,
  ]);
  const [{ n, id }] = await tx.query<{ n: number; id: number }[]>('SELECT changes() AS n, last_insert_rowid() AS id');
  return n === 1 ? id : null;
}

/** One mail per confirmed subscriber for a notice, in one statement however many there are: how many. */
export async function fanOutIn(tx: EntityManager, noticeId: number, now: number): Promise<number> {
  await tx.query(
    "INSERT INTO subscriber_mail (subscriber_id, notice_id, state, created_at, due_at) SELECT id, ?, 'pending', ?, ? FROM subscribers WHERE state = 'confirmed'",
    [noticeId, now, now],
  );
  const [{ n }] = await tx.query<{ n: number }[]>('SELECT changes() AS n');
  return n;
}

/** A confirmation mail; `secret` is the sealed token, wiped once the mail is settled. */
export async function queueConfirmIn(
  tx: EntityManager,
  subscriberId: number,
  secret: string,
  now: number,
): Promise<void> {
  await tx.query(
    "INSERT INTO subscriber_mail (subscriber_id, notice_id, secret, state, created_at, due_at) VALUES (?, NULL, ?, 'pending', ?, ?)",
    [subscriberId, secret, now, now],
  );
}

export function dueMail(db: Database, now: number, limit: number): Promise<MailRow[]> {
  return db.read<MailRow[]>(
    "SELECT id, subscriber_id, notice_id, state, due_at, tries FROM subscriber_mail WHERE state IN ('pending', 'retrying') AND due_at <= ? ORDER BY due_at, id LIMIT ?",
    [now, limit],
  );
}

export async function nextMailDueAt(db: Database): Promise<number | null> {
  const [r] = await db.read<{ at: number | null }[]>(
    "SELECT MIN(due_at) AS at FROM subscriber_mail WHERE state IN ('pending', 'retrying')",
  );
  return r.at;
}

/** The compare-and-set: the mail with its notice when this caller moved it to `sending`, else null. */
export async function claimMailIn(tx: EntityManager, id: number, at: number): Promise<MailToSend | null> {
  await tx.query(
    "UPDATE subscriber_mail SET state = 'sending', claimed_at = ?, tries = tries + 1 WHERE id = ? AND state IN ('pending', 'retrying') AND due_at <= ?",
    [at, id, at],
  );
  const [{ n }] = await tx.query<{ n: number }[]>('SELECT changes() AS n');
  if (n !== 1) return null;
  const [row] = await tx.query<MailToSend[]>(
    'SELECT m.id, m.subscriber_id, m.notice_id, m.state, m.due_at, m.tries, m.secret, n.kind, n.payload FROM subscriber_mail m LEFT JOIN subscriber_notices n ON n.id = m.notice_id WHERE m.id = ?',
    [id],
  );
  return row ?? null;
}

/** An attempt's outcome; a settled (not retrying) confirmation forgets its token. */
export async function settleMailIn(
  tx: EntityManager,
  id: number,
  state: 'sent' | 'failed' | 'retrying',
  dueAt: number,
  now: number,
): Promise<void> {
  await tx.query(
    `UPDATE subscriber_mail SET state = ?, due_at = ?, done_at = ?${state === 'retrying' ? '' : ', secret = NULL'} WHERE id = ?`,
    [state, dueAt, state === 'retrying' ? null : now, id],
  );
}

/** Mail left `sending` when the service stopped is tried again at `dueAt` (at-least-once). */
export async function retrySendingMailIn(tx: EntityManager, dueAt: number, id: number | null = null): Promise<void> {
  if (id === null)
    await tx.query("UPDATE subscriber_mail SET state = 'retrying', due_at = ? WHERE state = 'sending'", [dueAt]);
  else
    await tx.query("UPDATE subscriber_mail SET state = 'retrying', due_at = ? WHERE id = ? AND state = 'sending'", [
      dueAt,
      id,
    ]);
}

/** A subscriber who left, or was removed, gets nothing more, and their rows go. */
export async function dropMailOfIn(tx: EntityManager, subscriberIds: readonly number[]): Promise<void> {
  for (const id of subscriberIds) await tx.query('DELETE FROM subscriber_mail WHERE subscriber_id = ?', [id]);
}

/** Mail done before `before` goes, and notices no mail refers to any more. */
export async function pruneMailIn(tx: EntityManager, before: number): Promise<void> {
  await tx.query('DELETE FROM subscriber_mail WHERE done_at IS NOT NULL AND done_at < ?', [before]);
  await tx.query(
    'DELETE FROM subscriber_notices WHERE created_at < ? AND id NOT IN (SELECT notice_id FROM subscriber_mail WHERE notice_id IS NOT NULL)',
    [before],
  );
}

/** Mail in each state (diagnostics and tests). */
export function mailCountsByState(db: Database): Promise<{ state: MailState; n: number }[]> {
  return db.read<{ state: MailState; n: number }[]>('SELECT state, COUNT(*) AS n FROM subscriber_mail GROUP BY state');
}
