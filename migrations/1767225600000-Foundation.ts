import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owner, sign-in links, sessions, API keys, settings, idempotency records and the timeline.
 * Times are epoch milliseconds (INTEGER). Secrets that only need comparing are stored as hashes.
 */
export class Foundation1767225600000 implements MigrationInterface {
  name = 'Foundation1767225600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE owner (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      email TEXT NOT NULL,
      password_hash TEXT NOT NULL,
      totp_secret TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`);
    await q.query(`CREATE TABLE recovery_codes (
      id INTEGER PRIMARY KEY,
      code_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      used_at INTEGER
    )`);
    await q.query(`CREATE TABLE link_tokens (
      id INTEGER PRIMARY KEY,
      purpose TEXT NOT NULL CHECK (purpose IN ('setup', 'enroll', 'reset')),
      token_hash TEXT NOT NULL UNIQUE,
      totp_secret TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    )`);
    await q.query(`CREATE TABLE sessions (
      id INTEGER PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      method TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      seen_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      fresh_until INTEGER NOT NULL,
      ip TEXT,
      device TEXT
    )`);
    await q.query(`CREATE TABLE api_keys (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      scope TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
      key_hash TEXT NOT NULL UNIQUE,
      prefix TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      last_used_at INTEGER,
      last_ip TEXT
    )`);
    await q.query(`CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    )`);
    await q.query(`CREATE TABLE idempotency (
      caller TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      status INTEGER NOT NULL,
      body TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (caller, key)
    ) WITHOUT ROWID`);
    await q.query(`CREATE INDEX idempotency_created ON idempotency (created_at)`);
    await q.query(`CREATE TABLE events (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      kind TEXT NOT NULL,
      monitor_id INTEGER,
      actor TEXT,
      text TEXT NOT NULL,
      data TEXT
    )`);
    await q.query(`CREATE INDEX events_monitor ON events (monitor_id, id)`);
    await q.query(`CREATE INDEX events_kind ON events (kind, id)`);
    await q.query(`CREATE INDEX events_at ON events (at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'events',
      'idempotency',
      'settings',
      'api_keys',
      'sessions',
      'link_tokens',
      'recovery_codes',
      'owner',
    ]) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
