/**
 * What of an agent's stored result the per-location rollups account (location-rollups.ts). Pure.
 *
 * A result stored as history only carries its reason in the row's note (docs/agents.md), and the
 * rollups' rule (rollup-math.ts, spanKind) makes a row with a note unknown time. That is right for
 * a blind agent's result (its own uplink was down: like the service's own blind checks, it says
 * nothing of the target). It is wrong for a result that reached the service late: it is not a vote
 * any more, but it is what the location saw at its time, and often the very thing a location is
 * for (the outage seen from outside while the service itself was cut off). So a late or
 * out-of-order result counts as its outcome, a blind one as unknown.
 */
import type { CheckRow } from '../check-row';
import type { RollupTable } from '../rollup-math';

/** The note of a blind agent's results (the results route writes it): unknown time. */
export const BLIND_NOTE = 'not counted: the agent was blind (its own canaries failed)';

/** The location tables beside each of the monitor's rollup tables. */
export const LOCATION_ROLLUP_TABLES: Record<RollupTable, string> = {
  rollup_hour: 'location_rollup_hour',
  rollup_day: 'location_rollup_day',
};

/** The row as the rollups account it: the note of a late result left out, a blind one's kept. */
export function accountedRow<R extends Pick<CheckRow, 'info'>>(row: R): R {
  // Most rows carry no note at all (good checks have no info): nothing is parsed for them.
  if (row.info === null || !row.info.includes('"n":')) return row;
  const info = JSON.parse(row.info) as Record<string, unknown>;
  if (info.n === BLIND_NOTE) return row;
  delete info.n;
  // Key order is kept, so a maintenance window stays first (check-row.ts, maintenanceOf).
  return { ...row, info: Object.keys(info).length > 0 ? JSON.stringify(info) : null };
}
