import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Status page subscribers (issue 39, docs/subscribers.md): the people who asked to be mailed,
 * the notices they are sent (one row per incident or maintenance announcement) and the mail
 * queue (one row per mail to one subscriber, claimed with a compare-and-set like the alert
 * outbox). Tokens are stored as SHA-256 hashes; the unsubscribe token, which every mail must
 * carry, is also kept sealed with the service's secret key (db/secret-box.ts).
 */
export class Subscribers1768867200000 implements MigrationInterface {
  name = 'Subscribers1768867200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE subscribers (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL UNIQUE,
      state TEXT NOT NULL CHECK (state IN ('pending', 'confirmed')),
      confirm_hash TEXT,
      confirm_expires_at INTEGER,
      confirm_used_at INTEGER,
      unsub_hash TEXT NOT NULL UNIQUE,
      unsub_token TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      confirmed_at INTEGER
    )`);
    await q.query('CREATE INDEX subscribers_confirm_hash ON subscribers (confirm_hash)');
    await q.query(`CREATE TABLE subscriber_notices (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL CHECK (kind IN ('opened', 'resolved', 'maintenance')),
      ref TEXT NOT NULL UNIQUE,
      payload TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`);
    await q.query(`CREATE TABLE subscriber_mail (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      subscriber_id INTEGER NOT NULL,
      notice_id INTEGER,
      secret TEXT,
      state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'retrying', 'sent', 'failed')),
      created_at INTEGER NOT NULL,
      due_at INTEGER NOT NULL,
      tries INTEGER NOT NULL DEFAULT 0,
      claimed_at INTEGER,
      done_at INTEGER
    )`);
    await q.query('CREATE INDEX subscriber_mail_due ON subscriber_mail (state, due_at)');
    await q.query('CREATE INDEX subscriber_mail_subscriber ON subscriber_mail (subscriber_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE subscriber_mail');
    await q.query('DROP TABLE subscriber_notices');
    await q.query('DROP TABLE subscribers');
  }
}
