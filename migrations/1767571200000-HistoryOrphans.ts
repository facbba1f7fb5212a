import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Before 0.1.1 deleting a monitor removed its check rows but not its hourly and daily rollups, and
 * a flush racing the deletion could bring rows back. Those orphans are removed once here; the
 * deletion and the writer now keep history and monitors in step.
 */
export class HistoryOrphans1767571200000 implements MigrationInterface {
  name = 'HistoryOrphans1767571200000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['checks', 'rollup_hour', 'rollup_day']) {
      await q.query(`DELETE FROM ${table} WHERE monitor_id NOT IN (SELECT id FROM monitors)`);
    }
  }

  async down(): Promise<void> {
    // Nothing to restore: the rows belonged to monitors that no longer exist.
  }
}
