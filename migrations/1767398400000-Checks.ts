import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Raw check results, designed for size (docs/storage.md): a WITHOUT ROWID table keyed by
 * (monitor_id, at), so the primary key is the only index; outcome and error are small integer
 * codes; the text of an error lives only on rows that failed or were not counted.
 * No foreign key: the writer may still hold results of a monitor deleted a moment ago, and a
 * deletion removes the monitor's rows itself.
 */
export class Checks1767398400000 implements MigrationInterface {
  name = 'Checks1767398400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE checks (
      monitor_id INTEGER NOT NULL,
      at INTEGER NOT NULL,
      outcome INTEGER NOT NULL,
      latency INTEGER,
      dns INTEGER,
      conn INTEGER,
      tls INTEGER,
      ttfb INTEGER,
      status INTEGER,
      error INTEGER,
      info TEXT,
      PRIMARY KEY (monitor_id, at)
    ) WITHOUT ROWID`);
    // Failures across all monitors, newest first (GET /checks?outcome=down): a partial index, so it
    // costs nothing for the good checks that make up nearly every row.
    await q.query('CREATE INDEX checks_down ON checks (at, monitor_id) WHERE outcome = 2');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE checks');
  }
}
