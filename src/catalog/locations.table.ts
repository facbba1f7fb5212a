/**
 * The `locations` table (docs/agents.md): every statement that reads or writes it. `local` (id 0)
 * is the service itself and has no row. Reads go through Database.read() (committed rows only);
 * writes take the caller's transaction. The token is stored only as its SHA-256.
 */
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/http/api-error';
import type { Database } from '../db/database';

/** The service's own location: id 0 in `monitors.locations`, never a row. */
export const LOCAL_ID = 0;
export const LOCAL_NAME = 'local';

export interface LocationRow {
  id: number;
  name: string;
  token_hash: string;
  created_at: number;
  last_seen_at: number | null;
  version: string | null;
  address: string | null;
  acked_seq: number;
}

const COLUMNS = 'id, name, token_hash, created_at, last_seen_at, version, address, acked_seq';

/** Names are unique without regard to case ("VPS" and "vps" are one name). */
export function nameKey(name: string): string {
  return name.toLowerCase();
}

export function allLocations(db: Database): Promise<LocationRow[]> {
  return db.read<LocationRow[]>(`SELECT ${COLUMNS} FROM locations ORDER BY id`);
}

export async function locationByIdIn(m: EntityManager, id: number): Promise<LocationRow | null> {
  const rows = (await m.query(`SELECT ${COLUMNS} FROM locations WHERE id = ?`, [id])) as LocationRow[];
  return rows[0] ?? null;
}

export async function locationByHash(db: Database, hash: string): Promise<LocationRow | null> {
  return (await db.read<LocationRow[]>(`SELECT ${COLUMNS} FROM locations WHERE token_hash = ?`, [hash]))[0] ?? null;
}

/** The id of the location with this name (any case), or null. */
export async function locationIdByNameIn(m: EntityManager, name: string): Promise<number | null> {
  const rows = (await m.query('SELECT id FROM locations WHERE name_key = ?', [nameKey(name)])) as { id: number }[];
  return rows[0]?.id ?? null;
}

/** The location with this name (any case), as stored (its name in its own case), or null. */
export async function locationByName(db: Database, name: string): Promise<{ id: number; name: string } | null> {
  const rows = await db.read<{ id: number; name: string }[]>('SELECT id, name FROM locations WHERE name_key = ?', [
    nameKey(name),
  ]);
  return rows[0] ?? null;
}

export async function insertLocationIn(m: EntityManager, name: string, hash: string, now: number): Promise<number> {
  await m.query('INSERT INTO locations (name, name_key, token_hash, created_at) VALUES (?, ?, ?, ?)', [
    name,
    nameKey(name),
    hash,
    now,
  ]);
  const rows = (await m.query('SELECT last_insert_rowid() AS id')) as { id: number }[];
  return rows[0].id;
}

export async function renameLocationIn(m: EntityManager, id: number, name: string): Promise<void> {
  await m.query('UPDATE locations SET name = ?, name_key = ? WHERE id = ?', [name, nameKey(name), id]);
}

export async function setTokenIn(m: EntityManager, id: number, hash: string): Promise<void> {
  await m.query('UPDATE locations SET token_hash = ? WHERE id = ?', [hash, id]);
}

export async function deleteLocationIn(m: EntityManager, id: number): Promise<void> {
  await m.query('DELETE FROM locations WHERE id = ?', [id]);
  // Its history goes with it: results and their rollups (src/history/locations/location-rollups.ts).
  for (const table of ['location_results', 'location_rollup_hour', 'location_rollup_day'])
    await m.query(`DELETE FROM ${table} WHERE location_id = ?`, [id]);
}

/** An agent's contact: when, with which version, from where. */
export async function touchLocationIn(
  m: EntityManager,
  id: number,
  contact: { at: number; version: string | null; address: string | null },
): Promise<void> {
  await m.query(
    'UPDATE locations SET last_seen_at = ?, version = COALESCE(?, version), address = COALESCE(?, address) WHERE id = ?',
    [contact.at, contact.version, contact.address, id],
  );
}

export async function setAckedSeqIn(m: EntityManager, id: number, seq: number): Promise<void> {
  await m.query('UPDATE locations SET acked_seq = ? WHERE id = ? AND acked_seq < ?', [seq, id, seq]);
}

/**
 * A monitor's `locations` name only locations that exist (`local` always does): checked at the one
 * place every monitor write goes through (MonitorsRepository), inside its transaction, so a
 * location deleted meanwhile cannot slip in.
 */
export async function requireLocationsIn(m: EntityManager, names: readonly string[]): Promise<void> {
  const others = names.filter((n) => n !== LOCAL_NAME);
  if (others.length === 0) return;
  const rows = (await m.query(`SELECT name FROM locations WHERE name IN (${others.map(() => '?').join(', ')})`, [
    ...others,
  ])) as { name: string }[];
  const known = new Set(rows.map((r) => r.name));
  const unknown = others.filter((n) => !known.has(n));
  if (unknown.length === 0) return;
  const all = (await m.query('SELECT name FROM locations ORDER BY id')) as { name: string }[];
  const names_ = [LOCAL_NAME, ...all.map((r) => r.name)].map((n) => JSON.stringify(n)).join(', ');
  throw ApiError.invalid([
    {
      field: `locations[${names.indexOf(unknown[0])}]`,
      message: `no location is called ${JSON.stringify(unknown[0])} (there are ${names_}; POST /api/v1/locations adds one)`,
    },
  ]);
}
