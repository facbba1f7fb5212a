import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerts: channels, the outbox (a message is a row before it is sent; docs/alerts.md) and the
 * delivery log (one row per attempt). Incidents remember their last reminder.
 */
export class Alerts1767830400000 implements MigrationInterface {
  name = 'Alerts1767830400000';

  async up(q: QueryRunner): Promise<void> {
    // AUTOINCREMENT: a deleted channel's id is never reused (monitors and deliveries name it).
    await q.query(`CREATE TABLE channels (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL CHECK (kind IN ('email', 'chat', 'webhook')),
      name TEXT NOT NULL,
      enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
      events TEXT NOT NULL,
      config TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`);
    await q.query(`CREATE TABLE outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      channel_id INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'retrying', 'sent', 'failed')),
      created_at INTEGER NOT NULL,
      due_at INTEGER NOT NULL,
      tries INTEGER NOT NULL DEFAULT 0,
      claimed_at INTEGER,
      done_at INTEGER
    )`);
    await q.query(`CREATE INDEX outbox_due ON outbox (due_at) WHERE state IN ('pending', 'retrying')`);
    await q.query(`CREATE INDEX outbox_batch ON outbox (channel_id) WHERE state = 'pending'`);
    await q.query('CREATE INDEX outbox_done ON outbox (done_at) WHERE done_at IS NOT NULL');
    // A message's events, one row each: adding one to a batch of 1,000 writes one row, not 1,000.
    await q.query(`CREATE TABLE outbox_events (
      id INTEGER PRIMARY KEY,
      outbox_id INTEGER NOT NULL,
      event TEXT NOT NULL,
      monitor_id INTEGER,
      incident_id INTEGER
    )`);
    await q.query('CREATE INDEX outbox_events_message ON outbox_events (outbox_id, id)');
    await q.query(`CREATE TABLE deliveries (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      channel_id INTEGER,
      channel_name TEXT NOT NULL,
      ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
      provider TEXT,
      status INTEGER,
      error TEXT,
      summary TEXT NOT NULL,
      outbox_id INTEGER,
      monitor_ids TEXT,
      email INTEGER NOT NULL DEFAULT 0
    )`);
    await q.query('CREATE INDEX deliveries_channel ON deliveries (channel_id, id)');
    await q.query('CREATE INDEX deliveries_email ON deliveries (at) WHERE email = 1 AND ok = 1');
    await q.query('ALTER TABLE incidents ADD COLUMN reminded_at INTEGER');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE incidents DROP COLUMN reminded_at');
    await q.query('DROP TABLE deliveries');
    await q.query('DROP TABLE outbox_events');
    await q.query('DROP TABLE outbox');
    await q.query('DROP TABLE channels');
  }
}
