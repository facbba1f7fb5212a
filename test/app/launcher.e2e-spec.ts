/**
 * `node dist/main.js` runs the bundle from a V8 code cache (src/launcher.ts): the first `serve`
 * writes it, the next ones use it without writing again, one that V8 refuses is replaced, and
 * short commands write nothing. Runs a copy of the built dist/ in a temp folder (with links to
 * what the service reads from the project: node_modules, views, public), so the real dist/ and
 * its cache stay untouched by this test.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../harness/paths';

const ROOT = path.resolve(__dirname, '..', '..');
let home: string;
let dist: string;

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-launcher-'));
  dist = path.join(home, 'dist');
  fs.mkdirSync(dist);
  for (const f of ['main.js', 'app.js']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(dist, f));
  for (const link of ['node_modules', 'views', 'public', 'package.json'])
    fs.symlinkSync(path.join(ROOT, link), path.join(home, link));
});

afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function cacheFiles(): string[] {
  return fs.readdirSync(dist).filter((f) => /^app\.js\.[0-9a-f]{16}\.v8-cache$/.test(f));
}

function env(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FARSIGHT_DATA_DIR: dataDir,
    FARSIGHT_LISTEN: `127.0.0.1:${port}`,
    FARSIGHT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    FARSIGHT_CANARIES: 'off',
    FARSIGHT_LOG_LEVEL: 'warn',
  };
}

/** One `serve` from the copy: started, healthy, stopped with SIGTERM; its exit code. */
async function serveOnce(): Promise<number | null> {
  const dataDir = fs.mkdtempSync(path.join(home, 'data-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dist, 'main.js'), 'serve'], {
    env: env(dataDir, port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logs = '';
  child.stdout.on('data', (d) => (logs += d));
  child.stderr.on('data', (d) => (logs += d));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
    if (res?.ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not get healthy:\n${logs}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGTERM');
  const code = await exit;
  expect(logs).not.toMatch(/error/i);
  return code;
}

describe('the code cache of node dist/main.js', () => {
  it('is not written by a short command', () => {
    const r = spawnSync(process.execPath, [path.join(dist, 'main.js'), '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(cacheFiles()).toEqual([]);
  });

  it('is written by the first serve, for the owner only, and used as it is by the next', async () => {
    expect(await serveOnce()).toBe(0);
    const [file] = cacheFiles();
    expect(file).toBeDefined();
    const cache = path.join(dist, file);
    const first = fs.statSync(cache);
    expect(first.mode & 0o777).toBe(0o600);
    expect(first.size).toBeGreaterThan(100_000);
    expect(fs.readdirSync(dist).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Accepted by V8: nothing to write again, so the file is the same one.
    expect(await serveOnce()).toBe(0);
    const second = fs.statSync(cache);
    expect({ ino: second.ino, mtimeMs: second.mtimeMs }).toEqual({ ino: first.ino, mtimeMs: first.mtimeMs });
  }, 90_000);

  it('is replaced when V8 refuses it, and the service starts all the same', async () => {
    const [file] = cacheFiles();
    const cache = path.join(dist, file);
    const junk = Buffer.alloc(200_000, 7);
    fs.writeFileSync(cache, junk, { mode: 0o600 });
    expect(await serveOnce()).toBe(0);
    const now = fs.readFileSync(cache);
    expect(now.equals(junk)).toBe(false);
    expect(now.length).toBeGreaterThan(100_000);
  }, 60_000);
});
