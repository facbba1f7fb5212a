/**
 * The operator contract, exercised on the built entry point (`node dist/main.js`, built by
 * `npm test` before jest runs) exactly as an operator would run it.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as sqlite3 from 'sqlite3';

const ENTRY = path.resolve(__dirname, '..', 'dist', 'main.js');

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

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

  const run = (...args: string[]) => spawnSync(process.execPath, [ENTRY, ...args], { env, encoding: 'utf8', timeout: 20_000 });

  it('prints its version', () => {
    const r = run('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(require('../package.json').version);
  });

  it('prints one setup link, then refuses once the owner exists', () => {
    const r = run('setup-link');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/setup/[A-Za-z0-9_-]{32}\\n$`));
    const db = path.join(env.FARSIGHT_DATA_DIR as string, 'farsight.db');
    const ok = spawnSync('sqlite3', [db, "INSERT INTO owner VALUES (1, 'a@b.c', 'x', 'y', 0, 0)"]);
    if (ok.error) return; // sqlite3 CLI not installed: the refusal is covered by the e2e setup tests
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
    const child: ChildProcess = spawn(process.execPath, [ENTRY, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    child.stdout?.on('data', (d) => (logs += d));
    child.stderr?.on('data', (d) => (logs += d));
    try {
      const started = Date.now();
      let health: { ok: boolean; version: string; uptime_s: number } | null = null;
      while (!health && Date.now() - started < 15_000) {
        health = (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.json(), () => null)) as typeof health;
        if (!health) await new Promise((r) => setTimeout(r, 50));
      }
      expect(health).toEqual({ ok: true, version: expect.any(String), uptime_s: expect.any(Number) });
      expect(logs).toMatch(/Finish setup at http:\/\/127\.0\.0\.1:\d+\/setup\/\S+/);
      const token = /\/setup\/([A-Za-z0-9_-]+)/.exec(logs)?.[1];
      const info = (await fetch(`http://127.0.0.1:${port}/api/v1/auth/setup/${token}`).then((r) => r.json())) as { valid: boolean };
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
});
