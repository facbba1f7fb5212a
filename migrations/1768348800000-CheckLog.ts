import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gentle on SD cards (docs/storage.md, docs/decisions/0001-check-log.md):
 *
 * - `check_log`: check results as the writer commits them, every few seconds. The key starts with
 *   the commit's number (`bucket`), so a commit appends its rows, sorted by monitor, at the end of
 *   the table: two or three pages whatever the monitors, where `checks` (keyed by monitor) would
 *   take a page per monitor. The monitor in second place lets a reader find one monitor's rows
 *   with one seek per bucket. Each monitor's rows move into `checks` about once an hour (a fold:
 *   an hour of results fills most of a page), and buckets whose rows have all moved are dropped.
 * - `check_log_down`: failures in the log, newest first across monitors (GET /checks?outcome=down),
 *   as `checks_down` does for `checks`.
 * - `check_marks`: per monitor, the last bucket whose rows are in `checks` and in the rollups. A
 *   start after a crash accounts again exactly the rows after the mark.
 *
 * No foreign keys, as for `checks`: a deletion removes the monitor's rows itself.
 */
export class CheckLog1768348800000 implements MigrationInterface {
  name = 'CheckLog1768348800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE check_log (
      bucket INTEGER NOT NULL,
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
      PRIMARY KEY (bucket, monitor_id, at)
    ) WITHOUT ROWID`);
    await q.query('CREATE INDEX check_log_down ON check_log (at, monitor_id) WHERE outcome = 2');
    await q.query(`CREATE TABLE check_marks (
      monitor_id INTEGER PRIMARY KEY,
      bucket INTEGER NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE check_marks');
    await q.query('DROP TABLE check_log');
  }
}
