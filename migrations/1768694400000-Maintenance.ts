import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Maintenance windows (issue 36, docs/maintenance.md). `monitors` is a JSON array of monitor ids
 * or NULL for every monitor; `schedule` the checked schedule as JSON (a once window's times as
 * epoch ms). The three times the owner sets by hand: `manual_start`/`manual_end` (POST start:
 * active from then until `manual_end`, or until stopped when NULL), `stopped_until` (POST stop
 * during a scheduled occurrence: that occurrence stays over) and `ended_at` (the last end by hand).
 */
export class Maintenance1768694400000 implements MigrationInterface {
  name = 'Maintenance1768694400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE maintenance_windows (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      title TEXT NOT NULL,
      description TEXT,
      monitors TEXT,
      schedule TEXT NOT NULL,
      public INTEGER NOT NULL DEFAULT 1,
      announce_h INTEGER NOT NULL DEFAULT 24,
      manual_start INTEGER,
      manual_end INTEGER,
      stopped_until INTEGER,
      ended_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE maintenance_windows`);
  }
}
