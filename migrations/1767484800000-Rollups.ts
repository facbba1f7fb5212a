import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hourly and daily rollups of check results, upserted by the writer in the same transaction as
 * the rows they summarise. Times: `up_ms`, `down_ms`, `unknown_ms` (how long each outcome held,
 * docs/storage.md); counts per outcome; latency sum, count, min, max and a sparse log-bucket
 * histogram (varint pairs, latency-histogram.ts) for percentiles. Days are local days of the configured time zone.
 */
export class Rollups1767484800000 implements MigrationInterface {
  name = 'Rollups1767484800000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, key] of [
      ['rollup_hour', 'hour'],
      ['rollup_day', 'day'],
    ]) {
      await q.query(`CREATE TABLE ${table} (
        monitor_id INTEGER NOT NULL,
        ${key} INTEGER NOT NULL,
        up_ms INTEGER NOT NULL DEFAULT 0,
        down_ms INTEGER NOT NULL DEFAULT 0,
        unknown_ms INTEGER NOT NULL DEFAULT 0,
        n_up INTEGER NOT NULL DEFAULT 0,
        n_slow INTEGER NOT NULL DEFAULT 0,
        n_down INTEGER NOT NULL DEFAULT 0,
        n_unknown INTEGER NOT NULL DEFAULT 0,
        lat_n INTEGER NOT NULL DEFAULT 0,
        lat_sum INTEGER NOT NULL DEFAULT 0,
        lat_min INTEGER,
        lat_max INTEGER,
        hist BLOB,
        PRIMARY KEY (monitor_id, ${key})
      ) WITHOUT ROWID`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rollup_day');
    await q.query('DROP TABLE rollup_hour');
  }
}
