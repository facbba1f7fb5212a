import { MonitorsRepository } from '../../src/catalog/monitors.repository';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, httpMonitor, tcpMonitor } from '../support/monitors';

describe('bulk, secrets and hostile monitor bodies', () => {
  let t: TestApp;
  let write: string;
  let read: string;
  let write2: string;

  beforeAll(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
    write2 = await createKey(t, cookie, 'write', 'second write key');
    read = await createKey(t, cookie, 'read');
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.db.query('DELETE FROM monitors');
  });

  const bulk = (body: object) => t.http.post('/api/v1/monitors/bulk').set(bearer(write)).send(body);
  const count = async () => (await t.db.query<unknown[]>('SELECT id FROM monitors')).length;

  describe('POST /monitors/bulk', () => {
    const file = [
      tcpMonitor({ name: 'Postgres' }),
      httpMonitor({ name: 'Blog' }),
      heartbeatMonitor({ slug: 'backup' }),
    ];

    it('creates, then reports unchanged, then updated, matched by slug', async () => {
      const first = await bulk({ monitors: file }).expect(200);
      expect(first.body).toEqual({ created: ['postgres', 'blog', 'backup'], updated: [], unchanged: [], errors: [] });
      const again = await bulk({ monitors: file }).expect(200);
      expect(again.body).toEqual({ created: [], updated: [], unchanged: ['postgres', 'blog', 'backup'], errors: [] });
      const changed = await bulk({ monitors: [{ ...file[0], interval_s: 120 }, file[1]] }).expect(200);
      expect(changed.body).toEqual({ created: [], updated: ['postgres'], unchanged: ['blog'], errors: [] });
      expect(await count()).toBe(3);
    });

    it('reports exactly what a real run would do on dry_run, and writes nothing', async () => {
      await bulk({ monitors: [file[0]] }).expect(200);
      const dry = await bulk({
        monitors: [{ ...file[0], interval_s: 300 }, file[1], { name: '' }],
        dry_run: true,
      }).expect(200);
      expect(await count()).toBe(1);
      const real = await bulk({ monitors: [{ ...file[0], interval_s: 300 }, file[1], { name: '' }] }).expect(200);
      expect(real.body).toEqual(dry.body);
      expect(await count()).toBe(2);
    });

    it('applies the valid items and reports each invalid one with its slug, index and fields', async () => {
      const res = await bulk({
        monitors: [
          tcpMonitor({ name: 'Good' }),
          tcpMonitor({ name: 'Bad', interval_s: 5 }),
          'not an object',
          httpMonitor({ name: 'Good' }),
        ],
      }).expect(200);
      expect(res.body.created).toEqual(['good']);
      expect(res.body.errors).toEqual([
        { slug: 'bad', index: 1, fields: [{ field: 'interval_s', message: expect.any(String) }] },
        { slug: null, index: 2, fields: [expect.objectContaining({ message: expect.any(String) })] },
        { slug: 'good', index: 3, fields: [{ field: 'slug', message: 'appears more than once in this request' }] },
      ]);
      expect(await count()).toBe(1);
    });

    it.each([
      ['no monitors array', {}, 'monitors'],
      ['monitors not an array', { monitors: {} }, 'monitors'],
      ['1,001 items', { monitors: Array.from({ length: 1001 }, (_, i) => tcpMonitor({ name: `m${i}` })) }, 'monitors'],
      ['dry_run as text', { monitors: [], dry_run: 'yes' }, 'dry_run'],
      ['an unknown field', { monitors: [], force: true }, 'force'],
    ])('refuses %s with 422', async (_, body, field) => {
      const res = await bulk(body).expect(422);
      expect(res.body.error.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(await count()).toBe(0);
    });

    it('takes 1,000 items in one request', async () => {
      const res = await bulk({
        monitors: Array.from({ length: 1000 }, (_, i) => tcpMonitor({ name: `m${i}` })),
      }).expect(200);
      expect(res.body.created).toHaveLength(1000);
      expect(await count()).toBe(1000);
    });
  });

  describe('secrets', () => {
    const secretBody = httpMonitor(
      { name: 'Router' },
      {
        url: 'https://admin:hunter2-pass@router.lan:8443/status',
        headers: [
          { name: 'X-Api-Key', value: 'key-AAAA-1111' },
          { name: 'X-Debug', value: 'plain-value', secret: true },
          { name: 'Accept', value: 'application/json' },
        ],
      },
    );
    const SECRETS = ['hunter2-pass', 'key-AAAA-1111', 'plain-value'];

    it('never answers, lists or logs a secret', async () => {
      const created = await t.http.post('/api/v1/monitors').set(bearer(write)).send(secretBody).expect(201);
      expect(created.body.http).toMatchObject({
        url: 'https://router.lan:8443/status',
        auth: { type: 'basic', username: 'admin', password: '********' },
        headers: [
          { name: 'X-Api-Key', value: '********', secret: true },
          { name: 'X-Debug', value: '********', secret: true },
          { name: 'Accept', value: 'application/json', secret: false },
        ],
      });
      const answers = [
        created.body,
        (await t.http.get('/api/v1/monitors').set(bearer(read))).body,
        (await t.http.get(`/api/v1/monitors/${created.body.id}`).set(bearer(read))).body,
        (
          await t.http
            .patch(`/api/v1/monitors/${created.body.id}`)
            .set(bearer(write))
            .send({ http: { url: 'https://elsewhere.lan/' } })
        ).body,
      ];
      const events = await t.db.query('SELECT text, data FROM events');
      const everything = JSON.stringify([answers, events, t.logs]);
      for (const s of SECRETS) expect(everything).not.toContain(s);
      // Lists are built from rows whose secrets stay sealed: masked all the same, never shown sealed.
      expect(everything).not.toContain('enc:v1:');
      expect(answers[1].items[0].http).toMatchObject({
        auth: { password: '********' },
        headers: [{ value: '********' }, { value: '********' }, { value: 'application/json' }],
      });
    });

    it('keeps stored secrets when ******** is sent back to the same target', async () => {
      const created = await t.http.post('/api/v1/monitors').set(bearer(write)).send(secretBody).expect(201);
      const roundTrip = { ...created.body, http: { ...created.body.http, url: 'https://router.lan:8443/other-path' } };
      await t.http.put(`/api/v1/monitors/by-slug/${created.body.slug}`).set(bearer(write)).send(roundTrip).expect(200);
      // Read as the engine reads it: the stored values are sealed (test/security/secrets-at-rest.e2e-spec.ts).
      const stored = JSON.stringify((await t.app.get(MonitorsRepository).findById(created.body.id))?.config.settings);
      for (const s of SECRETS) expect(stored).toContain(s);
    });

    it.each([
      ['another host', { url: 'https://evil.example:8443/status' }],
      ['another port', { url: 'https://router.lan:9443/status' }],
      ['another scheme', { url: 'http://router.lan:8443/status' }],
      ['a resolve_to', { resolve_to: '203.0.113.9' }],
    ])('refuses to keep stored secrets for %s and changes nothing', async (_, change) => {
      const created = await t.http.post('/api/v1/monitors').set(bearer(write)).send(secretBody).expect(201);
      const res = await t.http
        .patch(`/api/v1/monitors/${created.body.id}`)
        .set(bearer(write))
        .send({ http: { ...change, auth: created.body.http.auth, headers: created.body.http.headers } })
        .expect(422);
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(
        expect.arrayContaining(['http.auth.password', 'http.headers[0].value', 'http.headers[1].value']),
      );
      expect(JSON.stringify(res.body)).not.toMatch(/hunter2|key-AAAA|plain-value/);
      const after = await t.http.get(`/api/v1/monitors/${created.body.id}`).set(bearer(read)).expect(200);
      expect(after.body.http.url).toBe('https://router.lan:8443/status');
    });

    it('refuses ******** on create: there is nothing to keep', async () => {
      const res = await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(httpMonitor({}, { auth: { type: 'bearer', token: '********' } }))
        .expect(422);
      expect(res.body.error.field).toBe('http.auth.token');
    });
  });

  describe('hostile bodies', () => {
    it.each([
      ['an unknown kind', { name: 'x', kind: 'imap' }, 'kind'],
      [
        'kind settings under the wrong key',
        { name: 'x', kind: 'tcp', tcp: { host: 'a', port: 1 }, http: { url: 'https://a' } },
        'http',
      ],
      ['an unknown top-level field', tcpMonitor({ colour: 'red' }), 'colour'],
      ['an unknown nested field', { name: 'x', kind: 'tcp', tcp: { host: 'a', port: 1, tls: true } }, 'tcp.tls'],
      [
        'a json rule with a bad op',
        httpMonitor(
          {},
          {
            json: [
              { path: '$.a', op: '==', value: 1 },
              { path: '$.b', op: '~=', value: 1 },
            ],
          },
        ),
        'http.json[1].op',
      ],
      ['a json rule with a bad path', httpMonitor({}, { json: [{ path: 'a.b', op: 'exists' }] }), 'http.json[0].path'],
      ['a bad expect_status', httpMonitor({}, { expect_status: '200-199' }), 'http.expect_status'],
      ['an ftp URL', httpMonitor({}, { url: 'ftp://example.com' }), 'http.url'],
      ['a 101-character name', tcpMonitor({ name: 'n'.repeat(101) }), 'name'],
      ['21 tags', tcpMonitor({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), 'tags'],
      ['a 31-character tag', tcpMonitor({ tags: ['t'.repeat(31)] }), 'tags'],
      ['a string interval', tcpMonitor({ interval_s: '60' }), 'interval_s'],
      ['timeout above the interval', tcpMonitor({ interval_s: 10, timeout_ms: 10001 }), 'timeout_ms'],
      ['retry above the interval', tcpMonitor({ interval_s: 10, retry_interval_s: 11 }), 'retry_interval_s'],
      ['remind_every_min 4', tcpMonitor({ remind_every_min: 4 }), 'remind_every_min'],
      ['remind_every_min 10081', tcpMonitor({ remind_every_min: 10081 }), 'remind_every_min'],
      ['a heartbeat interval of 29 s', heartbeatMonitor({ interval_s: 29 }), 'interval_s'],
      ['an http interval of 86401 s', httpMonitor({ interval_s: 86401 }), 'interval_s'],
      ['a body over 64 KB', httpMonitor({}, { method: 'POST', body: 'x'.repeat(64 * 1024 + 1) }), 'http.body'],
      ['a javascript runbook', tcpMonitor({ runbook_url: 'javascript:alert(1)' }), 'runbook_url'],
      ['a channel id that is not an integer', tcpMonitor({ channels: ['email'] }), 'channels'],
      ['a port of 70000', { name: 'x', kind: 'tcp', tcp: { host: 'a', port: 70000 } }, 'tcp.port'],
      ['a host with spaces', { name: 'x', kind: 'tcp', tcp: { host: 'a b', port: 1 } }, 'tcp.host'],
      [
        'a resolver that is a name',
        { name: 'x', kind: 'dns', dns: { name: 'a.com', resolver: 'dns.google' } },
        'dns.resolver',
      ],
      ['6 ping packets', { name: 'x', kind: 'ping', ping: { host: 'a', packets: 6 } }, 'ping.packets'],
      [
        'a header with a line break',
        httpMonitor({}, { headers: [{ name: 'X-A', value: 'a\r\nHost: evil' }] }),
        'http.headers[0].value',
      ],
    ])('refuses %s with 422 on the field and creates nothing', async (_, body, field) => {
      const res = await t.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(422);
      expect(res.body.error.code).toBe('invalid');
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await count()).toBe(0);
    });

    it.each([
      ['the maximum name', tcpMonitor({ name: 'n'.repeat(100) })],
      ['20 tags of 30 characters', tcpMonitor({ tags: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(30, 'x')) })],
      ['a timeout equal to the interval', tcpMonitor({ interval_s: 10, timeout_ms: 10000, retry_interval_s: 10 })],
      ['remind_every_min 5 and 10080', tcpMonitor({ remind_every_min: 5 })],
      ['a body of exactly 64 KB', httpMonitor({}, { method: 'POST', body: 'x'.repeat(64 * 1024) })],
      ['slow_ms 0 (off)', tcpMonitor({ slow_ms: 0 })],
    ])('accepts %s', async (_, body) => {
      await t.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(201);
    });

    it('answers a JSON array body with an error envelope', async () => {
      const res = await t.http.post('/api/v1/monitors').set(bearer(write)).send([tcpMonitor()]);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({
        code: 'invalid',
        field: 'body',
        message: expect.stringContaining('must be a JSON object'),
      });
    });
  });

  describe('idempotency on monitor creation', () => {
    it('creates once per caller and key, and keeps callers apart', async () => {
      const a = await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .set('Idempotency-Key', 'create-db')
        .send(tcpMonitor())
        .expect(201);
      const b = await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .set('Idempotency-Key', 'create-db')
        .send(tcpMonitor())
        .expect(201);
      expect(b.body).toEqual(a.body);
      expect(await count()).toBe(1);
      const other = await t.http
        .post('/api/v1/monitors')
        .set(bearer(write2))
        .set('Idempotency-Key', 'create-db')
        .send(tcpMonitor())
        .expect(201);
      expect(other.body.id).not.toBe(a.body.id);
      expect(await count()).toBe(2);
    });
  });
});
