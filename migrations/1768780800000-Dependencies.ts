import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitor dependencies (issue 36, docs/dependencies.md): `depends_on`, the ids of the monitors this
 * one depends on, as a JSON array beside `channels`. Every stored monitor depends on nothing. The
 * index of the dependants is the engine's (it holds every monitor), so no table of edges: a row is
 * its own truth, written with the rest of its configuration in one statement.
 */
export class Dependencies1768780800000 implements MigrationInterface {
  name = 'Dependencies1768780800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN depends_on TEXT NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE monitors DROP COLUMN depends_on');
  }
}
