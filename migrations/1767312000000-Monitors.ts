import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitors and their live state. Common settings are columns (filters and the scheduler read
 * them); the kind's settings are one JSON column. The state row is written by the check engine.
 */
export class Monitors1767312000000 implements MigrationInterface {
  name = 'Monitors1767312000000';

  async up(q: QueryRunner): Promise<void> {
    // AUTOINCREMENT: a deleted monitor's id is never reused, so old timeline lines and incidents
    // can never be mistaken for a new monitor's.
    await q.query(`CREATE TABLE monitors (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      slug TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      kind TEXT NOT NULL,
      group_name TEXT,
      tags TEXT NOT NULL DEFAULT '[]',
      description TEXT,
      runbook_url TEXT,
      interval_s INTEGER NOT NULL,
      timeout_ms INTEGER NOT NULL,
      confirm_after INTEGER NOT NULL,
      retry_interval_s INTEGER NOT NULL,
      recover_after INTEGER NOT NULL,
      slow_ms INTEGER,
      slow_after INTEGER NOT NULL,
      alert_on_slow INTEGER NOT NULL DEFAULT 0,
      channels TEXT,
      remind_every_min INTEGER NOT NULL DEFAULT 0,
      paused INTEGER NOT NULL DEFAULT 0,
      muted_until INTEGER,
      public INTEGER NOT NULL DEFAULT 0,
      public_name TEXT,
      public_group TEXT,
      sort INTEGER NOT NULL DEFAULT 0,
      settings TEXT NOT NULL,
      heartbeat_token_hash TEXT UNIQUE,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`);
    await q.query(`CREATE TABLE monitor_state (
      monitor_id INTEGER PRIMARY KEY REFERENCES monitors (id) ON DELETE CASCADE,
      status TEXT NOT NULL,
      since INTEGER NOT NULL,
      failing INTEGER NOT NULL DEFAULT 0,
      flapping INTEGER NOT NULL DEFAULT 0,
      last_check_at INTEGER,
      last_ok_at INTEGER,
      latency_ms INTEGER,
      error_code TEXT,
      error_message TEXT,
      incident_id INTEGER,
      cert_expires_at INTEGER,
      note TEXT,
      engine TEXT
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE monitor_state');
    await q.query('DROP TABLE monitors');
  }
}
