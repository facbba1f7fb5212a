import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password sign-in and account security (issue 13):
 * - owner.totp_last_step: the last authenticator time step accepted (a used code cannot be replayed);
 * - sign_in_tickets: the 5-minute, single-use ticket between password and code (hash only);
 * - totp_setups: a replacement authenticator secret waiting for its first code (10 minutes);
 * - sign_in_failures and address_blocks: the throttle (per address, an IPv6 client per /64), kept
 *   on disk so a restart does not lift a block.
 */
export class SignInSecurity1768176000000 implements MigrationInterface {
  name = 'SignInSecurity1768176000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE owner ADD COLUMN totp_last_step INTEGER');
    await q.query(`CREATE TABLE sign_in_tickets (
      id INTEGER PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    )`);
    await q.query(`CREATE TABLE totp_setups (
      id INTEGER PRIMARY KEY,
      setup_hash TEXT NOT NULL UNIQUE,
      session_id INTEGER NOT NULL,
      secret TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    )`);
    await q.query(`CREATE TABLE sign_in_failures (
      id INTEGER PRIMARY KEY,
      bucket TEXT NOT NULL,
      at INTEGER NOT NULL
    )`);
    await q.query('CREATE INDEX sign_in_failures_bucket ON sign_in_failures (bucket, at)');
    await q.query('CREATE INDEX sign_in_failures_at ON sign_in_failures (at)');
    await q.query(`CREATE TABLE address_blocks (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      bucket TEXT NOT NULL,
      blocked_at INTEGER NOT NULL,
      blocked_until INTEGER NOT NULL,
      failures INTEGER NOT NULL,
      reason TEXT NOT NULL CHECK (reason IN ('failures', 'repeated'))
    )`);
    await q.query('CREATE INDEX address_blocks_bucket ON address_blocks (bucket, blocked_at)');
    await q.query('CREATE INDEX address_blocks_until ON address_blocks (blocked_until)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['address_blocks', 'sign_in_failures', 'totp_setups', 'sign_in_tickets'])
      await q.query(`DROP TABLE ${t}`);
    await q.query('ALTER TABLE owner DROP COLUMN totp_last_step');
  }
}
