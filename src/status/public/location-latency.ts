/**
 * The status page's latency per location (`show_locations`, docs/status-page.md): for each public
 * service checked from more than this service alone, the average response time of its good checks
 * (up or slow) over the last 24 hours from each of its locations, in the order the monitor lists
 * them. `local` is read from the `checks` rows, an agent's location from `location_results`
 * (docs/agents.md); both are range scans of their primary keys (monitor first), so the cost is one
 * day of rows of the few services that have locations. Off by default: location names may say where
 * an owner's boxes are, so the owner opts in. `orderLatencies` is pure.
 */
import type { Database } from '../../db/database';

export const LOCATION_WINDOW_MS = 24 * 3600_000;

export interface LocationLatency {
  name: string;
  /** Average of the good checks' latency over the window, rounded; null when there were none. */
  typical_ms: number | null;
}

/** A service's locations in its own order, each with its figure (null when nothing good came from it). */
export function orderLatencies(locations: readonly string[], figures: ReadonlyMap<string, number>): LocationLatency[] {
  return locations.map((name) => {
    const v = figures.get(name);
    return { name, typical_ms: v === undefined ? null : Math.round(v) };
  });
}

/** Whether a monitor's `locations` (its stored JSON text) name a place other than local alone. */
export function placesOf(json: string | null): string[] | null {
  if (json === null) return null;
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) return null;
  return list.length === 0 || (list.length === 1 && list[0] === 'local') ? null : (list as string[]);
}

const GOOD = '(0, 1)'; // OUTCOME_CODE up, slow (src/history/check-row.ts)

/** The figures of the services `keys` that have locations; services without any are left out. */
export async function locationLatencies(
  db: Database,
  keys: readonly number[],
  now: number,
): Promise<Map<number, LocationLatency[]>> {
  const out = new Map<number, LocationLatency[]>();
  const from = now - LOCATION_WINDOW_MS;
  for (let i = 0; i < keys.length; i += 500) {
    const part = keys.slice(i, i + 500);
    const marks = part.map(() => '?').join(', ');
    const monitors = await db.read<{ id: number; locations: string | null }[]>(
      `SELECT id, locations FROM monitors WHERE id IN (${marks})`,
      part,
    );
    const places = new Map<number, string[]>();
    for (const m of monitors) {
      const p = placesOf(m.locations);
      if (p) places.set(m.id, p);
    }
    if (places.size === 0) continue;
    const ids = [...places.keys()];
    const idMarks = ids.map(() => '?').join(', ');
    const [local, remote] = await Promise.all([
      db.read<{ id: number; avg: number | null }[]>(
        `SELECT monitor_id AS id, AVG(latency) AS avg FROM checks
         WHERE monitor_id IN (${idMarks}) AND at >= ? AND outcome IN ${GOOD} AND latency IS NOT NULL GROUP BY monitor_id`,
        [...ids, from],
      ),
      db.read<{ id: number; name: string; avg: number | null }[]>(
        `SELECT r.monitor_id AS id, l.name AS name, AVG(r.latency) AS avg
         FROM location_results r JOIN locations l ON l.id = r.location_id
         WHERE r.monitor_id IN (${idMarks}) AND r.at >= ? AND r.outcome IN ${GOOD} AND r.latency IS NOT NULL
         GROUP BY r.monitor_id, l.name`,
        [...ids, from],
      ),
    ]);
    const figures = new Map<number, Map<string, number>>(ids.map((id) => [id, new Map()]));
    for (const r of local) if (r.avg !== null) figures.get(r.id)?.set('local', r.avg);
    for (const r of remote) if (r.avg !== null) figures.get(r.id)?.set(r.name, r.avg);
    for (const [id, p] of places) out.set(id, orderLatencies(p, figures.get(id)!));
  }
  return out;
}
