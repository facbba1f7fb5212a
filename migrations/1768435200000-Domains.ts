import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom hosts of the status page (src/hosts/): one row per host ever listed in `hosts`. A host
 * taken off the list keeps its row (active = 0), so its back-off (failures in a row, retry_at)
 * survives a removal and a re-add, as it survives a restart. Certificates and keys are files in
 * the data dir, not rows. Hosts saved before this version start as `checking`.
 */
export class Domains1768435200000 implements MigrationInterface {
  name = 'Domains1768435200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE domains (
      host TEXT PRIMARY KEY,
      active INTEGER NOT NULL CHECK (active IN (0, 1)),
      state TEXT NOT NULL CHECK (state IN ('checking', 'dns_missing', 'dns_elsewhere', 'proxied', 'certificate', 'live', 'failed', 'not_managed')),
      detail TEXT NOT NULL,
      since INTEGER NOT NULL,
      checked_at INTEGER,
      points_at TEXT NOT NULL DEFAULT '[]',
      zone TEXT,
      provider TEXT,
      failures INTEGER NOT NULL DEFAULT 0,
      retry_at INTEGER,
      next_check_at INTEGER,
      updated_at INTEGER NOT NULL
    )`);
    const now = Date.now();
    await q.query(
      `INSERT OR IGNORE INTO domains (host, active, state, detail, since, updated_at)
       SELECT j.value, 1, 'checking', 'waiting for the first check', ?, ?
       FROM status_page, json_each(json_extract(status_page.settings, '$.hosts')) AS j
       WHERE json_valid(status_page.settings) AND json_type(status_page.settings, '$.hosts') = 'array' AND j.type = 'text'`,
      [now, now],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE domains');
  }
}
