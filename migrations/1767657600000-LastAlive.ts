import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The last-alive mark: one row, rewritten every 30 s while the service runs and once more on a
 * clean stop (`clean` = 1). On start, a gap between the mark and now is an offline period.
 */
export class LastAlive1767657600000 implements MigrationInterface {
  name = 'LastAlive1767657600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE last_alive (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      at INTEGER NOT NULL,
      clean INTEGER NOT NULL CHECK (clean IN (0, 1))
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE last_alive');
  }
}
