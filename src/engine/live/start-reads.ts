/**
 * The engine's big reads at start: each monitor's row, its state row and its newest stored check
 * (10,000 monitors: about 130 ms of SQLite, in its worker thread), and the last results of each
 * probe location that checks a monitor (a seek per monitor and location; none when all are local). main.ts starts them as soon as
 * the database is open and hands them to the engine through AppDeps, so SQLite runs them while
 * the main thread wires the service; without them (tests) the engine starts its own.
 *
 * Nothing writes these tables before the engine starts (sealing clear-text secrets at start
 * changes how a value is stored, not what it opens to).
 */
import type { Database } from '../../db/database';
import { MonitorRow, startReadMonitorRows } from '../../catalog/monitors.repository';
import { LatestCheck, startLatestChecks, startReadLocalTrackChecks } from '../../history/latest-checks';
import { startReadStoredStates, StoredStateRow } from '../../catalog/monitor-state.table';
import { startReadTrackResults, TrackResultRow } from '../../catalog/location-results.table';

export const ENGINE_START_READS = Symbol('EngineStartReads');

export interface EngineStartReads {
  latest: Promise<LatestCheck[]>;
  monitors: Promise<MonitorRow[]>;
  states: Promise<StoredStateRow[]>;
  /** The last counted results of each probe location, for its track (engine/locations/location-votes.ts). */
  tracks: Promise<TrackResultRow[]>;
  /** The same of the service's own checks (`local`), for the monitors judged by quorum. */
  localTracks: Promise<TrackResultRow[]>;
}

/** Resolves once SQLite runs all three reads; their answers come later. */
export async function startEngineReads(db: Database): Promise<EngineStartReads> {
  const [latest, monitors, states, tracks, localTracks] = await Promise.all([
    startLatestChecks(db),
    startReadMonitorRows(db),
    startReadStoredStates(db),
    startReadTrackResults(db),
    startReadLocalTrackChecks(db),
  ]);
  const reads = {
    latest: latest.rows,
    monitors: monitors.rows,
    states: states.rows,
    tracks: tracks.rows,
    localTracks: localTracks.rows,
  };
  // Awaited by the engine's start; a start that fails before it must not leave them unhandled.
  for (const p of Object.values(reads)) p.catch(() => undefined);
  return reads;
}
