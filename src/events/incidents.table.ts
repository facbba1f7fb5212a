/**
 * The `incidents` table: every statement that reads or writes it, built from one column list.
 * Three modules write it, each its own columns (docs/storage.md): the engine opens, updates and
 * ends incidents (ENGINE_INCIDENT_COLUMNS), PATCH /incidents/{id} stores the acknowledgement and
 * note, and the alert dispatcher the time of the last reminder (`reminded_at`, not part of an
 * incident's answer, so not of IncidentRow). Reads go through Database.read() (committed rows
 * only); writes take the caller's transaction.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { readSelectRows } from '../db/bulk-read';
import type { EndReason, IncidentRow } from './incident';

/** The columns the engine owns: written on open, on every failed check while open, and on close. */
export const ENGINE_INCIDENT_COLUMNS = [
  'id',
  'monitor_id',
  'monitor_name',
  'started_at',
  'down_at',
  'ended_at',
  'end_reason',
  'cause_code',
  'cause_message',
  'last_error_code',
  'last_error_message',
  'fails',
] as const;

/** An IncidentRow's columns: the engine's, then the two PATCH owns. */
export const INCIDENT_COLUMNS = [...ENGINE_INCIDENT_COLUMNS, 'acknowledged_at', 'note'] as const;

// The list above names every field of IncidentRow and nothing else (a compile error otherwise).
type Listed = (typeof INCIDENT_COLUMNS)[number];
const everyField: Record<Exclude<keyof IncidentRow, Listed>, never> &
  Record<Exclude<Listed, keyof IncidentRow>, never> = {};
void everyField;

/** An open incident as the reminder loop sees it. */
export interface ReminderRow {
  id: number;
  monitor_id: number;
  down_at: number;
  reminded_at: number | null;
  last_error_code: string | null;
  last_error_message: string | null;
}

/** What GET /incidents lists: newest first, `limit` rows at most. */
export interface IncidentListQuery {
  state: 'open' | 'closed' | 'all';
  /** Incidents the engine has ended whose end is not written yet: the table still shows them open. */
  endedUnwritten: readonly number[];
  monitorId: number | null;
  /** Only ids below this one (the page cursor). */
  before: number | null;
  limit: number;
}

/** The name shown is the monitor's current one; a deleted monitor's is the one the incident kept. */
const ANSWERED = `SELECT ${INCIDENT_COLUMNS.map((c) => (c === 'monitor_name' ? 'COALESCE(m.name, i.monitor_name) AS monitor_name' : `i.${c}`)).join(', ')}
  FROM incidents i LEFT JOIN monitors m ON m.id = i.monitor_id`;

const UPSERT_CHANGES = ENGINE_INCIDENT_COLUMNS.slice(1)
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');
const UPSERT_VALUES = ENGINE_INCIDENT_COLUMNS.map(() => '?').join(', ');

/** The highest incident id ever stored (0 when none): ids are never used twice. */
export async function lastIncidentId(db: Database): Promise<number> {
  const [{ last }] = await db.read<{ last: number | null }[]>('SELECT MAX(id) AS last FROM incidents');
  return last ?? 0;
}

/** The incidents the table shows open, as stored. */
export function openIncidentRows(db: Database): Promise<IncidentRow[]> {
  return db.read<IncidentRow[]>(`SELECT ${INCIDENT_COLUMNS.join(', ')} FROM incidents WHERE ended_at IS NULL`);
}

/** For the reminder loop: the open incidents with the time of their last reminder. */
export function openIncidentReminders(db: Database): Promise<ReminderRow[]> {
  return db.read<ReminderRow[]>(
    'SELECT id, monitor_id, down_at, reminded_at, last_error_code, last_error_message FROM incidents WHERE ended_at IS NULL',
  );
}

/** One incident as answered (the monitor's current name), or undefined. */
export async function incidentById(db: Database, id: number): Promise<IncidentRow | undefined> {
  const [row] = await db.read<IncidentRow[]>(`${ANSWERED} WHERE i.id = ?`, [id]);
  return row;
}

/** A page of incidents as answered, newest first. */
export function listIncidents(db: Database, q: IncidentListQuery): Promise<IncidentRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const endedIn = q.endedUnwritten.length ? `i.id IN (${q.endedUnwritten.map(() => '?').join(', ')})` : null;
  if (q.state === 'open') {
    where.push(endedIn ? `i.ended_at IS NULL AND NOT ${endedIn}` : 'i.ended_at IS NULL');
    params.push(...q.endedUnwritten);
  }
  if (q.state === 'closed') {
    where.push(endedIn ? `(i.ended_at IS NOT NULL OR ${endedIn})` : 'i.ended_at IS NOT NULL');
    params.push(...q.endedUnwritten);
  }
  if (q.monitorId !== null) {
    where.push('i.monitor_id = ?');
    params.push(q.monitorId);
  }
  if (q.before !== null) {
    where.push('i.id < ?');
    params.push(q.before);
  }
  return db.read<IncidentRow[]>(
    `${ANSWERED} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY i.id DESC LIMIT ?`,
    [...params, q.limit],
  );
}

/**
 * Upserts the engine's columns of an incident (never acknowledged_at or note: PATCH owns
 * those). An ended incident is final: no later write reopens or changes it. `onlyIfMonitorExists`:
 * a write racing a deletion that already committed writes nothing.
 */
