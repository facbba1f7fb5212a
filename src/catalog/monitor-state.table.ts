/**
 * The `monitor_state` table: every statement that reads or writes it, built from one column list.
 * A row is created with its monitor (monitors/), set back to paused or unknown by a pause or a new
 * target, and otherwise written by the engine only, in the writer's transactions (docs/storage.md).
 * The engine's `engine` column (its counters, as JSON) is read back by the engine alone.
 */
import type { EntityManager } from 'typeorm';
import { StartedRead, startReadRows } from '../db/bulk-read';
import type { Database } from '../db/database';
import type { MonitorState } from '../probes/status';

/** A MonitorState's columns, as answers and lists read them. */
export const STATE_COLUMNS = [
  'monitor_id',
  'status',
  'since',
  'failing',
  'flapping',
  'last_check_at',
  'last_ok_at',
  'latency_ms',
  'error_code',
  'error_message',
  'incident_id',
  'cert_expires_at',
  'note',
  'cause_monitor_id',
  'cause_incident_id',
] as const satisfies readonly (keyof MonitorState)[];

// The list above names every field of MonitorState (a compile error otherwise).
const everyField: Record<Exclude<keyof MonitorState, (typeof STATE_COLUMNS)[number]>, never> = {};
void everyField;

/** A `monitor_state` row as stored: the state's columns and the engine's blob. */
export type StoredStateRow = MonitorState & { engine: string | null };

/** Every column of the table: the state's, then the engine's blob. */
const ROW_COLUMNS = [...STATE_COLUMNS, 'engine'] as const;

/** At most this many rows per UPDATE statement (SQLite's limit on bound parameters is 32,766). */
const ROWS_PER_STATEMENT = 500;

/** A new monitor's first state. */
export async function insertStateIn(m: EntityManager, s: MonitorState): Promise<void> {
  await m.query(
    `INSERT OR REPLACE INTO monitor_state (${STATE_COLUMNS.join(', ')}) VALUES (${STATE_COLUMNS.map(() => '?').join(', ')})`,
    STATE_COLUMNS.map((c) => s[c]),
  );
}

/** A pause or a new target: the state starts again (and any open incident ends in the same transaction: engine.endIncidentIn). */
export async function resetStateIn(
  m: EntityManager,
  id: number,
  status: MonitorState['status'],
  since: number,
): Promise<void> {
  await m.query(
    'UPDATE monitor_state SET status = ?, since = ?, failing = 0, incident_id = NULL, cause_monitor_id = NULL, cause_incident_id = NULL WHERE monitor_id = ?',
    [status, since, id],
  );
}

/**
 * The engine's write of the states that changed: one statement per 500 monitors rather than one
 * per monitor, since at 10,000 monitors a flush carries a state row for every monitor that had a result.
 */
export async function writeStatesIn(tx: EntityManager, rows: readonly StoredStateRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    await tx.query(
      `WITH v(${ROW_COLUMNS.join(', ')}) AS (VALUES ${part.map(() => UPDATE_VALUES).join(', ')})
       UPDATE monitor_state SET ${UPDATE_SET}
       FROM v WHERE monitor_state.monitor_id = v.monitor_id`,
      part.flatMap((r) => ROW_COLUMNS.map((c) => r[c])),
    );
  }
}

const UPDATE_VALUES = `(${ROW_COLUMNS.map(() => '?').join(', ')})`;
const UPDATE_SET = ROW_COLUMNS.slice(1)
  .map((c) => `${c} = v.${c}`)
  .join(', ');

/** One monitor's stored state, or null. */
export async function stateRowOf(m: EntityManager, id: number): Promise<MonitorState | null> {
  const rows = await m.query<MonitorState[]>(
    `SELECT ${STATE_COLUMNS.join(', ')} FROM monitor_state WHERE monitor_id = ?`,
    [id],
  );
  return rows[0] ?? null;
}

/** Every monitor's stored state (without the engine's blob). */
export function stateRows(db: Database): Promise<MonitorState[]> {
  return db.read<MonitorState[]>(`SELECT ${STATE_COLUMNS.join(', ')} FROM monitor_state`);
}

/** The engine's start: every row, blob included, as one bulk read (db/bulk-read.ts). */
export function startReadStoredStates(db: Database): Promise<StartedRead<StoredStateRow>> {
  return startReadRows<StoredStateRow>(db, ROW_COLUMNS, 'FROM monitor_state');
}

/** The state columns for a SELECT joined to `monitors m` as `s`, each named `s_<column>` (splitState reads them back). */
export const LISTED_STATE_COLUMNS = STATE_COLUMNS.map((c) => `s.${c} AS s_${c}`).join(', ');
export const JOIN_STATE = 'JOIN monitor_state s ON s.monitor_id = m.id';

/** The state of a row selected with LISTED_STATE_COLUMNS. */
export function splitState(row: Record<string, unknown>): MonitorState {
  return Object.fromEntries(STATE_COLUMNS.map((c) => [c, row[`s_${c}`]])) as unknown as MonitorState;
}
