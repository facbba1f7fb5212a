/**
 * The `incident_affected` table (docs/dependencies.md): the monitors an incident affected (they
 * went Down while the incident's monitor, which they depend on, was Down), from when, and until
 * when. Written by the engine's journal in the writer's transactions, with the state rows that say
 * the same; read by the incident answers.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database';
import { toIso } from '../common/time';

export interface AffectedRow {
  incident_id: number;
  monitor_id: number;
  monitor_name: string;
  since: number;
  /** When it left the incident (it recovered, or the cause recovered and it got its own), or null. */
  until: number | null;
}

/** An incident answer's `affected` entry. */
export interface AffectedAnswer {
  monitor_id: number;
  name: string;
  since: string;
  until: string | null;
}

/** A join, or a leave (`until` set): a join is inserted, a leave updates the row it ends. */
export async function writeAffectedIn(tx: EntityManager, rows: readonly AffectedRow[]): Promise<void> {
  for (const r of rows) {
    await tx.query(
      `INSERT INTO incident_affected (incident_id, monitor_id, monitor_name, since, until) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (incident_id, monitor_id) DO UPDATE SET until = excluded.until, monitor_name = excluded.monitor_name`,
      [r.incident_id, r.monitor_id, r.monitor_name, r.since, r.until],
    );
  }
}

/** The affected monitors of these incidents, in the order they joined, by incident id. */
export async function affectedOf(db: Database, incidentIds: readonly number[]): Promise<Map<number, AffectedAnswer[]>> {
  const out = new Map<number, AffectedAnswer[]>(incidentIds.map((id) => [id, []]));
  for (let i = 0; i < incidentIds.length; i += 500) {
    const part = incidentIds.slice(i, i + 500);
    const rows = await db.read<AffectedRow[]>(
      `SELECT incident_id, monitor_id, monitor_name, since, until FROM incident_affected
       WHERE incident_id IN (${part.map(() => '?').join(', ')}) ORDER BY since, monitor_id`,
      part,
    );
    for (const r of rows)
      out.get(r.incident_id)?.push({
        monitor_id: r.monitor_id,
        name: r.monitor_name,
        since: toIso(r.since)!,
        until: toIso(r.until),
      });
  }
  return out;
}

/** The names of the monitors still in an incident (joined, not left), in the order they joined: a reminder names them. */
export async function stillAffectedNames(db: Database, incidentId: number): Promise<string[]> {
  const rows = await db.read<{ monitor_name: string }[]>(
    'SELECT monitor_name FROM incident_affected WHERE incident_id = ? AND until IS NULL ORDER BY since, monitor_id',
    [incidentId],
  );
  return rows.map((r) => r.monitor_name);
}
