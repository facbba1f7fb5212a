import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Probe locations (issue 41, docs/agents.md):
 * - `locations`: the places other than the service itself that check (`local`, id 0, is the
 *   service and has no row). `name_key` is the name lowercased, so names are unique without
 *   regard to case; `token_hash` is the SHA-256 of the agent's token (the token itself is never
 *   stored); `acked_seq` is the highest result seq the agent was told is stored.
 * - `monitors.locations`: the names of the locations that check the monitor, as a JSON array
 *   (`local` is the service), as the API names them; a rename rewrites them in its transaction.
 *   `monitors.quorum`: null is a majority of those online.
 * - `location_results`: what agents sent, one row per result, in the very shape of `checks`
 *   (src/history/check-row.ts: outcome and error as small integers, text only on failures) plus
 *   the location; a result that is history only (blind, stale, late) carries its note in `info`.
 *   Local checks stay in `checks` without a location column: they cost not a byte more.
 */
export class Locations1769212800000 implements MigrationInterface {
  name = 'Locations1769212800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE locations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      name_key TEXT NOT NULL UNIQUE,
      token_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      last_seen_at INTEGER,
      version TEXT,
      address TEXT,
      acked_seq INTEGER NOT NULL DEFAULT 0
    )`);
    await q.query(`ALTER TABLE monitors ADD COLUMN locations TEXT NOT NULL DEFAULT '["local"]'`);
    await q.query('ALTER TABLE monitors ADD COLUMN quorum INTEGER');
    await q.query(`CREATE TABLE location_results (
      monitor_id INTEGER NOT NULL,
      location_id INTEGER NOT NULL,
      at INTEGER NOT NULL,
      outcome INTEGER NOT NULL,
      latency INTEGER,
      dns INTEGER,
      conn INTEGER,
      tls INTEGER,
      ttfb INTEGER,
      status INTEGER,
      error INTEGER,
      info TEXT,
      PRIMARY KEY (monitor_id, location_id, at)
    ) WITHOUT ROWID`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE location_results');
    await q.query('ALTER TABLE monitors DROP COLUMN quorum');
    await q.query('ALTER TABLE monitors DROP COLUMN locations');
    await q.query('DROP TABLE locations');
  }
}
