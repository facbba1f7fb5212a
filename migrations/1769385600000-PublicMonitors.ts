import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public monitors by an index of their own (docs/performance.md, "Sixteenth round"): every
 * build of the status page, its JSON, badges and feeds starts by reading the public monitors
 * (catalog/monitors.repository.ts, publicServiceRows), which without it scanned every monitor's
 * row: for 100 public monitors, 0.25 ms of SQLite among 1,000 monitors and 3.4-3.7 ms among
 * 10,000, growing with the monitors a page does not show. A partial index holds only the public
 * ones: 0.1-0.15 ms for the same read either way.
 */
export class PublicMonitors1769385600000 implements MigrationInterface {
  name = 'PublicMonitors1769385600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX monitors_public ON monitors (id) WHERE public = 1');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX monitors_public');
  }
}
