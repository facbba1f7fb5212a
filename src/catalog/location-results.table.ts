/**
 * The `location_results` table: what agents sent (docs/agents.md), one row per result in the very
 * shape of a `checks` row (src/history/check-row.ts) plus its location. Written only by the agent
 * results route, in the transaction that answers the agent (durable before acknowledged); read by
 * the monitor's checks, series and stats when they are asked for a location, and at start by the
 * engine, which rebuilds each location's track from the last counted ones.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { startReadRows, StartedRead } from '../db/bulk-read';

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

/** A monitor's results from one location, newest first, before `before` (epoch ms), of one outcome code or all, at most `limit`. */
export function locationResults(
  db: Database,
  monitorId: number,
  locationId: number,
  before: number | null,
  outcome: number | null,
  limit: number,
): Promise<LocationResultRow[]> {
  return db.read<LocationResultRow[]>(
    `SELECT ${COLUMNS.join(', ')} FROM location_results
      WHERE monitor_id = ? AND location_id = ? AND at < ? ${outcome === null ? '' : 'AND outcome = ?'}
      ORDER BY at DESC LIMIT ?`,
    [monitorId, locationId, before ?? Number.MAX_SAFE_INTEGER, ...(outcome === null ? [] : [outcome]), limit],
  );
}

/** Results older than `before` go (retention), and those of a deleted monitor. */
export async function pruneLocationResultsIn(m: EntityManager, before: number): Promise<void> {
  await m.query('DELETE FROM location_results WHERE at < ?', [before]);
  await m.query('DELETE FROM location_results WHERE monitor_id NOT IN (SELECT id FROM monitors)');
}

/** A counted result read back at start for a location's track: a row's columns and its location's name. */
export type TrackResultRow = Pick<LocationResultRow, 'monitor_id' | 'at' | 'outcome' | 'latency' | 'error' | 'info'> & {
  name: string;
};

/**
 * For every monitor and each location it lists (not `local`), its last confirm_after +
 * recover_after counted results (a note in `info` marks one that was history only: blind, late),
 * enough to rebuild the location's confirmed status and the runs toward its next change
 * (engine/locations/location-votes.ts restore()). Resolves once SQLite runs the read. Each step
 * of the walk is one seek back through the primary key (monitor_id, location_id, at) from the
 * result before, so the read costs (monitors × locations × results kept), never the history's
 * length (SQLite takes no per-row LIMIT, hence the walk). Unordered: the caller orders by time.
 */
export function startReadTrackResults(db: Database): Promise<StartedRead<TrackResultRow>> {
  const before = (walk: string, below: boolean) =>
    `(SELECT x.at FROM location_results x
       WHERE x.monitor_id = ${walk}.monitor_id AND x.location_id = ${walk}.location_id ${below ? `AND x.at < ${walk}.at` : ''}
         AND (x.info IS NULL OR json_extract(x.info, '$.n') IS NULL)
       ORDER BY x.at DESC LIMIT 1)`;
  return startReadRows<TrackResultRow>(
    db,
    ['monitor_id', 'name', 'at', 'outcome', 'latency', 'error', 'info'],
    `FROM (WITH RECURSIVE
       pairs(monitor_id, location_id, name, w) AS (
         SELECT m.id, l.id, l.name, m.confirm_after + m.recover_after
           FROM monitors m CROSS JOIN json_each(m.locations) j CROSS JOIN locations l
          WHERE m.locations <> '["local"]' AND l.name = j.value),
       walk(monitor_id, location_id, name, more, at) AS (
         SELECT p.monitor_id, p.location_id, p.name, p.w - 1, ${before('p', false)} FROM pairs p
         UNION ALL
         SELECT w.monitor_id, w.location_id, w.name, w.more - 1, ${before('w', true)}
           FROM walk w WHERE w.more > 0 AND w.at IS NOT NULL)
     SELECT w.monitor_id, w.name, r.at, r.outcome, r.latency, r.error, r.info
       FROM walk w CROSS JOIN location_results r
         ON r.monitor_id = w.monitor_id AND r.location_id = w.location_id AND r.at = w.at)`,
  );
}
