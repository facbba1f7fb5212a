import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public status page: one row of settings (JSON, keys of src/status/settings/look.ts; a missing key
 * means its default), and the uploaded logo and the home-screen icon made from it, kept in the
 * database so a backup holds them and an upload is one transaction. `v` is a hash of the bytes:
 * it names the version in URLs (`?v=`) and in `logo=<v>` of the icon upload.
 */
export class StatusPage1767916800000 implements MigrationInterface {
  name = 'StatusPage1767916800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE status_page (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      settings TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    )`);
    await q.query(`CREATE TABLE status_assets (
      kind TEXT PRIMARY KEY CHECK (kind IN ('logo', 'icon')),
      type TEXT NOT NULL,
      data BLOB NOT NULL,
      v TEXT NOT NULL,
      width INTEGER,
      height INTEGER,
      logo_v TEXT,
      created_at INTEGER NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE status_assets');
    await q.query('DROP TABLE status_page');
  }
}
