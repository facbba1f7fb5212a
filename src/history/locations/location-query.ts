/**
 * `?location=` on a monitor's checks, series, uptime and stats (docs/agents.md, "History per
 * location"): one reading of it for them all. Absent, empty or `local` (in any case, as names are)
 * is the service's own checks; any other value must be the name of an existing location, else a
 * 422 on `location`, whatever its shape (a repeated parameter, brackets, a long or strange text).
 * A location that exists but is not (or no longer) assigned to the monitor answers what it stored
 * for it, which may be nothing: history outlives an assignment.
 */
import { LOCAL_NAME, locationByName } from '../../catalog/locations.table';
import { invalidField } from '../../common/http/api-error';
import type { Database } from '../../db/database';

export interface ChosenLocation {
  id: number;
  /** As stored (a query in another case answers with the location's own name). */
  name: string;
}

/** null: the service's own checks; else the location asked for. */
export async function locationQuery(db: Database, raw: unknown): Promise<ChosenLocation | null> {
  if (raw === undefined || raw === '' || (typeof raw === 'string' && raw.toLowerCase() === LOCAL_NAME)) return null;
  // Any text is looked up as it is (the request head's limits bound its length): none but a name matches.
  const found = typeof raw === 'string' ? await locationByName(db, raw) : null;
  if (found === null)
    throw invalidField('location', 'must be the name of a probe location (GET /api/v1/locations), or local');
  return found;
}
