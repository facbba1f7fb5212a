/**
 * The `deliveries` table, the delivery log: one row per attempt to send, of alerts (channels/:
 * the dispatcher and channel tests) and of the owner's own mail (here, mail.service.ts). Every
 * statement on it, built from one column list; it lives in mail/ because mail/ is the lowest
 * module that writes it (channels/ imports mail/, never the other way).
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';

/** One attempt as it is recorded. */
export interface DeliveryInput {
  at: number;
  /** null: the owner's own mail (no channel). */
  channel_id: number | null;
  channel_name: string;
  ok: boolean;
  provider: string | null;
  status: number | null;
  error: string | null;
  summary: string;
  /** The outbox message attempted; null for a channel test and the owner's mail. */
  outbox_id: number | null;
  /** The monitors the message was about (JSON array), or null. */
  monitor_ids: string | null;
  /** Sent by email: counts against the daily cap (settings email.daily_cap). */
  email: boolean;
}

/** A row as stored. */
export type DeliveryRow = { id: number } & Omit<DeliveryInput, 'ok' | 'email'> & { ok: number; email: number };

/** The columns an attempt writes, in the table's order (after the id). */
const DELIVERY_COLUMNS = [
  'at',
  'channel_id',
  'channel_name',
  'ok',
  'provider',
  'status',
  'error',
  'summary',
  'outbox_id',
  'monitor_ids',
  'email',
] as const satisfies readonly (keyof DeliveryInput)[];

// The list above names every field of DeliveryInput (a compile error otherwise).
const everyField: Record<Exclude<keyof DeliveryInput, (typeof DELIVERY_COLUMNS)[number]>, never> = {};
void everyField;

const INSERT = `INSERT INTO deliveries (${DELIVERY_COLUMNS.join(', ')}) VALUES (${DELIVERY_COLUMNS.map(() => '?').join(', ')})`;

export async function insertDeliveryIn(tx: EntityManager, d: DeliveryInput): Promise<void> {
  await tx.query(
    INSERT,
    DELIVERY_COLUMNS.map((c) => (c === 'ok' || c === 'email' ? (d[c] ? 1 : 0) : d[c])),
  );
}

/** Emails sent successfully since `at` (the daily cap). */
export async function emailsSentSince(db: Database, at: number): Promise<number> {
  const [{ n }] = await db.read<{ n: number }[]>(
    'SELECT COUNT(*) AS n FROM deliveries WHERE email = 1 AND ok = 1 AND at >= ?',
    [at],
  );
  return n;
}

/** A channel's newest attempt (its answer's status), or undefined. */
export async function lastDeliveryOf(
  db: Database,
  channelId: number,
): Promise<Pick<DeliveryRow, 'at' | 'ok' | 'error'> | undefined> {
  const [last] = await db.read<Pick<DeliveryRow, 'at' | 'ok' | 'error'>[]>(
    'SELECT at, ok, error FROM deliveries WHERE channel_id = ? ORDER BY id DESC LIMIT 1',
    [channelId],
  );
  return last;
}

/** A row of the log with the state its outbox message has now (null once the message is pruned). */
export type LoggedDelivery = DeliveryRow & { state: string | null };

/** GET /deliveries: newest first, `limit` rows at most. */
export function listDeliveries(
  db: Database,
  q: { channelId: number | null; before: number | null; limit: number },
): Promise<LoggedDelivery[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.channelId !== null) {
    where.push('d.channel_id = ?');
    params.push(q.channelId);
  }
  if (q.before !== null) {
    where.push('d.id < ?');
    params.push(q.before);
  }
  return db.read<LoggedDelivery[]>(
    `SELECT d.id, ${DELIVERY_COLUMNS.map((c) => `d.${c}`).join(', ')}, o.state AS state FROM deliveries d LEFT JOIN outbox o ON o.id = d.outbox_id
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.id DESC LIMIT ?`,
    [...params, q.limit],
  );
}

/** Rows older than the timeline's retention go (settings retention.events_days). */
export async function pruneDeliveriesIn(tx: EntityManager, before: number): Promise<void> {
  await tx.query('DELETE FROM deliveries WHERE at < ?', [before]);
}

/** Emails that failed since `at` (diagnostics, beside the daily cap). */
export async function emailsFailedSince(db: Database, at: number): Promise<number> {
  const [{ n }] = await db.read<{ n: number }[]>(
    'SELECT COUNT(*) AS n FROM deliveries WHERE email = 1 AND ok = 0 AND at >= ?',
    [at],
  );
  return n;
}
