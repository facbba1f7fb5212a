/**
 * The operator contract, exercised on the built entry point (`node dist/main.js`, built by
 * `npm test` before jest runs) exactly as an operator would run it.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';
import { bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor } from '../support/monitors';
import { freePort } from '../../harness/paths';
import { waitFor } from '../support/wait-for';
import { version } from '../../package.json';

const ENTRY = path.resolve(__dirname, '..', '..', 'dist', 'main.js');
const IS_ROOT = process.getuid?.() === 0;

async function healthy(port: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
  return res !== null && res.ok;
}

interface Served {
  child: ChildProcess;
  logs(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `serve` as a child process; with umask0 it starts under `umask 000`, the most permissive. */
function spawnServe(env: NodeJS.ProcessEnv, opts: { umask0?: boolean } = {}): Served {
  const child = opts.umask0
    ? spawn('sh', ['-c', 'umask 000; exec "$0" "$1" serve', process.execPath, ENTRY], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, [ENTRY, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout?.on('data', (d) => (logs += d));
  child.stderr?.on('data', (d) => (logs += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  return { child, logs: () => logs, exit };
}

/** A start that failed: exit 1 and exactly one line on stderr, without a stack trace. */
function oneLine(r: { status: number | null; stderr: string }): string {
  expect({ status: r.status, stderr: r.stderr }).toEqual({
    status: 1,
    stderr: expect.stringMatching(/^farsight: [^\n]+\n$/),
  });
  expect(r.stderr).not.toMatch(/^\s+at /m);
  return r.stderr.trim();
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('farsight command', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;

  beforeAll(() => {
    if (!fs.existsSync(ENTRY)) throw new Error('dist/main.js is missing: run `npm run build` (npm test does)');
  });

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-cli-'));
    port = await freePort();
    env = {
      PATH: process.env.PATH,
      FARSIGHT_DATA_DIR: path.join(dir, 'data'),
      FARSIGHT_LISTEN: `127.0.0.1:${port}`,
      FARSIGHT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      FARSIGHT_CANARIES: 'off',
    };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [ENTRY, ...args], { env, encoding: 'utf8', timeout: 20_000 });

  it('prints its version', () => {
    const r = run('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('prints one setup link, then refuses once the owner exists', () => {
    const r = run('setup-link');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/setup/[A-Za-z0-9_-]{32}\\n$`));
    const db = path.join(env.FARSIGHT_DATA_DIR as string, 'farsight.db');
    const ok = spawnSync('sqlite3', [
      db,
      "INSERT INTO owner (id, email, password_hash, totp_secret, created_at, updated_at) VALUES (1, 'a@b.c', 'x', 'y', 0, 0)",
    ]);
    if (ok.error) return; // sqlite3 CLI not installed: the refusal is covered by the e2e setup tests
    expect(ok.status).toBe(0);
    const again = run('setup-link');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it.each([
    ['FARSIGHT_LISTEN', 'nowhere'],
    ['FARSIGHT_PUBLIC_URL', 'ftp://x'],
    ['FARSIGHT_LOG_LEVEL', 'loud'],
    ['FARSIGHT_CANARIES', ''],
  ])('stops with one line naming %s when it is bad', (name, value) => {
    if (value === '') env[name] = ',';
    else env[name] = value;
    const r = run('serve');
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^farsight: ${name}`));
  });

  it('refuses an unknown command', () => {
    const r = run('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command');
  });

  it('serves health, logs the setup link, backs up while running and stops cleanly on SIGTERM', async () => {
    // A mistyped variable is reported with the name it was probably meant to be, and the start goes on.
    const child: ChildProcess = spawn(process.execPath, [ENTRY, 'serve'], {
      env: { ...env, FARSIGHT_LISTN: ':1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logs = '';
    child.stdout?.on('data', (d) => (logs += d));
    child.stderr?.on('data', (d) => (logs += d));
    try {
      const started = Date.now();
      let health: { ok: boolean; version: string; uptime_s: number } | null = null;
      while (!health && Date.now() - started < 15_000) {
        health = (await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.json(),
          () => null,
        )) as typeof health;
        if (!health) await new Promise((r) => setTimeout(r, 50));
      }
      expect(health).toEqual({ ok: true, version: expect.any(String), uptime_s: expect.any(Number) });
      expect(logs).toMatch(
        /WARN.*FARSIGHT_LISTN is not a Farsight setting and is ignored: did you mean FARSIGHT_LISTEN\?/,
      );
      // The link is issued once the service listens, so it may follow the first healthy answer.
      await waitFor('the setup link in the log', () =>
        /Finish setup at http:\/\/127\.0\.0\.1:\d+\/setup\/\S+/.test(logs),
      );
      const token = /\/setup\/([A-Za-z0-9_-]+)/.exec(logs)?.[1];
      const info = (await fetch(`http://127.0.0.1:${port}/api/v1/auth/setup/${token}`).then((r) => r.json())) as {
        valid: boolean;
      };
      expect(info.valid).toBe(true);

      const file = path.join(dir, 'backup.db');
      const b = run('backup', file);
      expect(b.status).toBe(0);
      const tables = await new Promise<string[]>((resolve, reject) => {
        const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
        db.all("SELECT name FROM sqlite_master WHERE type = 'table'", (err, rows: { name: string }[]) => {
          db.close();
          return err ? reject(err) : resolve(rows.map((r) => r.name));
        });
      });
      expect(tables).toEqual(expect.arrayContaining(['owner', 'link_tokens', 'api_keys', 'migrations']));
      const exists = run('backup', file);
      expect(exists.status).toBe(2);
      expect(exists.stderr).toContain('already exists');
    } finally {
      const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    }
    expect(logs).not.toMatch(/\x1b\[/); // plain lines, no colour codes
  });

  it('prints the setup link on the listen port when FARSIGHT_PUBLIC_URL is unset', () => {
    delete env.FARSIGHT_PUBLIC_URL;
    const r = run('setup-link');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^http://localhost:${port}/setup/[A-Za-z0-9_-]{32}\\n$`));
  });

  it('stops gracefully on SIGHUP: exit 0, "shutting down" logged, no -wal file left', async () => {
    const served = spawnServe(env);
    await waitFor('health', () => healthy(port));
    const db = path.join(env.FARSIGHT_DATA_DIR as string, 'farsight.db');
    expect(fs.existsSync(`${db}-wal`)).toBe(true);
    served.child.kill('SIGHUP');
    expect(await served.exit).toEqual({ code: 0, signal: null });
    expect(served.logs()).toMatch(/SIGHUP received, shutting down/);
    expect(fs.existsSync(`${db}-wal`)).toBe(false);
  });

  describe('one serve per data dir', () => {
    it('refuses a second serve with one line naming the data dir and the holder pid, lets backup and setup-link run, and starts again after kill -9 of the holder', async () => {
      const dataDir = env.FARSIGHT_DATA_DIR as string;
      const first = spawnServe(env);
      try {
        await waitFor('health', () => healthy(port));
        const otherPort = await freePort();
        const second = spawnSync(process.execPath, [ENTRY, 'serve'], {
          env: { ...env, FARSIGHT_LISTEN: `127.0.0.1:${otherPort}` },
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(oneLine(second)).toBe(
          `farsight: FARSIGHT_DATA_DIR: ${dataDir} is in use by another farsight serve (pid ${first.child.pid}); ` +
            'stop that one first, or give this one its own FARSIGHT_DATA_DIR',
        );
        expect(await healthy(otherPort)).toBe(false);

        expect(run('backup', path.join(dir, 'while-locked.db')).status).toBe(0);
        expect(run('setup-link').status).toBe(0);
      } finally {
        first.child.kill('SIGKILL');
        expect((await first.exit).signal).toBe('SIGKILL');
      }
      // The kernel dropped the lock with the process; the pid file it left behind does not matter.
      expect(fs.readFileSync(path.join(dataDir, 'farsight.lock.pid'), 'utf8').trim()).toBe(String(first.child.pid));
      const again = spawnServe(env);
      await waitFor('health after kill -9', () => healthy(port));
      again.child.kill('SIGTERM');
      expect(await again.exit).toEqual({ code: 0, signal: null });
    }, 60_000); // five processes start one after the other
  });

  describe('start-up failures: one line naming the variable or path, exit 1, no stack trace', () => {
    it('when FARSIGHT_DATA_DIR is a file', () => {
      const file = path.join(dir, 'data');
      fs.writeFileSync(file, 'not a directory');
      expect(oneLine(run('serve'))).toMatch(
        new RegExp(`^farsight: FARSIGHT_DATA_DIR: ${file}: it or one of its parents is a file, not a directory; `),
      );
    });

    it('when FARSIGHT_DATA_DIR cannot be created because a parent is a regular file (fails for root too)', () => {
      fs.writeFileSync(path.join(dir, 'plain-file'), '');
      env.FARSIGHT_DATA_DIR = path.join(dir, 'plain-file', 'data');
      expect(oneLine(run('serve'))).toMatch(
        new RegExp(`^farsight: FARSIGHT_DATA_DIR: ${env.FARSIGHT_DATA_DIR}: .*is a file, not a directory`),
      );
      expect(oneLine(run('setup-link'))).toMatch(/^farsight: FARSIGHT_DATA_DIR: /);
    });

    // Root may write to any directory whatever its mode, so this case cannot fail as root; the case
    // above (a parent that is a file) and the next one (farsight.db a directory) fail for root too.
    (IS_ROOT ? it.skip : it)(
      'when the data dir is not writable (skipped as root: root writes to any directory)',
      () => {
        const dataDir = env.FARSIGHT_DATA_DIR as string;
        fs.mkdirSync(dataDir, { mode: 0o500 });
        expect(oneLine(run('serve'))).toMatch(
          new RegExp(`^farsight: FARSIGHT_DATA_DIR: ${dataDir}: permission denied; `),
        );
      },
    );

    it('when farsight.db is a directory (SQLite alone would say SQLITE_CANTOPEN without a path)', () => {
      const db = path.join(env.FARSIGHT_DATA_DIR as string, 'farsight.db');
      fs.mkdirSync(db, { recursive: true });
      expect(oneLine(run('serve'))).toBe(`farsight: ${db} is a directory, not a file; move it away`);
    });

    it('when the database file is not a database, saying how to restore a backup', () => {
      const db = path.join(env.FARSIGHT_DATA_DIR as string, 'farsight.db');
      fs.mkdirSync(path.dirname(db), { recursive: true });
      fs.writeFileSync(db, Buffer.alloc(8192, 'garbage '));
      const line = oneLine(run('serve'));
      expect(line).toMatch(new RegExp(`^farsight: ${db}: the database file is damaged \\(not a SQLite database\\); `));
      expect(line).toContain('farsight backup');
      expect(oneLine(run('backup', path.join(dir, 'b.db')))).toBe(line);
    });

    it.each([
      ['to whole pages', (size: number) => Math.floor(size / 2 / 4096) * 4096],
      ['mid-page', (size: number) => Math.floor(size / 2) + 100],
    ])('when the database file was truncated %s, saying how to restore a backup', (_how, cut) => {
      expect(run('setup-link').status).toBe(0);
      const db = path.join(env.FARSIGHT_DATA_DIR as string, 'farsight.db');
      expect(fs.existsSync(`${db}-wal`)).toBe(false); // closed cleanly: everything is in the main file
      fs.truncateSync(db, cut(fs.statSync(db).size));
      const line = oneLine(run('serve'));
      expect(line).toMatch(new RegExp(`^farsight: ${db}: the database file is damaged \\(truncated`));
      expect(line).toContain('copy a backup made with `farsight backup FILE`');
    });

    it('when the listen port is in use, before any setup link is issued', async () => {
      const squatter = net.createServer();
      await new Promise<void>((r) => squatter.listen(port, '127.0.0.1', r));
      try {
        const r = spawnSync(process.execPath, [ENTRY, 'serve'], { env, encoding: 'utf8', timeout: 20_000 });
        expect(oneLine(r)).toMatch(
          new RegExp(`^farsight: FARSIGHT_LISTEN: 127\\.0\\.0\\.1:${port} is already in use by another program`),
        );
        expect(r.stdout).toBe('');
        expect(r.stderr).not.toMatch(/setup/);
      } finally {
        await new Promise((r) => squatter.close(r));
      }
    });
  });

  describe('file modes', () => {
    const files = [
      'farsight.db',
      'farsight.db-wal',
      'farsight.db-shm',
      'farsight.lock',
      'farsight.lock.pid',
      'secret.key',
    ];

    it('creates the data dir 0700 and every file in it 0600 under umask 000, and backups 0600', async () => {
      const dataDir = env.FARSIGHT_DATA_DIR as string;
      const served = spawnServe(env, { umask0: true });
      try {
        await waitFor('health', () => healthy(port));
        expect(modeOf(dataDir).toString(8)).toBe('700');
        expect(Object.fromEntries(files.map((f) => [f, modeOf(path.join(dataDir, f)).toString(8)]))).toEqual(
          Object.fromEntries(files.map((f) => [f, '600'])),
        );
        const backup = path.join(dir, 'backup.db');
        const b = spawnSync('sh', ['-c', 'umask 000; exec "$0" "$1" backup "$2"', process.execPath, ENTRY, backup], {
          env,
          encoding: 'utf8',
        });
        expect(b.status).toBe(0);
        expect(modeOf(backup).toString(8)).toBe('600');
      } finally {
        served.child.kill('SIGTERM');
        expect((await served.exit).code).toBe(0);
      }
    });

    it('tightens a data dir, database and key that an older version left readable by others', async () => {
      const dataDir = env.FARSIGHT_DATA_DIR as string;
      fs.mkdirSync(dataDir, { mode: 0o755 });
      fs.chmodSync(dataDir, 0o755);
      for (const [name, content] of [
        ['farsight.db', ''],
        ['secret.key', crypto.randomBytes(32)],
      ] as const) {
        fs.writeFileSync(path.join(dataDir, name), content);
        fs.chmodSync(path.join(dataDir, name), 0o644);
      }
      const served = spawnServe(env, { umask0: true });
      try {
        await waitFor('health', () => healthy(port));
        expect([dataDir, 'farsight.db', 'secret.key'].map((f) => modeOf(path.resolve(dataDir, f)).toString(8))).toEqual(
          ['700', '600', '600'],
        );
      } finally {
        served.child.kill('SIGTERM');
        expect((await served.exit).code).toBe(0);
      }
    });
  });

  describe('the secret key', () => {
    /** A data dir holding a monitor whose bearer token is sealed with its secret.key. */
    async function dataWithSealedSecret(): Promise<string> {
      const dataDir = env.FARSIGHT_DATA_DIR as string;
      const t = await startApp({}, { dataDir });
      try {
        const { cookie } = await createOwner(t);
        const key = await createKey(t, cookie, 'write');
        const body = httpMonitor(
          { name: 'Sealed' },
          { url: 'http://127.0.0.1:9/', auth: { type: 'bearer', token: 'sealed-token-value' } },
        );
        await t.http.post('/api/v1/monitors').set(bearer(key)).send(body).expect(201);
      } finally {
        await t.app.close();
        await t.db.close();
      }
      return dataDir;
    }

    it('stops the start with one line when secret.key is missing but the database holds sealed secrets', async () => {
      const dataDir = await dataWithSealedSecret();
      fs.renameSync(path.join(dataDir, 'secret.key'), path.join(dir, 'kept-elsewhere.key'));
      const line = oneLine(run('serve'));
      expect(line).toBe(
        `farsight: ${path.join(dataDir, 'secret.key')} is missing, but the database holds monitor secrets sealed with it; ` +
          'put the original secret.key back (it is not part of `farsight backup`), or point FARSIGHT_SECRET_KEY_FILE at it',
      );
      expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false); // no new key that would seal over the old
    });

    it('stops the start with one line when the key is not the one the secrets were sealed with', async () => {
      const dataDir = await dataWithSealedSecret();
      fs.writeFileSync(path.join(dataDir, 'secret.key'), crypto.randomBytes(32));
      expect(oneLine(run('serve'))).toMatch(
        new RegExp(
          `^farsight: ${path.join(dataDir, 'secret.key')}: this key does not open the monitor secrets stored in the database`,
        ),
      );
    });

    it('starts with the original key given by FARSIGHT_SECRET_KEY_FILE, and creates no secret.key', async () => {
      const dataDir = await dataWithSealedSecret();
      const moved = path.join(dir, 'credential.key');
      fs.renameSync(path.join(dataDir, 'secret.key'), moved);
      const served = spawnServe({ ...env, FARSIGHT_SECRET_KEY_FILE: moved });
      try {
        await waitFor('health', () => healthy(port));
        expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
      } finally {
        served.child.kill('SIGTERM');
        expect((await served.exit).code).toBe(0);
      }
    });
  });
});
