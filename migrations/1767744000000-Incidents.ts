import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Incidents: one row per outage, written by the engine in the same transaction as the state row
 * and the check results that opened, updated or closed it. No foreign key to monitors: a deleted
 * monitor's incidents stay (ended with `deleted`, its name kept). Timeline lines name their incident.
 */
export class Incidents1767744000000 implements MigrationInterface {
  name = 'Incidents1767744000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE incidents (
      id INTEGER PRIMARY KEY,
      monitor_id INTEGER NOT NULL,
      monitor_name TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      down_at INTEGER NOT NULL,
      ended_at INTEGER,
      end_reason TEXT CHECK (end_reason IN ('recovered', 'paused', 'deleted', 'config_changed')),
      cause_code TEXT,
      cause_message TEXT,
      last_error_code TEXT,
      last_error_message TEXT,
      fails INTEGER NOT NULL,
      acknowledged_at INTEGER,
      note TEXT,
      CHECK ((ended_at IS NULL) = (end_reason IS NULL))
    )`);
    await q.query('CREATE INDEX incidents_monitor ON incidents (monitor_id, id)');
    await q.query('CREATE INDEX incidents_open ON incidents (id) WHERE ended_at IS NULL');
    await q.query('ALTER TABLE events ADD COLUMN incident_id INTEGER');
    await q.query('CREATE INDEX events_incident ON events (incident_id, id) WHERE incident_id IS NOT NULL');
    // GET /events reads newest first by time, filtered by kind or monitor.
    await q.query('DROP INDEX events_kind');
    await q.query('DROP INDEX events_monitor');
    await q.query('CREATE INDEX events_kind ON events (kind, at, id)');
    await q.query('CREATE INDEX events_monitor ON events (monitor_id, at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX events_kind');
    await q.query('DROP INDEX events_monitor');
    await q.query('CREATE INDEX events_kind ON events (kind, id)');
    await q.query('CREATE INDEX events_monitor ON events (monitor_id, id)');
    await q.query('DROP INDEX events_incident');
    await q.query('ALTER TABLE events DROP COLUMN incident_id');
    await q.query('DROP TABLE incidents');
  }
}
