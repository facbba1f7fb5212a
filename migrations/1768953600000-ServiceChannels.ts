import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = 'id, kind, name, enabled, events, config, created_at, updated_at';

function channelsTable(name: string, kinds: readonly string[]): string {
  return `CREATE TABLE ${name} (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL CHECK (kind IN (${kinds.map((k) => `'${k}'`).join(', ')})),
      name TEXT NOT NULL,
      enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
      events TEXT NOT NULL,
      config TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`;
}

const BEFORE = ['email', 'chat', 'webhook'];
const AFTER = [...BEFORE, 'ntfy', 'gotify', 'telegram', 'pushover', 'matrix', 'pagerduty', 'home-assistant', 'apprise'];

/**
 * The channel kinds of issue 37 (ntfy, gotify, telegram, pushover, matrix, pagerduty,
 * home-assistant, apprise): SQLite cannot change a CHECK, so the channels table is built again
 * with the wider list and its rows copied with their ids. The AUTOINCREMENT counter is carried
 * over, so a deleted channel's id is still never reused (monitors and deliveries name it).
 */
export class ServiceChannels1768953600000 implements MigrationInterface {
  name = 'ServiceChannels1768953600000';

  async up(q: QueryRunner): Promise<void> {
    await rebuild(q, AFTER);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM channels WHERE kind NOT IN (${BEFORE.map((k) => `'${k}'`).join(', ')})`);
    await rebuild(q, BEFORE);
  }
}

async function rebuild(q: QueryRunner, kinds: readonly string[]): Promise<void> {
  const seq = (await q.query(`SELECT seq FROM sqlite_sequence WHERE name = 'channels'`)) as { seq: number }[];
  await q.query(channelsTable('channels_next', kinds));
  await q.query(`INSERT INTO channels_next (${COLUMNS}) SELECT ${COLUMNS} FROM channels`);
  await q.query('DROP TABLE channels');
  await q.query('ALTER TABLE channels_next RENAME TO channels');
  if (seq.length) {
    await q.query(`DELETE FROM sqlite_sequence WHERE name = 'channels'`);
    await q.query(`INSERT INTO sqlite_sequence (name, seq) VALUES ('channels', ?)`, [seq[0].seq]);
  }
}
