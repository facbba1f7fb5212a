/**
 * Monitor secrets are sealed with the key in the data dir (or FARSIGHT_SECRET_KEY_FILE): the
 * database file and its WAL never hold them in clear text, answers mask them, checks send them.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { MASK } from '../../src/common/secrets/secrets';
import { databasePath } from '../../src/db/data-source';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor } from '../support/monitors';

/** An http target that answers 200 only to the expected credentials, and remembers what it got. */
async function startAuthTarget() {
  const seen: http.IncomingHttpHeaders[] = [];
  const expected: Record<string, string> = {};
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    const ok = Object.entries(expected).every(([name, value]) => req.headers[name] === value);
    res.statusCode = ok ? 200 : 401;
    res.end(ok ? 'ok' : 'who are you');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
    seen,
    expected,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Every byte SQLite has on disk for this database: the file, its WAL and its shared memory. */
function databaseBytes(dataDir: string): Buffer {
  const file = databasePath(dataDir);
  return Buffer.concat(
    [file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)),
  );
}

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

describe('monitor secrets at rest', () => {
  let t: TestApp;
  let write: string;
  let target: Awaited<ReturnType<typeof startAuthTarget>>;

  beforeAll(async () => {
    target = await startAuthTarget();
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
  });
  afterAll(async () => {
    await t.close();
    await target.close();
  });
  beforeEach(() => {
    target.seen.length = 0;
    for (const k of Object.keys(target.expected)) delete target.expected[k];
  });

  const checkNow = async (id: number) =>
    (await t.http.post(`/api/v1/monitors/${id}/check`).set(bearer(write)).expect(200)).body;
  const storedSettings = async (id: number) =>
    (await t.db.query<{ settings: string }[]>('SELECT settings FROM monitors WHERE id = ?', [id]))[0].settings;

  it('keeps a bearer token out of the database file and its WAL, answers it masked and sends the real one with checks', async () => {
    const token = secret('bearer');
    target.expected.authorization = `Bearer ${token}`;
    const body = httpMonitor(
      { name: 'Sealed bearer', confirm_after: 1 },
      { url: target.url, auth: { type: 'bearer', token } },
    );
    const m = (await t.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(201)).body;

    expect(m.http.auth).toEqual({ type: 'bearer', token: MASK });
    const got = (await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200)).body;
    expect(got.http.auth).toEqual({ type: 'bearer', token: MASK });

    const result = await checkNow(m.id);
    expect(target.seen.map((h) => h.authorization)).toEqual([`Bearer ${token}`]);
    expect(result).toMatchObject({ outcome: 'up', status: 200 });

    expect(await storedSettings(m.id)).toMatch(/"token":"enc:v1:[A-Za-z0-9+/=]+"/);
    // Before and after a checkpoint: the WAL is where a fresh write lands first.
    const before = databaseBytes(t.dataDir);
    expect(before.includes('Sealed bearer')).toBe(true); // the scan does see clear text where there is some
    expect(before.includes(token)).toBe(false);
    await t.db.query('PRAGMA wal_checkpoint(TRUNCATE)');
    expect(databaseBytes(t.dataDir).includes(token)).toBe(false);
  });

  it('seals basic auth passwords and secret header values, and leaves other headers readable', async () => {
    const password = secret('basic');
    const apiKey = secret('apikey');
    const plain = secret('plain');
    target.expected.authorization = `Basic ${Buffer.from(`monitor:${password}`).toString('base64')}`;
    target.expected['x-api-key'] = apiKey;
    const body = httpMonitor(
      { name: 'Sealed basic' },
      {
        url: target.url,
        auth: { type: 'basic', username: 'monitor', password },
        headers: [
          { name: 'X-Api-Key', value: apiKey },
          { name: 'X-Trace', value: plain, secret: false },
        ],
      },
    );
    const m = (await t.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(201)).body;
    expect(m.http.headers).toEqual([
      { name: 'X-Api-Key', value: MASK, secret: true },
      { name: 'X-Trace', value: plain, secret: false },
    ]);

    expect(await checkNow(m.id)).toMatchObject({ outcome: 'up' });
    expect(target.seen[0]['x-api-key']).toBe(apiKey);

    const bytes = databaseBytes(t.dataDir);
    expect(bytes.includes(plain)).toBe(true);
    expect(bytes.includes(password)).toBe(false);
    expect(bytes.includes(apiKey)).toBe(false);
  });

  it('keeps a masked secret sent back unchanged, still sealed with a fresh nonce', async () => {
    const token = secret('kept');
    target.expected.authorization = `Bearer ${token}`;
    const body = httpMonitor({ name: 'Kept' }, { url: target.url, auth: { type: 'bearer', token } });
    const m = (await t.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(201)).body;
    const first = await storedSettings(m.id);
    await t.http
      .patch(`/api/v1/monitors/${m.id}`)
      .set(bearer(write))
      .send({ name: 'Kept, renamed', http: { ...m.http } })
      .expect(200);
    const second = await storedSettings(m.id);
    expect(second).toMatch(/"token":"enc:v1:/);
    expect(second).not.toBe(first);
    expect(await checkNow(m.id)).toMatchObject({ outcome: 'up' });
  });
});

describe('monitor secrets written in clear text by an older version', () => {
  it('are sealed at the next start, leave no clear copy in the files, and are still sent with checks', async () => {
    const target = await startAuthTarget();
    const first = await startApp();
    const dataDir = first.dataDir;
    let second: TestApp | null = null;
    try {
      const { cookie } = await createOwner(first);
      const write = await createKey(first, cookie, 'write');
      const token = secret('legacy');
      target.expected.authorization = `Bearer ${token}`;
      const body = httpMonitor({ name: 'Legacy' }, { url: target.url, auth: { type: 'bearer', token } });
      const m = (await first.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(201)).body;
      // What a database from before encryption at rest holds.
      await first.db.query("UPDATE monitors SET settings = json_set(settings, '$.auth.token', ?) WHERE id = ?", [
        token,
        m.id,
      ]);
      await first.db.query('PRAGMA wal_checkpoint(TRUNCATE)');
      expect(databaseBytes(dataDir).includes(token)).toBe(true);
      await first.app.close();
      await first.db.close();

      second = await startApp({}, { dataDir });
      const [row] = await second.db.query<{ settings: string }[]>('SELECT settings FROM monitors WHERE id = ?', [m.id]);
      expect(row.settings).toMatch(/"token":"enc:v1:/);
      expect(databaseBytes(dataDir).includes(token)).toBe(false);
      expect(
        (await second.http.post(`/api/v1/monitors/${m.id}/check`).set(bearer(write)).expect(200)).body,
      ).toMatchObject({ outcome: 'up' });
      expect(target.seen.at(-1)?.authorization).toBe(`Bearer ${token}`);
    } finally {
      await second?.app.close();
      await second?.db.close();
      await target.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('FARSIGHT_SECRET_KEY_FILE', () => {
  it('seals with the key in that file and creates no secret.key in the data dir', async () => {
    const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-key-'));
    const keyFile = path.join(keyDir, 'credential');
    fs.writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`);
    const t = await startApp({ FARSIGHT_SECRET_KEY_FILE: keyFile });
    try {
      expect(t.config.secretKeyFile).toBe(keyFile);
      expect(fs.existsSync(path.join(t.dataDir, 'secret.key'))).toBe(false);
    } finally {
      await t.close();
      fs.rmSync(keyDir, { recursive: true, force: true });
    }
  });
});
