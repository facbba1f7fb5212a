/**
 * Test harness: the real application on a real SQLite database in a temp dir, driven by a fake
 * clock. Helpers create the owner through the real setup flow and mint API keys through POST /keys.
 */
import { SignInService } from '../../src/auth/sign-in/sign-in.service';
import { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app';
import { issueSetupLink } from '../../src/auth/setup/links';
import { totpAt } from '../../src/auth/password/totp';
import { manualTimers, Timers } from '../../src/engine/scheduling/scheduler';
import { FakeClock } from '../../src/common/clock';
import { LineLogger } from '../../src/runtime/logger';
import { AppConfig, loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/db/data-source';
import { ENTITIES } from '../../src/entities';
import { Database } from '../../src/db/database';
import { loadSecretBox } from '../../src/db/secret-key';
import { sealedSecretSample } from '../../src/catalog/monitors.repository';
import type { StreamOptions } from '../../src/stream/stream-options';
import type { HostsOptions } from '../../src/hosts/hosts-options';

export const PUBLIC_URL = 'http://farsight.test';
export const ORIGIN = PUBLIC_URL;
export const OWNER = { email: 'owner@example.com', password: 'correct horse battery' };

export interface TestApp {
  app: INestApplication;
  http: ReturnType<typeof request>;
  db: Database;
  clock: FakeClock;
  config: AppConfig;
  dataDir: string;
  /** Every log line the app wrote (debug level and up), for asserting that secrets never reach logs. */
  logs: string[];
  close(): Promise<void>;
}

export interface StartOptions {
  ca?: string;
  timers?: Timers;
  /** Reuse a data dir (a restart); it is then not removed on close. */
  dataDir?: string;
  clock?: FakeClock;
  /** The live stream's limits and periods (a short keep-alive, a small ring). */
  stream?: Partial<StreamOptions>;
  /** Custom hosts' timings (short ACME timeouts and polling). */
  hosts?: Partial<HostsOptions>;
}

export async function startApp(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-test-'));
  const config = loadConfig({
    FARSIGHT_DATA_DIR: dataDir,
    FARSIGHT_PUBLIC_URL: PUBLIC_URL,
    FARSIGHT_CANARIES: 'off',
    FARSIGHT_LOG_LEVEL: 'error',
    ...env,
  });
  const clock = opts.clock ?? new FakeClock(Date.UTC(2026, 10, 1, 12, 0, 0));
  const db = new Database(await openDatabase(dataDir, ENTITIES));
  // As `serve` does: the key file in the data dir (or FARSIGHT_SECRET_KEY_FILE), created on first start.
  const secrets = await loadSecretBox(config, () => sealedSecretSample((sql) => db.read(sql)));
  const logs: string[] = [];
  const logger = new LineLogger('debug', (line) => {
    logs.push(line);
    if (process.env.TEST_LOGS) process.stderr.write(line);
  });
  // Scheduled checks never run by themselves in tests: a test moves the fake clock and calls tick().
  const app = await createApp(
    {
      config,
      db,
      clock,
      secrets,
      ca: opts.ca,
      timers: opts.timers ?? manualTimers,
      stream: opts.stream,
      hosts: opts.hosts,
    },
    { logger },
  );
  const server = app.getHttpServer();
  return {
    app,
    http: request(server),
    db,
    clock,
    config,
    dataDir,
    logs,
    async close() {
      await app.close();
      await db.close();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Issues a setup link the way `farsight setup-link` does and returns its token. */
export async function setupToken(t: TestApp): Promise<string> {
  const link = await issueSetupLink(t.db, t.clock.now(), t.config.publicUrl);
  return link.url.split('/').pop() as string;
}

/** Completes first-run setup; returns the session cookie header value and the recovery codes. */
export async function createOwner(t: TestApp): Promise<{ cookie: string; codes: string[]; secret: string }> {
  const token = await setupToken(t);
  const info = await t.http.get(`/api/v1/auth/setup/${token}`).expect(200);
  const secret = info.body.totp.secret as string;
  const res = await t.http
    .post(`/api/v1/auth/setup/${token}`)
    .set('Origin', ORIGIN)
    .send({ ...OWNER, code: totpAt(secret, t.clock.now()) })
    .expect(200);
  const cookie = (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  // The sign-in notice is mailed in the background: let it finish, so a test starts from quiet.
  await t.app.get(SignInService).settled();
  return { cookie, codes: res.body.recovery_codes, secret };
}

/** Mints an API key with the owner session, as the dashboard does. */
export async function createKey(
  t: TestApp,
  cookie: string,
  scope: 'read' | 'write' | 'admin',
  name = `${scope} key`,
): Promise<string> {
  const res = await t.http
    .post('/api/v1/keys')
    .set('Cookie', cookie)
    .set('Origin', ORIGIN)
    .send({ name, scope })
    .expect(201);
  return res.body.key as string;
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * The app with an owner and a write key, listening on a port of 127.0.0.1: for tests that send
 * raw requests (bodies cut short, encodings, bytes on the wire) that supertest would tidy up.
 */
export async function startListeningApp(): Promise<{ t: TestApp; port: number; write: Record<string, string> }> {
  const t = await startApp();
  const { cookie } = await createOwner(t);
  const write = bearer(await createKey(t, cookie, 'write'));
  const server = t.app.getHttpServer() as import('node:http').Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { t, port: (server.address() as import('node:net').AddressInfo).port, write };
}

/** POST /monitors with a key that may write; the created monitor's answer (fails the test unless 201). */
// The answer is supertest's untyped body: tests read whichever fields they are about.
export async function createMonitor(t: TestApp, key: string, body: object) {
  return (await t.http.post('/api/v1/monitors').set(bearer(key)).send(body).expect(201)).body;
}
