/** Migrations that repair data, run against a real database. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryOrphans1767571200000 } from '../../migrations/1767571200000-HistoryOrphans';
import { CertPins1768608000000 } from '../../migrations/1768608000000-CertPins';
import { ServiceChannels1768953600000 } from '../../migrations/1768953600000-ServiceChannels';
import { KIND_DEFAULTS, REQUIRED_KIND_FIELDS } from '../../src/monitors/monitor-defaults';
import { openDatabase } from '../../src/db/data-source';
import { MIGRATIONS } from '../../src/db/migrations';

describe('HistoryOrphans migration', () => {
  it('removes check rows and rollups of monitors that no longer exist, and keeps the others', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-migration-'));
    const ds = await openDatabase(dir);
    try {
      const now = Date.UTC(2026, 10, 1);
      await ds.query(
        `INSERT INTO monitors (id, slug, name, kind, tags, interval_s, timeout_ms, confirm_after, retry_interval_s, recover_after,
           slow_after, alert_on_slow, remind_every_min, paused, public, sort, settings, created_at, updated_at)
         VALUES (1, 'kept', 'kept', 'tcp', '[]', 60, 1000, 1, 10, 1, 3, 0, 0, 0, 0, 0, '{}', ?, ?)`,
        [now, now],
      );
      for (const id of [1, 2]) {
        await ds.query('INSERT INTO checks (monitor_id, at, outcome) VALUES (?, ?, 0)', [id, now]);
        await ds.query('INSERT INTO rollup_hour (monitor_id, hour) VALUES (?, 1)', [id]);
        await ds.query('INSERT INTO rollup_day (monitor_id, day) VALUES (?, 1)', [id]);
      }
      await new HistoryOrphans1767571200000().up(ds.createQueryRunner());
      for (const table of ['checks', 'rollup_hour', 'rollup_day']) {
        const ids = (await ds.query(`SELECT monitor_id FROM ${table}`)) as { monitor_id: number }[];
        expect([table, ids.map((r) => r.monitor_id)]).toEqual([table, [1]]);
      }
    } finally {
      await ds.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CertPins migration', () => {
  it('gives stored http and tls monitors the new settings with their defaults, in the order new monitors have them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-migration-'));
    const ds = await openDatabase(dir);
    try {
      const now = Date.UTC(2026, 10, 1);
      const before = {
        http: { url: 'https://nas.lan/', ...KIND_DEFAULTS.http, cert_sha256: undefined },
        tls: { host: 'nas.lan', ...KIND_DEFAULTS.tls, tls_verify: undefined, cert_sha256: undefined },
        tcp: { host: 'nas.lan', port: 22, ...KIND_DEFAULTS.tcp },
      };
      let id = 0;
      for (const [kind, settings] of Object.entries(before)) {
        await ds.query(
          `INSERT INTO monitors (id, slug, name, kind, tags, interval_s, timeout_ms, confirm_after, retry_interval_s, recover_after,
             slow_after, alert_on_slow, remind_every_min, paused, public, sort, settings, created_at, updated_at)
           VALUES (?, ?, ?, ?, '[]', 60, 1000, 1, 10, 1, 3, 0, 0, 0, 0, 0, ?, ?, ?)`,
          [++id, kind, kind, kind, JSON.stringify(settings), now, now],
        );
      }
      await new CertPins1768608000000().up(ds.createQueryRunner());
      const rows = (await ds.query('SELECT kind, settings FROM monitors ORDER BY id')) as {
        kind: 'http' | 'tls' | 'tcp';
        settings: string;
      }[];
      for (const r of rows) {
        const order = [...REQUIRED_KIND_FIELDS[r.kind], ...Object.keys(KIND_DEFAULTS[r.kind])];
        expect([r.kind, Object.keys(JSON.parse(r.settings))]).toEqual([r.kind, order]);
      }
      expect(JSON.parse(rows[1].settings)).toMatchObject({ tls_verify: true, cert_sha256: null });
      expect(JSON.parse(rows[0].settings)).toMatchObject({ tls_verify: true, cert_sha256: null });
    } finally {
      await ds.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the migration list', () => {
  it('names each migration by a unique timestamp, in order, as TypeORM runs them', () => {
    const stamps = MIGRATIONS.map((m) => Number(/(\d{13})$/.exec(m.name)?.[1]));
    expect(stamps.every((n) => Number.isFinite(n))).toBe(true);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    for (const M of MIGRATIONS) expect(new M().name).toBe(M.name);
  });
});

describe('ServiceChannels migration', () => {
  it('widens the channel kinds, keeps every channel with its id, and never reuses a deleted id', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-migration-'));
    const ds = await openDatabase(dir);
    try {
      const migration = new ServiceChannels1768953600000();
      await migration.down(ds.createQueryRunner());
      const insert = (kind: string) =>
        ds.query(
          `INSERT INTO channels (kind, name, enabled, events, config, created_at, updated_at) VALUES (?, ?, 1, '[]', '{}', 1, 1)`,
          [kind, kind],
        );
      await expect(insert('ntfy')).rejects.toThrow(/CHECK constraint/);
      for (const kind of ['email', 'chat', 'webhook']) await insert(kind);
      await ds.query('DELETE FROM channels WHERE id = 3');
      await migration.up(ds.createQueryRunner());
      const kept = (await ds.query('SELECT id, kind FROM channels ORDER BY id')) as { id: number; kind: string }[];
      expect(kept).toEqual([
        { id: 1, kind: 'email' },
        { id: 2, kind: 'chat' },
      ]);
      await insert('ntfy');
      const [added] = (await ds.query(`SELECT id FROM channels WHERE kind = 'ntfy'`)) as { id: number }[];
      expect(added.id).toBe(4);
      await expect(insert('carrier-pigeon')).rejects.toThrow(/CHECK constraint/);
    } finally {
      await ds.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
