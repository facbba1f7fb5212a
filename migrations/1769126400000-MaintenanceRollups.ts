import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Time in maintenance counts neither as up nor as down (docs/maintenance.md, "Uptime"): the
 * rollups gain `maint_ms` (how long checks made while a window held the monitor held) and
 * `n_maint` (how many such checks), beside the up, down and unknown ones. Rows written before
 * this migration get 0 for both: their checks were counted as up or down, as they were then.
 */
export class MaintenanceRollups1769126400000 implements MigrationInterface {
  name = 'MaintenanceRollups1769126400000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['rollup_hour', 'rollup_day']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN maint_ms INTEGER NOT NULL DEFAULT 0`);
      await q.query(`ALTER TABLE ${table} ADD COLUMN n_maint INTEGER NOT NULL DEFAULT 0`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['rollup_hour', 'rollup_day']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN n_maint`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN maint_ms`);
    }
  }
}
