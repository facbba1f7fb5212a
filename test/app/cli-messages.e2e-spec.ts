/**
 * What the `farsight` command tells a first-time owner (issue 33), on the built entry point
 * (`node dist/main.js`, built by `npm test` before jest runs): where the service can be opened,
 * that a backup needs its secret key, what a restore found sealed, that restore needs the service
 * stopped, and that an enrolment link cannot add a passkey at an IP address.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../harness/paths';
import { bearer, createKey, createOwner, startApp } from '../support/app';
import { waitFor } from '../support/wait-for';
import { version } from '../../package.json';

jest.setTimeout(60_000);

const ENTRY = path.resolve(__dirname, '..', '..', 'dist', 'main.js');

let dir: string;
let port: number;
const envFor = (dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  FARSIGHT_DATA_DIR: dataDir,
  FARSIGHT_LISTEN: `127.0.0.1:${port}`,
  FARSIGHT_CANARIES: 'off',
  ...extra,
});
const run = (dataDir: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [ENTRY, ...args], { env: envFor(dataDir, extra), encoding: 'utf8', timeout: 30_000 });

/** `serve` until `until` is logged (by default its setup link); the lines it logged, and a stop. */
async function serveUntilReady(
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
  until = /Finish setup at/,
): Promise<{ child: ChildProcess; logs: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [ENTRY, 'serve'], {
    env: envFor(dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logs = '';
  child.stdout?.on('data', (d) => (logs += d));
  child.stderr?.on('data', (d) => (logs += d));
  const exit = new Promise((r) => child.once('exit', r));
  await waitFor(`${until} in the log`, () => until.test(logs));
  return {
    child,
    logs: () => logs,
    stop: async () => {
      child.kill('SIGTERM');
      await exit;
    },
  };
}

beforeAll(() => {
  if (!fs.existsSync(ENTRY)) throw new Error('dist/main.js is missing: run `npm run build` (npm test does)');
});
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-cli-words-'));
  port = await freePort();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('logs first where the service can be opened: every interface address for 0.0.0.0, and where the public URL comes from', async () => {
  const s = await serveUntilReady(path.join(dir, 'data'), { FARSIGHT_LISTEN: `0.0.0.0:${port}` });
  await s.stop();
  const lines = s
    .logs()
    .split('\n')
    .filter((l) => l.includes('[farsight]'));
  const v4 = Object.values(os.networkInterfaces())
    .flatMap((l) => l ?? [])
    .filter((a) => a.family === 'IPv4')
    .map((a) => `http://${a.address}:${port}`);
  expect(lines[0]).toContain(`Farsight ${version} listening on 0.0.0.0:${port}: http://127.0.0.1:${port}`);
  for (const url of v4) expect(lines[0]).toContain(url);
  expect(lines[1]).toContain(
    `Public URL http://localhost:${port} (the default: FARSIGHT_PUBLIC_URL is not set). Open Farsight from another machine at one of the addresses above`,
  );
  expect(lines[2]).toMatch(
    new RegExp(
      `Finish setup at http://localhost:${port}/setup/\\S+ \\(valid 24 hours; .*from another machine, put one of the addresses above in place of http://localhost:${port}\\)`,
    ),
  );
});

it('prints links with the public URL saved at setup, and says where it comes from at start', async () => {
  const dataDir = path.join(dir, 'data');
  const t = await startApp({ FARSIGHT_PUBLIC_URL: '' }, { dataDir });
  await t.db.query("INSERT INTO settings (key, value) VALUES ('public_url', '\"http://192.168.1.5:8080\"')");
  await t.app.close();
  await t.db.close();
  expect(run(dataDir, ['setup-link']).stdout).toMatch(/^http:\/\/192\.168\.1\.5:8080\/setup\/[A-Za-z0-9_-]{32}\n$/);
  const s = await serveUntilReady(dataDir);
  await s.stop();
  expect(s.logs()).toContain(
    'Public URL http://192.168.1.5:8080 (saved at first-run setup; FARSIGHT_PUBLIC_URL overrides it)',
  );
});

describe('backup and restore', () => {
  /** A data dir whose only sealed secret is a webhook channel's, and a backup of it. */
  async function channelOnlyBackup(): Promise<{ source: string; file: string }> {
    const source = path.join(dir, 'source');
    const t = await startApp({}, { dataDir: source });
    try {
      const { cookie } = await createOwner(t);
      const admin = await createKey(t, cookie, 'admin');
      await t.http
        .post('/api/v1/channels')
        .set(bearer(admin))
        .send({
          kind: 'webhook',
          name: 'Hook',
          config: { url: 'http://127.0.0.1:9/hook', secret: 'a-signing-secret-of-some-length', headers: [] },
        })
        .expect(201);
    } finally {
      await t.app.close();
      await t.db.close();
    }
    const file = path.join(dir, 'backup.db');
    const b = run(source, ['backup', file]);
    expect(b.status).toBe(0);
    expect(b.stdout).toBe(
      `backup written to ${file} (${fs.statSync(file).size} bytes)\n` +
        `keep it together with a copy of the secret key ${path.join(source, 'secret.key')}: the backup does not contain it, and the monitor and channel secrets in the backup cannot be opened without it (docs/backup.md)\n`,
    );
    return { source, file };
  }

  it('reminds that the secret key must be kept with a backup, and names channel secrets when only channels hold them', async () => {
    const { file } = await channelOnlyBackup();
    const target = path.join(dir, 'fresh');
    const r = run(target, ['restore', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is missing, but the database holds channel secrets sealed with it');
    fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(target, 'secret.key'), Buffer.alloc(32, 7), { mode: 0o600 });
    const other = run(target, ['restore', file]);
    expect(other.stderr).toMatch(
      /holds secrets this data dir's key cannot open: .*secret\.key: this key does not open the channel secrets stored in the database/,
    );
  });

  it('refuses to restore while the service runs, saying to stop it first', async () => {
    const { source, file } = await channelOnlyBackup();
    const s = await serveUntilReady(source, {}, /Public URL/);
    try {
      const r = run(source, ['restore', file, '--force']);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /^farsight: restore needs the service stopped: .* is in use by another farsight serve \(pid \d+\).*; stop the service first \(`systemctl stop farsight`, or Ctrl-C where it runs\), then run restore again\n$/,
      );
    } finally {
      await s.stop();
    }
  });
});

describe('enroll-link', () => {
  async function withOwner(dataDir: string): Promise<void> {
    const t = await startApp({}, { dataDir });
    await createOwner(t);
    await t.app.close();
    await t.db.close();
  }

  it('warns on stderr that passkeys cannot work at an IP address, and says what to do; stdout stays the one link', async () => {
    const dataDir = path.join(dir, 'data');
    await withOwner(dataDir);
    const r = run(dataDir, ['enroll-link'], { FARSIGHT_PUBLIC_URL: 'http://192.168.1.5:8080' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/192\.168\.1\.5:8080\/enroll\/[A-Za-z0-9_-]+\n$/);
    expect(r.stderr).toBe(
      'farsight: warning: this link adds a passkey, which cannot work at http://192.168.1.5:8080: passkeys need a host name, and 192.168.1.5:8080 is an IP address: ' +
        'use a name (https with a reverse proxy), or sign in with password and authenticator. ' +
        'For passkeys, set FARSIGHT_PUBLIC_URL to an https address with a host name (docs/passkeys.md), restart, and run enroll-link again\n',
    );
  });

  it('says nothing more where passkeys work', async () => {
    const dataDir = path.join(dir, 'data');
    await withOwner(dataDir);
    const r = run(dataDir, ['enroll-link'], { FARSIGHT_PUBLIC_URL: 'https://status.example.com' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });
});
