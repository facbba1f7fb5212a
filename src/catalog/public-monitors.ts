/**
 * What the status page reads of the `monitors` table (its statements' home is
 * monitors.repository.ts, which exports these too): every monitor's public placement, for the
 * settings' answers, and the public monitors with their live status, for every public build.
 * Both are read as one JSON text (db/bulk-read.ts), since each answer waits for them.
 */
import type { Database } from '../db/database';
import { readSelectRows } from '../db/bulk-read';
import type { MonitorStatus } from '../probes/status';

/** What the status page's settings show of every monitor: its public placement. */
export interface PublicPlacementRow {
  id: number;
  public: number;
  public_name: string | null;
  public_group: string | null;
  sort: number;
}

const PLACEMENT_COLUMNS = [
  'id',
  'public',
  'public_name',
  'public_group',
  'sort',
] as const satisfies readonly (keyof PublicPlacementRow)[];

/**
 * Every monitor's placement, by id: each answer of GET and PUT /status-page lists them all, so
 * they come as one JSON text (db/bulk-read.ts): 1,000 monitors took 2.4 ms from the ask to the
 * rows as row objects.
 */
export function publicPlacementRows(db: Database): Promise<PublicPlacementRow[]> {
  return readSelectRows<PublicPlacementRow>(
    db,
    PLACEMENT_COLUMNS,
    `SELECT ${PLACEMENT_COLUMNS.join(', ')} FROM monitors`,
    'id',
  );
}

/** A monitor the status page may show, with its live status (null before its first check). */
export interface PublicServiceRow {
  id: number;
  name: string;
  public_name: string | null;
  group_name: string | null;
  public_group: string | null;
  sort: number;
  created_at: number;
  paused: number;
  status: MonitorStatus | null;
  public: number;
  kind: string;
  interval_s: number;
  timeout_ms: number;
  grace_s: number | null;
  /** The monitor whose outage this one is affected by (docs/dependencies.md), with its public columns. */
  cause_monitor_id: number | null;
  cause_public: number | null;
  cause_public_name: string | null;
  cause_name: string | null;
}

/** PublicServiceRow's columns, in the order publicServiceSql selects them. */
const PUBLIC_SERVICE_COLUMNS = [
  'id',
  'name',
  'public_name',
  'group_name',
  'public_group',
  'sort',
  'created_at',
  'paused',
  'status',
  'public',
  'kind',
  'interval_s',
  'timeout_ms',
  'grace_s',
  'cause_monitor_id',
  'cause_public',
  'cause_public_name',
  'cause_name',
] as const satisfies readonly (keyof PublicServiceRow)[];

/**
 * The public monitors, plus `alsoIds` (a preview may publish a private one), with their status, by
 * id. Every public build waits for it, so the rows come as one JSON text (db/bulk-read.ts): 100
 * services took 0.62 ms of the main thread as row objects, 0.20 ms this way.
 */
export function publicServiceRows(db: Database, alsoIds: number[]): Promise<PublicServiceRow[]> {
  return readSelectRows<PublicServiceRow>(db, PUBLIC_SERVICE_COLUMNS, publicServiceSql(alsoIds.length), 'id', alsoIds);
}

/**
 * The statement of publicServiceRows (unordered). Every public build starts with it, so the public
 * monitors are found through their partial index (migration PublicMonitors), never by reading
 * every monitor's row; a preview's extra ids are looked up by id beside them.
 */
export function publicServiceSql(extra: number): string {
  const which = extra
    ? `m.id IN (SELECT id FROM monitors WHERE public = 1) OR m.id IN (${Array(extra).fill('?').join(', ')})`
    : 'm.public = 1';
  return `SELECT m.id, m.name, m.public_name, m.group_name, m.public_group, m.sort, m.created_at, m.paused, s.status, m.public,
            m.kind, m.interval_s, m.timeout_ms, CASE WHEN m.kind = 'heartbeat' THEN json_extract(m.settings, '$.grace_s') END AS grace_s,
            s.cause_monitor_id, c.public AS cause_public, c.public_name AS cause_public_name, c.name AS cause_name
     FROM monitors m LEFT JOIN monitor_state s ON s.monitor_id = m.id LEFT JOIN monitors c ON c.id = s.cause_monitor_id
     WHERE ${which}`;
}
