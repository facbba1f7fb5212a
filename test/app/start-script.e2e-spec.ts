/**
 * `npm start` (scripts/start.js) passes stop signals on to the service it runs and exits as the
 * service did (issue 33): before, SIGTERM to `npm start` left the service running, orphaned.
 * Needs the built service (`npm run build`, as `npm test` does first), or start.js builds it.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../harness/paths';
import { waitFor } from '../support/wait-for';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..', '..');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Started {
  child: ChildProcess;
  logs(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The service's own pid, from the data dir's lock (dist/main.js, not the wrapper). */
  servicePid(): Promise<number>;
}

let dir: string;
let env: NodeJS.ProcessEnv;
let port: number;
const started: Started[] = [];

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'main.js')))
    throw new Error('dist/main.js is missing: run `npm run build` (npm test does)');
});
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-start-'));
  port = await freePort();
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FARSIGHT_DATA_DIR: path.join(dir, 'data'),
    FARSIGHT_LISTEN: `127.0.0.1:${port}`,
    FARSIGHT_CANARIES: 'off',
  };
});
afterEach(async () => {
  // Whatever a failed test left running, by its own pid.
  for (const s of started.splice(0)) {
    if (s.child.pid && alive(s.child.pid)) s.child.kill('SIGKILL');
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(command: string, args: string[], opts: { group?: boolean } = {}): Started {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.group === true,
  });
  let logs = '';
  child.stdout?.on('data', (d) => (logs += d));
  child.stderr?.on('data', (d) => (logs += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const s: Started = {
    child,
    logs: () => logs,
    exit,
    servicePid: () =>
      waitFor(
        'the service to listen',
        () =>
          /listening on/.test(logs) &&
          Number(fs.readFileSync(path.join(dir, 'data', 'farsight.lock.pid'), 'utf8').trim()),
        20_000,
      ),
  };
  started.push(s);
  return s;
}

/** The service stopped the graceful way: it said so, and its process is gone. */
async function stoppedGracefully(s: Started, pid: number, signal: string): Promise<void> {
  await waitFor('the service process to end', () => !alive(pid), 20_000);
  expect(s.logs()).toContain(`${signal} received, shutting down`);
  expect(s.logs()).toMatch(/INFO \[farsight\] stopped\n/);
}

it('stops the service gracefully when `npm start` gets SIGTERM, and leaves nothing running', async () => {
  const s = start('npm', ['start', '--silent']);
  const pid = await s.servicePid();
  s.child.kill('SIGTERM');
  await stoppedGracefully(s, pid, 'SIGTERM');
  await s.exit;
  expect(fs.existsSync(path.join(dir, 'data', 'farsight.db-wal'))).toBe(false);
});

it.each<NodeJS.Signals>(['SIGTERM', 'SIGHUP', 'SIGINT'])(
  'passes %s on to the service and exits with its code (0)',
  async (signal) => {
    const s = start(process.execPath, ['scripts/start.js']);
    const pid = await s.servicePid();
    s.child.kill(signal);
    await stoppedGracefully(s, pid, signal);
    expect(await s.exit).toEqual({ code: 0, signal: null });
  },
);

it('stops gracefully on Ctrl-C, which signals the whole foreground group: the service hears it once', async () => {
  const s = start(process.execPath, ['scripts/start.js'], { group: true });
  const pid = await s.servicePid();
  process.kill(-(s.child.pid as number), 'SIGINT');
  await stoppedGracefully(s, pid, 'SIGINT');
  expect(await s.exit).toEqual({ code: 0, signal: null });
});

it('exits with the code the service exits with', async () => {
  const s = start(process.execPath, ['scripts/start.js', 'restore']);
  expect(await s.exit).toEqual({ code: 2, signal: null });
  expect(s.logs()).toContain('usage: farsight restore FILE [--force]');
});
