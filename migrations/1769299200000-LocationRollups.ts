import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-location rollups (issue 41, docs/agents.md "History per location"): the hourly and daily
 * rollups of agents' results, in the very columns of `rollup_hour` and `rollup_day` (the same
 * accounting, src/history/rollup-math.ts) keyed by monitor, location and hour (or local day).
 * They are written in the transaction that stores the results they come from
 * (src/locations/agent/agent.service.ts), pruned with the monitor's rollups, and deleted with the
 * monitor or the location. Nothing is rebuilt from results stored before it: `location_results`
 * came with the previous migration of the same, unreleased version (1769212800000).
 */
export class LocationRollups1769299200000 implements MigrationInterface {
  name = 'LocationRollups1769299200000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, key] of [
      ['location_rollup_hour', 'hour'],
      ['location_rollup_day', 'day'],
    ]) {
      await q.query(`CREATE TABLE ${table} (
        monitor_id INTEGER NOT NULL,
        location_id INTEGER NOT NULL,
        ${key} INTEGER NOT NULL,
        up_ms INTEGER NOT NULL DEFAULT 0,
        down_ms INTEGER NOT NULL DEFAULT 0,
        unknown_ms INTEGER NOT NULL DEFAULT 0,
        maint_ms INTEGER NOT NULL DEFAULT 0,
        n_up INTEGER NOT NULL DEFAULT 0,
        n_slow INTEGER NOT NULL DEFAULT 0,
        n_down INTEGER NOT NULL DEFAULT 0,
        n_unknown INTEGER NOT NULL DEFAULT 0,
        n_maint INTEGER NOT NULL DEFAULT 0,
        lat_n INTEGER NOT NULL DEFAULT 0,
        lat_sum INTEGER NOT NULL DEFAULT 0,
        lat_min INTEGER,
        lat_max INTEGER,
        hist BLOB,
        PRIMARY KEY (monitor_id, location_id, ${key})
      ) WITHOUT ROWID`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE location_rollup_day');
    await q.query('DROP TABLE location_rollup_hour');
  }
}
