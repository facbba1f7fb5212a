/**
 * The Kuma reader and the CLI's upload copy on real files built from Kuma's schema
 * (test/support/kuma-fixture.ts): the user's file is never written (not even its -wal or -shm),
 * a database still in use (rows only in its -wal) is read through a copy, a write-locked one is
 * refused with words, and the upload copy leaves Kuma's check history behind.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { ApiError } from '../../src/common/http/api-error';
import { copyForUpload } from '../../src/system/kuma/kuma-copy';
import { readKumaFile } from '../../src/system/kuma/kuma-file';
import { buildKumaDb } from '../support/kuma-fixture';
import { kumaSample } from '../support/kuma-sample';

const digest = (dir: string) =>
  fs
    .readdirSync(dir)
    .sort()
    .map(
      (f) =>
        `${f}:${createHash('sha256')
          .update(fs.readFileSync(path.join(dir, f)))
          .digest('hex')}`,
    );

describe('reading a Kuma file', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kuma-file-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a database and leaves its folder exactly as it was: no -shm or -wal appears', async () => {
    const file = path.join(dir, 'kuma.db');
    await buildKumaDb(file, kumaSample(), { version: '2.x' });
    const before = digest(dir);
    const data = await readKumaFile(file);
    const copy = await copyForUpload(file);
    copy.remove();
    expect(data.monitors).toHaveLength(20);
    expect(data.version).toBe('Uptime Kuma 2.x database (last migration 2026-05-20-0000-add-bearer-token.js)');
    expect(digest(dir)).toEqual(before);
  });

  it('reads the rows that are only in the -wal of a database still open, through a copy', async () => {
    const file = path.join(dir, 'kuma.db');
    const close = await buildKumaDb(file, kumaSample(), { version: '1.23', keepWal: true });
    try {
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
      const before = digest(dir);
      const data = await readKumaFile(file);
      expect(data.monitors).toHaveLength(20);
      expect(data.notifications).toHaveLength(15);
      const copy = await copyForUpload(file);
      try {
        expect((await readKumaFile(copy.file)).monitors).toHaveLength(20);
        expect(fs.existsSync(`${copy.file}-wal`)).toBe(false);
      } finally {
        copy.remove();
      }
      expect(digest(dir)).toEqual(before);
    } finally {
      await close();
    }
  });

  it('uploads a copy without the check history', async () => {
    const file = path.join(dir, 'kuma.db');
    const rows = kumaSample();
    rows.heartbeat = Array.from({ length: 500 }, (_, i) => ({
      monitor_id: 3,
      status: 1,
      msg: 'x'.repeat(2000),
      time: `2026-11-01 10:${String(i % 60).padStart(2, '0')}:00`,
      ping: 40,
      duration: 60,
      important: 0,
    }));
    await buildKumaDb(file, rows, { version: '2.x' });
    const copy = await copyForUpload(file);
    try {
      expect(fs.statSync(copy.file).size).toBeLessThan(fs.statSync(file).size / 4);
      expect((await readKumaFile(copy.file)).monitors).toHaveLength(20);
    } finally {
      copy.remove();
    }
  });

  it('refuses a database another program holds a write lock on, at once and with words', async () => {
    const file = path.join(dir, 'kuma.db');
    await buildKumaDb(file, kumaSample(), { version: '1.23' });
    const holder = await new Promise<sqlite3.Database>((resolve, reject) => {
      const c = new sqlite3.Database(file, (e) => (e ? reject(e) : resolve(c)));
    });
    const exec = (sql: string) => new Promise<void>((res, rej) => holder.exec(sql, (e) => (e ? rej(e) : res())));
    try {
      // A rollback-journal database mid-write: Kuma before WAL, or another tool writing it.
      await exec('PRAGMA journal_mode = DELETE');
      await exec("BEGIN EXCLUSIVE; UPDATE monitor SET name = name || '!'");
      await expect(copyForUpload(file)).rejects.toThrow(/locked by another program/);
      const err = await readKumaFile(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toMatch(/locked by another program/);
    } finally {
      await exec('ROLLBACK');
      await new Promise<void>((res) => holder.close(() => res()));
    }
  });
});