export async function writeEngineIncidentIn(
  tx: EntityManager,
  row: IncidentRow,
  onlyIfMonitorExists: boolean,
): Promise<void> {
  await tx.query(
    `INSERT INTO incidents (${ENGINE_INCIDENT_COLUMNS.join(', ')}) SELECT ${UPSERT_VALUES}
     WHERE ${onlyIfMonitorExists ? 'EXISTS (SELECT 1 FROM monitors WHERE id = ?)' : '? IS NOT NULL'}
     ON CONFLICT (id) DO UPDATE SET ${UPSERT_CHANGES}
     WHERE incidents.ended_at IS NULL`,
    [...ENGINE_INCIDENT_COLUMNS.map((c) => row[c]), row.monitor_id],
  );
}

/**
 * Ends whatever the table shows open for this monitor (never before it started), except incident
 * `exceptId`, which the caller writes itself.
 */
export async function endOpenIncidentsIn(
  tx: EntityManager,
  monitorId: number,
  at: number,
  reason: EndReason,
  exceptId: number | null,
): Promise<void> {
  await tx.query(
    `UPDATE incidents SET ended_at = MAX(started_at, ?), end_reason = ? WHERE monitor_id = ? AND ended_at IS NULL${exceptId !== null ? ' AND id != ?' : ''}`,
    exceptId !== null ? [at, reason, monitorId, exceptId] : [at, reason, monitorId],
  );
}

/** PATCH /incidents/{id}: the owner's acknowledgement and note. */
export async function setAcknowledgementIn(
  tx: EntityManager,
  id: number,
  acknowledgedAt: number | null,
  note: string | null,
): Promise<void> {
  await tx.query('UPDATE incidents SET acknowledged_at = ?, note = ? WHERE id = ?', [acknowledgedAt, note, id]);
}

/** A reminder went out (or was decided against) at `at`: the next one is due remind_every_min later. */
export async function setRemindedIn(tx: EntityManager, id: number, at: number): Promise<void> {
  await tx.query('UPDATE incidents SET reminded_at = ? WHERE id = ?', [at, id]);
}

/** What the status page shows of an incident: only its times (and whose it is). */
export interface IncidentSpan {
  key: number;
  started_at: number;
  ended_at: number | null;
}

const SPAN = 'SELECT monitor_id AS key, started_at, ended_at FROM incidents';
const inList = (ids: number[]) => `monitor_id IN (${ids.map(() => '?').join(', ')})`;
const SPAN_COLUMNS = ['key', 'started_at', 'ended_at'] as const;

/**
 * Spans as one JSON text (db/bulk-read.ts), by monitor and start: a status page's build waits for
 * a few hundred of them (226 for 100 services over 90 days: 0.34 ms of the main thread as row
 * objects, 0.18 ms this way).
 */
function readSpans(db: Database, where: string, params: unknown[]): Promise<IncidentSpan[]> {
  return readSelectRows<IncidentSpan>(db, SPAN_COLUMNS, `${SPAN} WHERE ${where}`, 'key, started_at', params);
}

/** Spans of these monitors' incidents open at or after `since`, 500 monitors to a statement. */
export async function incidentSpansSince(db: Database, monitorIds: number[], since: number): Promise<IncidentSpan[]> {
  const out: IncidentSpan[] = [];
  for (let i = 0; i < monitorIds.length; i += 500) {
    const part = monitorIds.slice(i, i + 500);
    out.push(...(await readSpans(db, `${inList(part)} AND (ended_at IS NULL OR ended_at >= ?)`, [...part, since])));
  }
  return out;
}

/**
 * Spans of the public monitors' incidents open at or after `since`: the saved status page's, read
 * without waiting for the list of its services (the monitors' partial index, migration PublicMonitors).
 */
export function publicIncidentSpansSince(db: Database, since: number): Promise<IncidentSpan[]> {
  return readSpans(
    db,
    'monitor_id IN (SELECT id FROM monitors WHERE public = 1) AND (ended_at IS NULL OR ended_at >= ?)',
    [since],
  );
}

/** Spans of these monitors' incidents that started in [from, to), newest first. */
export function incidentSpansStarted(
  db: Database,
  monitorIds: number[],
  from: number,
  to: number,
): Promise<IncidentSpan[]> {
  return db.read<IncidentSpan[]>(
    `${SPAN} WHERE ${inList(monitorIds)} AND started_at >= ? AND started_at < ? ORDER BY started_at DESC, id DESC`,
    [...monitorIds, from, to],
  );
}

/** When the oldest incident of these monitors started, or null. */
export async function firstIncidentStart(db: Database, monitorIds: number[]): Promise<number | null> {
  const rows = await db.read<{ t: number | null }[]>(
    `SELECT MIN(started_at) AS t FROM incidents WHERE ${inList(monitorIds)}`,
    monitorIds,
  );
  return rows[0]?.t ?? null;
}

/** The newest incidents of these monitors by start, at most `limit`, with their ids (the status feeds). */
export function latestIncidentSpans(
  db: Database,
  monitorIds: number[],
  limit: number,
): Promise<(IncidentSpan & { id: number })[]> {
  return db.read<(IncidentSpan & { id: number })[]>(
    `SELECT id, monitor_id AS key, started_at, ended_at FROM incidents WHERE ${inList(monitorIds)}
     ORDER BY started_at DESC, id DESC LIMIT ?`,
    [...monitorIds, limit],
  );
}
