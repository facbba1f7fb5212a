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

/** confirm_after + recover_after at most (each 1-10): how many results a track is rebuilt from. */
const TRACK_RESULTS_MAX = 20;

/**
 * SQL: the time of the w-th newest counted result (no note `n` in `info`) in `table` whose rows
 * match `x.<column> = <outer>` for each [column, outer] of `keys`, or 0 when there are fewer.
 * SQLite takes no LIMIT or OFFSET from an outer row, so each w of 2 to TRACK_RESULTS_MAX has its
 * own branch (only the one taken runs): one seek through the primary key, then w steps back.
 * Measured on 10,000 monitors × 2 locations × 30 results: 20 ms of SQLite, against 65 ms for a
 * recursive walk of one seek per result.
 */
export function lastCountedFrom(table: string, keys: readonly [string, string][], w: string): string {
  const match = keys.map(([column, outer]) => `x.${column} = ${outer}`).join(' AND ');
  const branch = (n: number) =>
    `WHEN ${n} THEN (SELECT x.at FROM ${table} x WHERE ${match}
       AND (x.info IS NULL OR json_extract(x.info, '$.n') IS NULL) ORDER BY x.at DESC LIMIT 1 OFFSET ${n - 1})`;
  const all = Array.from({ length: TRACK_RESULTS_MAX - 1 }, (_, i) => branch(i + 2)).join('\n');
  return `coalesce(CASE min(max(${w}, 2), ${TRACK_RESULTS_MAX}) ${all} END, 0)`;
}

/**
 * For every monitor and each location it lists (not `local`), its results from its last
 * confirm_after + recover_after counted ones on (a note in `info` marks one that was history
 * only: blind, late; the caller skips those), enough to rebuild the location's confirmed status
 * and the runs toward its next change (engine/locations/location-votes.ts restore()). Resolves
 * once SQLite runs the read, which costs a seek and a few steps per monitor and location, never
 * the history's length. Unordered: the caller orders by time.
 */
export function startReadTrackResults(db: Database): Promise<StartedRead<TrackResultRow>> {
  const from = lastCountedFrom(
    'location_results',
    [
      ['monitor_id', 'p.monitor_id'],
      ['location_id', 'p.location_id'],
    ],
    'p.w',
  );
  return startReadRows<TrackResultRow>(
    db,
    ['monitor_id', 'name', 'at', 'outcome', 'latency', 'error', 'info'],
    `FROM (WITH
       pairs(monitor_id, location_id, name, w) AS (
         SELECT m.id, l.id, l.name, m.confirm_after + m.recover_after
           FROM monitors m CROSS JOIN json_each(m.locations) j CROSS JOIN locations l
          WHERE m.locations <> '["local"]' AND l.name = j.value),
       froms(monitor_id, location_id, name, from_at) AS (
         SELECT p.monitor_id, p.location_id, p.name, ${from} FROM pairs p)
     SELECT f.monitor_id, f.name, r.at, r.outcome, r.latency, r.error, r.info
       FROM froms f CROSS JOIN location_results r
         ON r.monitor_id = f.monitor_id AND r.location_id = f.location_id AND r.at >= f.from_at)`,
  );
}
