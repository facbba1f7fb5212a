/**
 * The `subscribers` table: every statement on it. Addresses are stored lower case and unique;
 * tokens only as SHA-256 hashes, plus the unsubscribe token sealed with the service's key
 * (every mail must carry it; a copied database alone reveals none).
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';

export type SubscriberState = 'pending' | 'confirmed';

export interface SubscriberRow {
  id: number;
  email: string;
  state: SubscriberState;
  confirm_hash: string | null;
  confirm_expires_at: number | null;
  confirm_used_at: number | null;
  unsub_hash: string;
  /** Sealed (db/secret-box.ts). */
  unsub_token: string;
  created_at: number;
  confirmed_at: number | null;
}

const COLUMNS = [
  'id',
  'email',
  'state',
  'confirm_hash',
  'confirm_expires_at',
  'confirm_used_at',
  'unsub_hash',
  'unsub_token',
  'created_at',
  'confirmed_at',
] as const satisfies readonly (keyof SubscriberRow)[];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM subscribers`;
const INSERTED = COLUMNS.filter((c) => c !== 'id');

export async function subscriberByEmailIn(tx: EntityManager, email: string): Promise<SubscriberRow | undefined> {
  const [row] = await tx.query<SubscriberRow[]>(`${SELECT} WHERE email = ?`, [email]);
  return row;
}

export async function subscriberByConfirmHashIn(tx: EntityManager, hash: string): Promise<SubscriberRow | undefined> {
  const [row] = await tx.query<SubscriberRow[]>(`${SELECT} WHERE confirm_hash = ?`, [hash]);
  return row;
}

export async function subscriberByUnsubHashIn(tx: EntityManager, hash: string): Promise<SubscriberRow | undefined> {
  const [row] = await tx.query<SubscriberRow[]>(`${SELECT} WHERE unsub_hash = ?`, [hash]);
  return row;
}

export async function subscriberByIdIn(tx: EntityManager, id: number): Promise<SubscriberRow | undefined> {
  const [row] = await tx.query<SubscriberRow[]>(`${SELECT} WHERE id = ?`, [id]);
  return row;
}

/** The new row's id. */
export function insertSubscriberIn(tx: EntityManager, row: Omit<SubscriberRow, 'id'>): Promise<number> {
  // TypeORM's sqlite runner answers an INSERT with the new rowid.
  return tx.query<number>(
    `INSERT INTO subscribers (${INSERTED.join(', ')}) VALUES (${INSERTED.map(() => '?').join(', ')})`,
    INSERTED.map((c) => row[c]),
  );
}

/** A pending subscriber asked again: a new confirmation link replaces the old one. */
export async function renewConfirmIn(tx: EntityManager, id: number, hash: string, expiresAt: number): Promise<void> {
  await tx.query(
    'UPDATE subscribers SET confirm_hash = ?, confirm_expires_at = ?, confirm_used_at = NULL WHERE id = ?',
    [hash, expiresAt, id],
  );
}

/** The compare-and-set of a confirmation: true when this call confirmed (a second use finds it used). */
export async function confirmIn(tx: EntityManager, id: number, now: number): Promise<boolean> {
  await tx.query(
    "UPDATE subscribers SET state = 'confirmed', confirmed_at = COALESCE(confirmed_at, ?), confirm_used_at = ? WHERE id = ? AND confirm_used_at IS NULL AND confirm_expires_at > ?",
    [now, now, id, now],
  );
  const [{ n }] = await tx.query<{ n: number }[]>('SELECT changes() AS n');
  return n === 1;
}

export async function deleteSubscriberIn(tx: EntityManager, id: number): Promise<boolean> {
  await tx.query('DELETE FROM subscribers WHERE id = ?', [id]);
  const [{ n }] = await tx.query<{ n: number }[]>('SELECT changes() AS n');
  return n === 1;
}

/** Pending subscribers whose link expired before `before` go: an address nobody confirmed is not kept. */
export async function pruneUnconfirmedIn(tx: EntityManager, before: number): Promise<number[]> {
  const rows = await tx.query<{ id: number }[]>(
    "SELECT id FROM subscribers WHERE state = 'pending' AND confirm_expires_at < ?",
    [before],
  );
  if (rows.length)
    await tx.query("DELETE FROM subscribers WHERE state = 'pending' AND confirm_expires_at < ?", [before]);
  return rows.map((r) => r.id);
}

/** The owner's list, newest first: up to `limit` + 1 rows with an id below `before`. */
export function subscriberPage(db: Database, before: number | null, limit: number): Promise<SubscriberRow[]> {
  return db.read<SubscriberRow[]>(`${SELECT} WHERE id < ? ORDER BY id DESC LIMIT ?`, [
    before ?? Number.MAX_SAFE_INTEGER,
    limit + 1,
  ]);
}

/** Every subscriber, oldest first (export). */
export function allSubscribers(db: Database): Promise<SubscriberRow[]> {
  return db.read<SubscriberRow[]>(`${SELECT} ORDER BY id`);
}

export function subscriberByIdRead(db: Database, id: number): Promise<SubscriberRow[]> {
  return db.read<SubscriberRow[]>(`${SELECT} WHERE id = ?`, [id]);
}
