/**
 * `farsight backup` then `farsight restore` on the built entry point (`node dist/main.js`, built by
 * `npm test` before jest runs), as an operator runs them: into a fresh data dir, over an existing
 * database only with --force, never while the service runs, and never from a damaged file.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { freePort } from '../../harness/paths';
import { bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor } from '../support/monitors';

const ENTRY = path.resolve(__dirname, '..', '..', 'dist', 'main.js');

function sql(file: string, statement: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return reject(err);
      db.all(statement, (e, rows) => db.close(() => (e ? reject(e) : resolve(rows))));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('farsight restore', () => {
  let dir: string;
  let port: number;
  let source: string;
  let target: string;
  let backup: string;
  let key: string;

  const envFor = (dataDir: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    FARSIGHT_DATA_DIR: dataDir,
    FARSIGHT_LISTEN: `127.0.0.1:${port}`,
    FARSIGHT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    FARSIGHT_CANARIES: 'off',
  });
  const run = (dataDir: string, ...args: string[]) =>
    spawnSync(process.execPath, [ENTRY, ...args], { env: envFor(dataDir), encoding: 'utf8', timeout: 30_000 });
  const dbOf = (dataDir: string) => path.join(dataDir, 'farsight.db');
  const monitorsIn = async (file: string) =>
    ((await sql(file, 'SELECT slug FROM monitors ORDER BY slug')) as { slug: string }[]).map((r) => r.slug);

  beforeAll(() => {
    if (!fs.existsSync(ENTRY)) throw new Error('dist/main.js is missing: run `npm run build` (npm test does)');
  });
  // One source and one backup for every test (none changes them); each test restores into its own target.
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-restore-'));
    port = await freePort();
    source = path.join(dir, 'source');
    // A service with an owner, an API key and a monitor whose token is sealed with the source's key.
    const t = await startApp({}, { dataDir: source });
    try {
      const { cookie } = await createOwner(t);
      key = await createKey(t, cookie, 'admin');
      await t.http
        .post('/api/v1/monitors')
        .set(bearer(key))
        .send(
          httpMonitor({ name: 'NAS' }, { url: 'http://127.0.0.1:9/', auth: { type: 'bearer', token: 'sealed-token' } }),
        )
        .expect(201);
    } finally {
      await t.app.close();
      await t.db.close();
    }
    backup = path.join(dir, 'farsight-backup.db');
    const b = run(source, 'backup', backup);
    expect(b.status).toBe(0);
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  let n = 0;
  beforeEach(() => {
    target = path.join(dir, `target-${++n}`);
  });

  it('restores a backup into a fresh data dir (with the secret key copied over), and the service starts on it', async () => {
    fs.mkdirSync(target, { mode: 0o700 });
    fs.copyFileSync(path.join(source, 'secret.key'), path.join(target, 'secret.key'));
    const r = run(target, 'restore', backup);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toMatch(
      new RegExp(
        `^restored ${backup} into ${dbOf(target)} \\(1 monitor, \\d+ bytes\\); start the service to use it\\n$`,
      ),
    );
    expect(fs.statSync(dbOf(target)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(target).filter((f) => f.includes('restore'))).toEqual([]); // no temporary file left

    const served: ChildProcess = spawn(process.execPath, [ENTRY, 'serve'], { env: envFor(target), stdio: 'ignore' });
    const exit = new Promise((r) => served.once('exit', r));
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok === true);
      // The old machine's key works, and the sealed secret opened with the copied key.
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/export?secrets=1`, { headers: bearer(key) });
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { monitors: { slug: string; http: { auth: { token: string } } }[] };
      expect(doc.monitors.map((m) => [m.slug, m.http.auth.token])).toEqual([['nas', 'sealed-token']]);

      // And restore refuses while the service runs.
      const busy = run(target, 'restore', backup, '--force');
      expect(busy.status).toBe(1);
      expect(busy.stderr).toMatch(
        /^farsight: restore needs the service stopped: FARSIGHT_DATA_DIR: .* is in use by another farsight serve \(pid \d+\)/,
      );
    } finally {
      served.kill('SIGTERM');
      await exit;
    }
  }, 60_000);

  it('refuses to replace a database without --force; with it, keeps the replaced one beside it', async () => {
    // The target starts as a copy of the source, then gets a monitor of its own.
    fs.cpSync(source, target, { recursive: true });
    const t = await startApp({}, { dataDir: target });
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(key))
      .send(httpMonitor({ name: 'Only here' }))
      .expect(201);
    await t.app.close();
    await t.db.close();
    expect(await monitorsIn(dbOf(target))).toEqual(['nas', 'only-here']);

    const refused = run(target, 'restore', backup);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `farsight: ${dbOf(target)} already holds a database; add --force to replace it (the database it replaces is kept beside it)\n`,
    );
    expect(await monitorsIn(dbOf(target))).toEqual(['nas', 'only-here']);

    const forced = run(target, 'restore', backup, '--force');
    expect(forced.status).toBe(0);
    const kept = /kept as (\S+);/.exec(forced.stdout)?.[1] as string;
    expect(path.basename(kept)).toMatch(/^farsight\.db\.before-restore-\d{8}T\d{6}Z$/);
    expect(await monitorsIn(dbOf(target))).toEqual(['nas']);
    expect(await monitorsIn(kept)).toEqual(['nas', 'only-here']);
  }, 60_000);

  it('folds the -wal of a database left by a crash into the copy it keeps, which can itself be restored', async () => {
    fs.cpSync(source, target, { recursive: true });
    // The state kill -9 leaves: a commit that is only in the -wal. Copied while the writer is still open.
    const crashed = path.join(dir, `crashed-${n}`);
    fs.mkdirSync(crashed);
    await new Promise<void>((resolve, reject) => {
      const db = new sqlite3.Database(dbOf(target), (err) => {
        if (err) return reject(err);
        db.exec(
          "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; INSERT OR REPLACE INTO settings (key, value) VALUES ('tz_offset_min', '60')",
          (e) => {
            if (e) return reject(e);
            for (const f of ['farsight.db', 'farsight.db-wal'])
              fs.copyFileSync(path.join(target, f), path.join(crashed, f));
            db.close(() => resolve());
          },
        );
      });
    });
    for (const f of ['farsight.db', 'farsight.db-wal']) fs.copyFileSync(path.join(crashed, f), path.join(target, f));
    fs.rmSync(path.join(target, 'farsight.db-shm'), { force: true });
    expect(fs.statSync(path.join(target, 'farsight.db-wal')).size).toBeGreaterThan(0);

    const forced = run(target, 'restore', backup, '--force');
    expect(forced.status).toBe(0);
    const kept = /kept as (\S+);/.exec(forced.stdout)?.[1] as string;
    expect(fs.existsSync(`${kept}-wal`)).toBe(false);
    expect(fs.existsSync(path.join(target, 'farsight.db-wal'))).toBe(false);
    expect(await sql(kept, "SELECT value FROM settings WHERE key = 'tz_offset_min'")).toEqual([{ value: '60' }]);
    expect(await sql(dbOf(target), "SELECT value FROM settings WHERE key = 'tz_offset_min'")).toEqual([]);

    const back = run(target, 'restore', kept, '--force');
    expect(back.status).toBe(0);
    expect(await sql(dbOf(target), "SELECT value FROM settings WHERE key = 'tz_offset_min'")).toEqual([
      { value: '60' },
    ]);
  }, 60_000);

  it('a restore over a cleanly stopped service is not reported as a crash: the timeline says it was restored, and the offline time is the real one', async () => {
    fs.cpSync(source, target, { recursive: true });
    const now = Date.now();
    // The replaced database: its service stopped cleanly 10 minutes ago.
    await sql(dbOf(target), `UPDATE last_alive SET at = ${now - 10 * 60_000}, clean = 1`);
    // A backup taken an hour ago of the running service: its mark is the periodic one (clean = 0),
    // which alone would read as "stopped without warning".
    const running = path.join(dir, `running-${n}.db`);
    fs.copyFileSync(backup, running);
    const takenAt = Math.floor((now - 60 * 60_000) / 60_000) * 60_000 + 5_000;
    await sql(running, `UPDATE last_alive SET at = ${takenAt}, clean = 0`);

    const forced = run(target, 'restore', running, '--force');
    expect({ status: forced.status, stderr: forced.stderr }).toEqual({ status: 0, stderr: '' });
    const served: ChildProcess = spawn(process.execPath, [ENTRY, 'serve'], { env: envFor(target), stdio: 'ignore' });
    const exit = new Promise((r) => served.once('exit', r));
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok === true);
    } finally {
      served.kill('SIGTERM');
      await exit;
    }
    const lines = (await sql(
      dbOf(target),
      "SELECT kind, actor, text, data FROM events WHERE kind IN ('offline', 'restored') ORDER BY id",
    )) as { kind: string; actor: string; text: string; data: string }[];
    const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(lines.map((l) => l.kind)).toEqual(['restored', 'offline']);
    const [restored, offline] = lines;
    expect(restored.text).toBe(
      `The database was restored from a backup taken at ${when(takenAt)} (farsight restore): what happened after that time is not in it`,
    );
    expect(JSON.parse(restored.data)).toEqual({ backup_at: takenAt, replaced: { at: now - 10 * 60_000, clean: true } });
    expect(offline.text).toContain('stopped cleanly');
    expect(offline.text).not.toContain('without warning');
    expect(offline.text).toContain(`from ${when(now - 10 * 60_000)} to `);
    expect(offline.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/); // times as people read them, not RFC 3339
    expect(JSON.parse(offline.data)).toMatchObject({ from: now - 10 * 60_000, clean: true });
  }, 60_000);

  it('a restore into a fresh data dir claims no offline period (nothing says when the old service stopped)', async () => {
    fs.mkdirSync(target, { mode: 0o700 });
    fs.copyFileSync(path.join(source, 'secret.key'), path.join(target, 'secret.key'));
    expect(run(target, 'restore', backup).status).toBe(0);
    const served: ChildProcess = spawn(process.execPath, [ENTRY, 'serve'], { env: envFor(target), stdio: 'ignore' });
    const exit = new Promise((r) => served.once('exit', r));
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok === true);
    } finally {
      served.kill('SIGTERM');
      await exit;
    }
    const lines = (await sql(
      dbOf(target),
      "SELECT kind, data FROM events WHERE kind IN ('offline', 'restored') ORDER BY id",
    )) as { kind: string; data: string }[];
    expect(lines.map((l) => l.kind)).toEqual(['restored']);
    expect(JSON.parse(lines[0].data)).toMatchObject({ replaced: null });
  }, 60_000);

  describe('refuses a backup it cannot use, and changes nothing', () => {
    const refusedWith = async (file: string, message: RegExp, prepare?: () => void) => {
      fs.cpSync(source, target, { recursive: true });
      prepare?.();
      const before = fs.readFileSync(dbOf(target));
      const r = run(target, 'restore', file, '--force');
      expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 1, stdout: '' });
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split('\n')).toHaveLength(2); // one line
      expect(fs.readFileSync(dbOf(target)).equals(before)).toBe(true);
      expect(fs.readdirSync(target).filter((f) => f.includes('restore'))).toEqual([]);
    };

    it('a file that is not a database', async () => {
      const file = path.join(dir, 'garbage.db');
      fs.writeFileSync(file, Buffer.alloc(8192, 'garbage '));
      await refusedWith(
        file,
        /^farsight: .*garbage\.db is not a usable Farsight backup: not a SQLite database; nothing was changed$/m,
      );
    });

    it('a truncated backup', async () => {
      const file = path.join(dir, 'cut.db');
      const bytes = fs.readFileSync(backup);
      fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2) + 100));
      await refusedWith(file, /is not a usable Farsight backup: truncated/);
    });

    it('a backup whose pages are damaged (PRAGMA integrity_check)', async () => {
      const file = path.join(dir, 'damaged.db');
      const bytes = Buffer.from(fs.readFileSync(backup));
      const pageSize = bytes.readUInt16BE(16);
      // Scribble over the middle of every page after the first: the header stays valid.
      for (let p = 1; p * pageSize < bytes.length; p++)
        bytes.fill(0xa5, p * pageSize + 100, p * pageSize + pageSize - 100);
      fs.writeFileSync(file, bytes);
      await refusedWith(file, /is not a usable Farsight backup: .*(integrity|malformed|damage)/i);
    });

    it("a SQLite database that is not Farsight's", async () => {
      const file = path.join(dir, 'other.db');
      await sql(file, 'CREATE TABLE photos (id INTEGER PRIMARY KEY)');
      await refusedWith(
        file,
        /it is a SQLite database, but not Farsight's \(no migrations, owner, settings, events, monitors, monitor_state table\)/,
      );
    });

    it('a backup made by a newer version', async () => {
      const file = path.join(dir, 'newer.db');
      fs.copyFileSync(backup, file);
      await sql(file, "INSERT INTO migrations (timestamp, name) VALUES (9999999999999, 'Future9999999999999')");
      await refusedWith(file, /made by a newer Farsight \(it has migration Future9999999999999/);
    });

    it("a backup with sealed secrets when this data dir's key is another one", async () => {
      await refusedWith(
        backup,
        /holds secrets this data dir's key cannot open: .*secret\.key: this key does not open the monitor secrets/,
        () => {
          fs.writeFileSync(path.join(target, 'secret.key'), Buffer.alloc(32, 7));
        },
      );
    });
  });

  it('into a fresh data dir without the secret key: refused, saying to put the key back first', () => {
    const r = run(target, 'restore', backup);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is missing, but the database holds monitor secrets sealed with it');
    expect(fs.existsSync(path.join(target, 'secret.key'))).toBe(false);
    expect(fs.existsSync(dbOf(target)) ? fs.statSync(dbOf(target)).size : 0).toBe(0);
  });

  it.each([
    [['restore'], 2, 'farsight: usage: farsight restore FILE [--force]\n'],
    [['restore', 'a', 'b'], 2, 'farsight: usage: farsight restore FILE [--force]\n'],
    [['restore', '/nonexistent/backup.db'], 2, 'farsight: /nonexistent/backup.db does not exist\n'],
  ])('%j exits %i', (args, status, stderr) => {
    const r = run(target, ...args);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status, stderr });
  });
});
