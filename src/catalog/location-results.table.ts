/**
 * The `location_results` table: what agents sent (docs/agents.md), one row per result in the very
 * shape of a `checks` row (src/history/check-row.ts) plus its location. Written only by the agent
 * results route, in the transaction that answers the agent (durable before acknowledged); read by
 * the monitor's checks, series and stats when they are asked for a location.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';

/** A row as stored (the columns of a `checks` row, and the location). */
export interface LocationResultRow {
  monitor_id: number;
  location_id: number;
  at: number;
  outcome: number;
  latency: number | null;
  dns: number | null;
  conn: number | null;
  tls: number | null;
  ttfb: number | null;
  status: number | null;
  error: number | null;
  info: string | null;
}

const COLUMNS = [
  'monitor_id',
  'location_id',
  'at',
  'outcome',
  'latency',
  'dns',
  'conn',
  'tls',
  'ttfb',
  'status',
  'error',
  'info',
] as const;
/** SQLite's limit on bound parameters is 32,766: 500 rows of 12 stay far below it. */
const ROWS_PER_INSERT = 500;

/** A result sent twice (the same monitor, location and time) is stored once: the later copy wins. */
export async function insertLocationResultsIn(m: EntityManager, rows: readonly LocationResultRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT);
    await m.query(
      `INSERT OR REPLACE INTO location_results (${COLUMNS.join(', ')}) VALUES ${part
        .map(() => `(${COLUMNS.map(() => '?').join(', ')})`)
        .join(', ')}`,
      part.flatMap((r) => COLUMNS.map((c) => r[c])),
    );
  }
}

/** A monitor's results from one location, newest first, before `before` (epoch ms), at most `limit`. */
export function locationResults(
  db: Database,
  monitorId: number,
  locationId: number,
  from: number,
  before: number,
  limit: number,
): Promise<LocationResultRow[]> {
  return db.read<LocationResultRow[]>(
    `SELECT ${COLUMNS.join(', ')} FROM location_results
      WHERE monitor_id = ? AND location_id = ? AND at >= ? AND at < ? ORDER BY at DESC LIMIT ?`,
    [monitorId, locationId, from, before, limit],
  );
}

/** The newest result of every (monitor, location) pair: the per-location state after a restart. */
export function latestLocationResults(db: Database): Promise<LocationResultRow[]> {
  return db.read<LocationResultRow[]>(
    `SELECT r.${COLUMNS.join(', r.')} FROM location_results r
      JOIN (SELECT monitor_id, location_id, MAX(at) AS at FROM location_results GROUP BY monitor_id, location_id) n
        ON n.monitor_id = r.monitor_id AND n.location_id = r.location_id AND n.at = r.at`,
  );
}

/** Results older than `before` go (retention), and those of a deleted monitor. */
export async function pruneLocationResultsIn(m: EntityManager, before: number): Promise<void> {
  await m.query('DELETE FROM location_results WHERE at < ?', [before]);
  await m.query('DELETE FROM location_results WHERE monitor_id NOT IN (SELECT id FROM monitors)');
}
