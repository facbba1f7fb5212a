import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitor dependencies (issue 36, docs/dependencies.md):
 * - `monitors.depends_on`: the ids of the monitors this one depends on, as a JSON array beside
 *   `channels`; every stored monitor depends on nothing. No table of edges: the engine holds every
 *   monitor's list, and a row is written with the rest of its configuration in one statement.
 * - `monitor_state.cause_monitor_id` / `cause_incident_id`: a Down monitor affected by another's
 *   outage, written with its state row (so a restart knows it has no incident of its own).
 * - `incident_affected`: the monitors an incident affected, from when (and until when they left
 *   it: recovered, or released into an incident of their own when the cause recovered).
 */
export class Dependencies1768780800000 implements MigrationInterface {
  name = 'Dependencies1768780800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN depends_on TEXT NOT NULL DEFAULT '[]'`);
    await q.query('ALTER TABLE monitor_state ADD COLUMN cause_monitor_id INTEGER');
    await q.query('ALTER TABLE monitor_state ADD COLUMN cause_incident_id INTEGER');
    await q.query(`CREATE TABLE incident_affected (
      incident_id INTEGER NOT NULL,
      monitor_id INTEGER NOT NULL,
      monitor_name TEXT NOT NULL,
      since INTEGER NOT NULL,
      until INTEGER,
      PRIMARY KEY (incident_id, monitor_id)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE incident_affected');
    await q.query('ALTER TABLE monitor_state DROP COLUMN cause_incident_id');
    await q.query('ALTER TABLE monitor_state DROP COLUMN cause_monitor_id');
    await q.query('ALTER TABLE monitors DROP COLUMN depends_on');
  }
}
