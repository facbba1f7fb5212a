import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The owner's passkeys (WebAuthn credentials): the public key and signature counter the server
 * checks each assertion against, the owner's label, and when each was last used.
 */
export class Passkeys1768089600000 implements MigrationInterface {
  name = 'Passkeys1768089600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE passkeys (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      credential_id TEXT NOT NULL UNIQUE,
      public_key BLOB NOT NULL,
      counter INTEGER NOT NULL DEFAULT 0,
      transports TEXT,
      backed_up INTEGER NOT NULL DEFAULT 0 CHECK (backed_up IN (0, 1)),
      label TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE passkeys');
  }
}
