/**
 * POST /import/kuma on the real app, with Kuma databases built in the test from Kuma's own schema
 * (test/support/kuma-fixture.ts): a dry run changes nothing; apply creates what the dry run said,
 * in one transaction; a second import reports everything unchanged; the items this service cannot
 * take are skipped with their reason; bad files are refused with words, nothing written.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { buildKumaDb } from '../support/kuma-fixture';
import { kumaSample, PUSH_TOKEN } from '../support/kuma-sample';

interface Item {
  type: string;
  name: string;
  key: string | null;
  outcome: string;
  reason: string | null;
  notes: string[];
}

describe('POST /import/kuma', () => {
  let t: TestApp;
  let admin: string;
  let cookie: string;
  let dir: string;

  // A fresh service per test: each starts from an empty setup.
  beforeEach(async () => {
    t = await startApp();
    cookie = (await createOwner(t)).cookie;
    admin = await createKey(t, cookie, 'admin');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kuma-e2e-'));
  });
  afterEach(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const upload = (bytes: Buffer, query = '') =>
    t.http
      .post(`/api/v1/import/kuma${query}`)
      .set(bearer(admin))
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);

  const monitorCount = async () =>
    (await t.http.get('/api/v1/monitors?limit=200').set(bearer(admin)).expect(200)).body.items.length;

  it.each(['1.23', '2.x'] as const)(
    'reads a Kuma %s database: dry run, apply, then everything unchanged',
    async (version) => {
      const file = path.join(dir, `kuma-${version}.db`);
      await buildKumaDb(file, kumaSample(), { version });
      const bytes = fs.readFileSync(file);
      const before = await monitorCount();

      const dry = await upload(bytes).expect(200);
      expect(dry.body.dry_run).toBe(true);
      expect(dry.body.applied).toBe(false);
      expect(dry.body.source).toMatch(version === '1.23' ? /Uptime Kuma 1\.23 database/ : /Uptime Kuma 2\.x database/);
      expect(await monitorCount()).toBe(before);
      const items = dry.body.items as Item[];
      const one = (type: string, name: string) => items.find((i) => i.type === type && i.name === name)!;
      // What this service maps today is planned; the rest says why not.
      for (const name of [
        'NAS web',
        'Blog',
        'API',
        'SSH',
        'Router',
        'DNS',
        'Backup job',
        'Upside',
        'Paused site',
        'Plex',
        'Postgres',
        'MariaDB',
        'Redis',
        'MQTT',
        'gRPC',
      ])
        expect(one('monitor', name).outcome).toBe('created');
      for (const name of ['Mail', 'Hook', 'Discord', 'Slack', 'Teams', 'Google Chat', 'ntfy', 'Gotify', 'Telegram'])
        expect(one('channel', name).outcome).toBe('created');
      for (const name of ['Pushover', 'Matrix', 'PagerDuty', 'Home Assistant'])
        expect(one('channel', name).outcome).toBe('created');
      // Kinds Kuma has and this service not say so.
      expect(one('monitor', 'Steam server').reason).toMatch(/"steam" monitors have no counterpart/);
      expect(one('monitor', 'Broken codes').reason).toBe('accepted_statuscodes_json is not valid JSON');
      expect(one('monitor', 'Negative').reason).toMatch(/interval -5 is not a positive number/);
      expect(one('channel', 'Line').reason).toMatch(/"line" notifications have no counterpart/);
      expect(one('channel', 'Apprise').reason).toMatch(/Apprise API server/);
      expect(one('monitor', 'Home').reason).toMatch(/group/);
      for (const name of ['By hand', 'Move', 'Weekly', 'Monthly', 'Daily', 'Cron nightly', 'Cron sundays'])
        expect(one('maintenance', name).outcome).toBe('created');
      expect(one('maintenance', 'Every 3 days').reason).toMatch(/cannot be expressed/);
      expect(one('status_page', 'Home status').outcome).toBe('updated');

      const applied = await upload(bytes, '?apply=true').expect(200);
      expect(applied.body.applied).toBe(true);
      // Apply does what the dry run said, item by item.
      expect((applied.body.items as Item[]).map((i) => [i.type, i.name, i.outcome])).toEqual(
        items.map((i) => [i.type, i.name, i.outcome]),
      );
      expect(await monitorCount()).toBe(before + 15);

      const nas = (await t.http.get('/api/v1/monitors/slug:nas-web').set(bearer(admin)).expect(200)).body;
      expect(nas).toMatchObject({
        group: 'Home / Servers',
        tags: ['env:prod', 'lan'],
        interval_s: 60,
        confirm_after: 3,
        retry_interval_s: 20,
        remind_every_min: 10,
        timeout_ms: 48000,
        public: true,
        public_group: 'Services',
        http: {
          url: 'https://nas.lan/',
          tls_verify: false,
          expect_status: '200-299,401',
          auth: { type: 'basic', username: 'admin', password: '********' },
        },
      });
      // Kuma kept its secrets in clear; here they are sealed under this service's key on disk.
      const stored = JSON.stringify(await t.db.query('SELECT * FROM monitors'));
      expect(stored).toContain('nas.lan');
      expect(stored).not.toContain('hunter2');
      expect(stored).not.toContain('abc123');
      // A key header is a secret here, kept sealed and masked in answers.
      expect(nas.http.headers).toEqual([{ name: 'X-Api-Key', value: '********', secret: true }]);
      const page = (await t.http.get('/api/v1/status-page').set(bearer(admin)).expect(200)).body;
      expect(page).toMatchObject({ title: 'Home status', description: 'Everything at home' });

      const again = await upload(bytes, '?apply=true').expect(200);
      expect(again.body.counts).toMatchObject({ created: 0, updated: 0 });
      expect(again.body.counts.unchanged).toBe(applied.body.counts.created + applied.body.counts.updated);
    },
  );

  it('an imported push monitor takes Kuma-style pushes: up, down with its message, and bad ones refused', async () => {
    const file = path.join(dir, 'kuma.db');
    await buildKumaDb(file, kumaSample(), { version: '2.x' });
    await upload(fs.readFileSync(file), '?apply=true').expect(200);
    const state = async () =>
      (await t.http.get('/api/v1/monitors/slug:backup-job').set(bearer(admin)).expect(200)).body.state;

    await t.http.get(`/api/push/${PUSH_TOKEN}?status=up&msg=OK&ping=120`).expect(200, 'OK\n');
    expect((await state()).status).toBe('up');
    await t.http.get(`/api/push/${PUSH_TOKEN}?status=down&msg=disk%20full`).expect(200);
    const down = await state();
    expect(down.status).toBe('down');
    expect(down.error).toMatchObject({ code: 'heartbeat', message: 'failure reported: disk full' });
    // The same token on this service's own ping URL.
    await t.http.get(`/hb/${PUSH_TOKEN}`).expect(200);
    expect((await state()).status).toBe('up');

    await t.http.get(`/api/push/${PUSH_TOKEN}?status=maybe`).expect(400, 'status must be up or down\n');
    await t.http.get(`/api/push/${PUSH_TOKEN}?ping=fast`).expect(400);
    await t.http.get('/api/push/NoSuchToken1').expect(404, 'unknown heartbeat URL\n');
    await t.http.delete(`/api/push/${PUSH_TOKEN}`).expect(405);
  });

  it('shares the limits of /hb/: unknown push URLs from one address are cut off after 60 a minute', async () => {
    for (let i = 0; i < 60; i++) await t.http.get(`/api/push/Unknown${i}`).expect(404);
    const res = await t.http.get('/api/push/Unknown60').expect(429);
    expect(res.text).toBe('too many requests\n');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The same budget as the heartbeat routes: they are one limiter.
    await t.http.get('/hb/unknown-token-0123456789').expect(429);
  });

  it('reads a Kuma 1.x JSON backup', async () => {
    const backup = {
      version: '1.23.16',
      notificationList: [
        {
          id: 1,
          name: 'Discord',
          active: true,
          isDefault: false,
          userId: 1,
          config: JSON.stringify({
            type: 'discord',
            name: 'Discord',
            discordWebhookUrl: 'https://discord.com/api/webhooks/9/z',
          }),
        },
      ],
      monitorList: [
        {
          id: 1,
          name: 'Site',
          type: 'keyword',
          url: 'https://site.example/',
          keyword: 'Hello',
          invertKeyword: true,
          interval: 120,
          retryInterval: 30,
          resendInterval: 0,
          maxretries: 1,
          timeout: 10,
          ignoreTls: false,
          upsideDown: false,
          accepted_statuscodes: ['200-299'],
          notificationIDList: { 1: true },
          tags: [{ tag_id: 4, name: 'web', value: '' }],
          active: true,
        },
      ],
      proxyList: [],
    };
    const res = await upload(Buffer.from(JSON.stringify(backup)), '?apply=true').expect(200);
    expect(res.body.source).toBe('Uptime Kuma 1.23.16 backup');
    expect(res.body.counts).toMatchObject({ created: 2, skipped: 0 });
    const site = (await t.http.get('/api/v1/monitors/slug:site').set(bearer(admin)).expect(200)).body;
    expect(site).toMatchObject({
      interval_s: 120,
      retry_interval_s: 30,
      confirm_after: 2,
      timeout_ms: 10000,
      tags: ['web'],
    });
    expect(site.http).toMatchObject({ body_not_contains: 'Hello', body_contains: null });
  });

  it.each([
    [
      'a file that is not SQLite',
      () => Buffer.from('PK\u0003\u0004 a zip file'),
      /not an Uptime Kuma database or backup/,
    ],
    [
      'a SQLite database of another program',
      async () => sqliteOf('CREATE TABLE things (id INTEGER)'),
      /not one of Uptime Kuma/,
    ],
    ['a JSON file that is not a backup', () => Buffer.from('{"hello": 1}'), /not an Uptime Kuma backup/],
    [
      'a backup of an unknown version',
      () => Buffer.from('{"version": "3.0.0", "monitorList": [], "notificationList": []}'),
      /unknown version \(3\.0\.0\)/,
    ],
    [
      'a database older than 1.23',
      async () => {
        const file = path.join(dir, 'old.db');
        await buildKumaDb(file, kumaSample(), { version: '1.23', withoutPatches: ['patch-add-timeout-monitor.sql'] });
        return fs.readFileSync(file);
      },
      /unknown version \(1\.x schema version 10, older than 1\.23.*patch-add-timeout-monitor\.sql/,
    ],
  ])('refuses %s, saying why, and writes nothing', async (_what, make, message) => {
    const before = await monitorCount();
    const res = await upload(await make(), '?apply=true').expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'file', message: expect.stringMatching(message) });
    expect(await monitorCount()).toBe(before);
  });

  it('refuses an apply parameter it cannot read, and an empty body', async () => {
    const res = await upload(Buffer.from('x'), '?apply=yes').expect(422);
    expect(res.body.error.field).toBe('apply');
    expect((await upload(Buffer.alloc(0)).expect(422)).body.error.field).toBe('body');
  });

  it('takes the dashboard’s upload (session cookie, its Origin, octet-stream), and no other cookie request', async () => {
    const bytes = Buffer.from(JSON.stringify({ version: '1.23.16', monitorList: [], notificationList: [] }));
    const post = () => t.http.post('/api/v1/import/kuma').set('Cookie', cookie);
    await post().set('Origin', ORIGIN).set('Content-Type', 'application/octet-stream').send(bytes).expect(200);
    // A form or plain text can be sent cross-site without a preflight: refused.
    await post().set('Origin', ORIGIN).set('Content-Type', 'text/plain').send(bytes.toString()).expect(403);
    await post().set('Content-Type', 'application/octet-stream').send(bytes).expect(403);
    await post()
      .set('Origin', 'https://evil.example')
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(403);
  });

  it('compares an Idempotency-Key by the uploaded bytes: the same file is answered again, another file is refused', async () => {
    const file = path.join(dir, 'kuma.db');
    await buildKumaDb(file, kumaSample(), { version: '1.23' });
    const bytes = fs.readFileSync(file);
    const before = await monitorCount();
    const first = await upload(bytes, '?apply=true').set('Idempotency-Key', 'kuma-1').expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const created = (first.body.items as Item[]).filter((i) => i.outcome === 'created').length;
    expect(created).toBeGreaterThan(10);
    expect(await monitorCount()).toBeGreaterThan(before);
    const after = await monitorCount();

    // The same bytes with the same key: the first answer again (all "created"), nothing done twice.
    const again = await upload(bytes, '?apply=true').set('Idempotency-Key', 'kuma-1').expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await monitorCount()).toBe(after);

    // Other bytes with that key: 422 on the key, nothing imported (before the fix the parsed body,
    // empty for an upload, was compared, so any file was "the same request").
    const other = Buffer.from(JSON.stringify({ version: '1.23.16', monitorList: [], notificationList: [] }));
    const refused = await upload(other, '?apply=true').set('Idempotency-Key', 'kuma-1').expect(422);
    expect(refused.body.error.field).toBe('Idempotency-Key');
    // Without the key the same file is imported again, and finds everything unchanged.
    const plain = await upload(bytes, '?apply=true').expect(200);
    expect((plain.body.items as Item[]).filter((i) => i.outcome === 'created')).toEqual([]);
  });

  it('needs an admin key', async () => {
    await t.http
      .post('/api/v1/import/kuma')
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('x'))
      .expect(401);
  });

  async function sqliteOf(sql: string): Promise<Buffer> {
    const file = path.join(dir, `other-${Math.random()}.db`);
    const sqlite3 = await import('sqlite3');
    await new Promise<void>((resolve, reject) => {
      const db = new sqlite3.Database(file, (err) => {
        if (err) return reject(err);
        db.exec(sql, (e) => (e ? reject(e) : db.close(() => resolve())));
      });
    });
    return fs.readFileSync(file);
  }
});
