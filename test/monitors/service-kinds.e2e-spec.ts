/**
 * The service kinds (issue 38) through the API like any kind: created with their defaults, a
 * `target` one-liner, tested unsaved (POST /monitors/test), checked now (POST /monitors/{id}/check),
 * refused with field errors when their settings are bad, and carried through export and import.
 * Their checkers are proven against real servers in test/checkers/.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';

let t: TestApp;
let admin: string;
let smtpPort = 0;
const smtp = new SMTPServer({ disabledCommands: ['STARTTLS', 'AUTH'], logger: false });

beforeAll(async () => {
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  t = await startApp();
  const { cookie } = await createOwner(t);
  admin = await createKey(t, cookie, 'admin');
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const post = (path: string, body: object) => t.http.post(`/api/v1${path}`).set(bearer(admin)).send(body);

describe('service kinds through /monitors', () => {
  it.each([
    [
      'smtp',
      { host: 'mail.lan' },
      { host: 'mail.lan', port: 587, tls: 'starttls', tls_verify: true, tls_warn_days: 14 },
      'smtp mail.lan:587 (starttls)',
    ],
    [
      'redis',
      { url: 'redis://cache.lan/1' },
      { url: 'redis://cache.lan/1', password: null, tls: 'off' },
      'redis redis://cache.lan/1',
    ],
    [
      'postgres',
      { url: 'postgresql://app:pw@db.lan/shop' },
      { url: 'postgresql://app@db.lan/shop', password: '********', query: 'SELECT 1', tls: 'off' },
      'postgres postgresql://app@db.lan/shop',
    ],
    [
      'mysql',
      { url: 'mysql://app@db.lan:3307/shop', password: 'pw', query: 'SHOW STATUS' },
      { url: 'mysql://app@db.lan:3307/shop', password: '********', query: 'SHOW STATUS', tls: 'off' },
      'mysql mysql://app@db.lan:3307/shop',
    ],
    [
      'docker',
      { container: 'jellyfin' },
      { container: 'jellyfin', endpoint: 'unix:///var/run/docker.sock', require_healthy: true },
      'docker jellyfin @ unix:///var/run/docker.sock',
    ],
  ])('creates a %s monitor with its defaults and target', async (kind, given, settings, target) => {
    const res = await post('/monitors', { name: `a ${kind}`, kind, [kind]: given }).expect(201);
    expect(res.body).toMatchObject({ kind, [kind]: settings, target });
  });

  it.each([
    ['smtp', { host: 'mail.lan', port: 70000 }, ['smtp.port']],
    ['smtp', { host: 'bücher.lan' }, ['smtp.host']],
    ['smtp', { host: 'mail.lan', tls: 'ssl' }, ['smtp.tls']],
    ['smtp', { port: 25 }, ['smtp.host']],
    ['docker', { container: 'web', endpoint: 'tcp://nas.lan:2375/x?all=1' }, ['docker.endpoint']],
    ['docker', { container: '../web' }, ['docker.container']],
    ['docker', { container: 'web', require_healthy: 'yes' }, ['docker.require_healthy']],
    ['docker', { container: 'web', socket: '/run/docker.sock' }, ['docker.socket']],
    ['redis', { url: 'redis://cache.lan/0?protocol=3' }, ['redis.url']],
    ['redis', { url: 'redis://h1,h2' }, ['redis.url']],
    ['redis', { url: 'redis://cache.lan:99999' }, ['redis.url']],
    ['redis', { url: 'redis://:a@cache.lan', password: 'b' }, ['redis.url']],
    ['redis', { url: 'rediss://cache.lan' }, ['redis.tls']],
    ['redis', { url: 'redis://cache.lan', tls: true }, ['redis.tls']],
    ['postgres', { url: 'postgres://db.lan/shop?sslmode=disable' }, ['postgres.url']],
    ['postgres', { url: 'postgres://db.lan/shop?options=-c%20default_transaction_read_only%3Doff' }, ['postgres.url']],
    ['postgres', { url: 'postgres://db1,db2/shop' }, ['postgres.url']],
    ['postgres', { url: 'postgres://db.lan/shop', query: 'DELETE FROM orders' }, ['postgres.query']],
    ['postgres', { url: 'postgres://db.lan/shop', query: 'SELECT 1; DROP TABLE orders' }, ['postgres.query']],
    ['postgres', { url: 'postgres://db.lan/shop', query: 'x'.repeat(1001) }, ['postgres.query']],
    ['mysql', { url: 'mysql://db.lan/shop?ssl-mode=DISABLED' }, ['mysql.url']],
    ['mysql', { url: 'mysql://db.lan/shop', query: "SELECT * FROM t INTO OUTFILE '/tmp/x'" }, ['mysql.query']],
    ['mysql', { url: 'mysql://db.lan/shop', tls: 'prefer' }, ['mysql.tls']],
  ])('refuses %s settings %j with field errors, storing nothing', async (kind, given, fields) => {
    const before = await t.db.query('SELECT id FROM monitors');
    const res = await post('/monitors', { name: 'bad', kind, [kind]: given }).expect(422);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(fields);
    expect(await t.db.query('SELECT id FROM monitors')).toEqual(before);
  });

  it('tests an unsaved smtp monitor and checks a saved one now', async () => {
    const body = { name: 'Mail', kind: 'smtp', smtp: { host: '127.0.0.1', port: smtpPort, tls: 'none' } };
    const tested = await post('/monitors/test', body).expect(200);
    expect(tested.body).toMatchObject({ outcome: 'up', error: null, detail: expect.stringMatching(/^banner: 220 /) });
    const created = await post('/monitors', body).expect(201);
    const checked = await post(`/monitors/${created.body.id}/check`, {}).expect(200);
    expect(checked.body).toMatchObject({ outcome: 'up', error: null });
  });

  it('checks a docker monitor now and says what is wrong with its socket', async () => {
    const body = {
      name: 'Box',
      kind: 'docker',
      docker: { container: 'web', endpoint: 'unix:///nonexistent/docker.sock' },
    };
    const res = await post('/monitors/test', body).expect(200);
    expect(res.body).toMatchObject({ outcome: 'down', error: { code: 'connect' } });
    expect(res.body.error.message).toContain('no Docker socket at /nonexistent/docker.sock');
  });

  it('masks a redis password, keeps it for ******** on the same server, and drops it when the host changes', async () => {
    const created = await post('/monitors', {
      name: 'Cache',
      kind: 'redis',
      redis: { url: 'redis://app:hunter2@cache.lan:6379/2' },
    }).expect(201);
    expect(created.body.redis).toEqual({ url: 'redis://app@cache.lan:6379/2', password: '********', tls: 'off' });
    expect(created.text).not.toContain('hunter2');
    const id = created.body.id;
    const stored = async () =>
      ((await t.db.query('SELECT settings FROM monitors WHERE id = ?', [id])) as { settings: string }[])[0].settings;
    const before = await stored();
    // Sealed at rest (docs/security.md): the stored row never holds the password in clear.
    expect(before).not.toContain('hunter2');

    const patch = (body: object) => t.http.patch(`/api/v1/monitors/${id}`).set(bearer(admin)).send(body);
    await patch({ redis: { url: 'redis://app@cache.lan:6379/3', password: '********' } }).expect(200);
    const moved = await patch({ redis: { url: 'redis://app@evil.example:6379/3', password: '********' } }).expect(422);
    expect(moved.body.error.fields).toEqual([
      {
        field: 'redis.password',
        message: 'the server (scheme, host or port of the URL) changed: send the password again',
      },
    ]);
    // A patch that leaves the password out merges over the masked one: the same rule applies.
    await patch({ redis: { url: 'redis://app@evil.example:6379/3' } }).expect(422);
    const listed = await t.http.get(`/api/v1/monitors/${id}`).set(bearer(admin)).expect(200);
    expect(listed.body.redis.url).toBe('redis://app@cache.lan:6379/3');
    const exported = await t.http.get('/api/v1/export').set(bearer(admin)).expect(200);
    expect(exported.text).not.toContain('hunter2');
  });

  it('carries the service kinds through export and import', async () => {
    const doc = (await t.http.get('/api/v1/export?secrets=1').set(bearer(admin)).expect(200)).body;
    const kinds = doc.monitors.map((m: { kind: string }) => m.kind);
    expect(kinds).toEqual(expect.arrayContaining(['smtp', 'docker', 'redis', 'postgres', 'mysql']));
    // With secrets, the redis password is in clear, as its own setting (the URL holds none).
    const cache = doc.monitors.find((m: { name: string }) => m.name === 'Cache');
    expect(cache.redis).toEqual({ url: 'redis://app@cache.lan:6379/3', password: 'hunter2', tls: 'off' });
    const other = await startApp();
    try {
      const { cookie } = await createOwner(other);
      const key = await createKey(other, cookie, 'admin');
      await other.http
        .post('/api/v1/import')
        .set(bearer(key))
        .send({ ...doc, dry_run: false })
        .expect(200);
      const again = (await other.http.get('/api/v1/export?secrets=1').set(bearer(key)).expect(200)).body;
      expect(again.monitors).toEqual(doc.monitors);
    } finally {
      await other.close();
    }
  });
});
