import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, httpMonitor, tcpMonitor } from '../support/monitors';

describe('monitors API', () => {
  let t: TestApp;
  let cookie: string;
  const key = { read: '', write: '', admin: '' };

  beforeAll(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    for (const s of ['read', 'write', 'admin'] as const) key[s] = await createKey(t, cookie, s);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.db.query('DELETE FROM monitors');
  });

  const as = (scope: 'read' | 'write' | 'admin') => bearer(key[scope]);
  const create = async (body: object) =>
    (await t.http.post('/api/v1/monitors').set(as('write')).send(body).expect(201)).body;

  describe('create and read', () => {
    it('creates a monitor with every default and answers 201 with state and stats', async () => {
      const res = await t.http.post('/api/v1/monitors').set(as('write')).send(tcpMonitor()).expect(201);
      expect(res.body).toMatchObject({
        id: expect.any(Number),
        name: 'Database',
        slug: 'database',
        kind: 'tcp',
        target: 'tcp db.lan:5432',
        group: null,
        tags: [],
        description: null,
        runbook_url: null,
        interval_s: 60,
        timeout_ms: 10000,
        confirm_after: 2,
        retry_interval_s: 10,
        recover_after: 1,
        slow_ms: null,
        slow_after: 3,
        alert_on_slow: false,
        channels: null,
        remind_every_min: 0,
        paused: false,
        muted_until: null,
        public: false,
        public_name: null,
        public_group: null,
        sort: 0,
        tcp: { host: 'db.lan', port: 5432, send: null, expect_banner: null, ip_version: 'auto' },
        state: { status: 'unknown', failing: 0, flapping: false, muted: false, error: null, incident_id: null },
        stats: { uptime_24h: null, uptime_7d: null, uptime_30d: null, p50_ms_24h: null, p95_ms_24h: null },
      });
      expect(res.body.stats.spark).toHaveLength(24);
      expect(res.body).not.toHaveProperty('http');
      const got = await t.http.get(`/api/v1/monitors/${res.body.id}`).set(as('read')).expect(200);
      expect(got.body).toEqual(res.body);
      const bySlug = await t.http.get('/api/v1/monitors/slug:database').set(as('read')).expect(200);
      expect(bySlug.body.id).toBe(res.body.id);
    });

    it.each([
      ['http', httpMonitor({}, { method: 'HEAD' }), 'HEAD https://example.com/health'],
      ['ping', { name: 'Router', kind: 'ping', ping: { host: '10.0.0.1' } }, 'ping 10.0.0.1'],
      ['dns', { name: 'Zone', kind: 'dns', dns: { name: 'example.com', record: 'MX' } }, 'dns MX example.com @1.1.1.1'],
      ['tls', { name: 'Cert', kind: 'tls', tls: { host: 'example.com' } }, 'tls example.com:443'],
      ['heartbeat', heartbeatMonitor(), 'heartbeat'],
    ])('describes a %s target in one line', async (_, body, target) => {
      expect((await create(body)).target).toBe(target);
    });

    it('derives unique slugs from names and refuses a taken explicit slug', async () => {
      expect((await create(tcpMonitor({ name: 'Café Server!' }))).slug).toBe('cafe-server');
      expect((await create(tcpMonitor({ name: 'Café Server!' }))).slug).toBe('cafe-server-2');
      expect((await create(tcpMonitor({ name: 'cafe server' }))).slug).toBe('cafe-server-3');
      const res = await t.http
        .post('/api/v1/monitors')
        .set(as('write'))
        .send(tcpMonitor({ slug: 'cafe-server' }))
        .expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'slug' });
    });

    it('shows a heartbeat URL once, at creation, and a new one replaces it', async () => {
      const created = await create(heartbeatMonitor());
      expect(created.heartbeat_url).toMatch(/^http:\/\/farsight\.test\/hb\/[A-Za-z0-9_-]{32}$/);
      const got = await t.http.get(`/api/v1/monitors/${created.id}`).set(as('read')).expect(200);
      expect(got.body).not.toHaveProperty('heartbeat_url');
      const rows = await t.db.query<{ heartbeat_token_hash: string }[]>('SELECT heartbeat_token_hash FROM monitors');
      expect(rows[0].heartbeat_token_hash).not.toContain(created.heartbeat_url.split('/').pop());
      const again = await t.http
        .post(`/api/v1/monitors/${created.id}/heartbeat-token`)
        .set(as('write'))
        .send({})
        .expect(200);
      expect(again.body.heartbeat_url).not.toBe(created.heartbeat_url);
      const after = await t.db.query<{ heartbeat_token_hash: string }[]>('SELECT heartbeat_token_hash FROM monitors');
      expect(after[0].heartbeat_token_hash).not.toBe(rows[0].heartbeat_token_hash);
      const tcp = await create(tcpMonitor());
      const refused = await t.http
        .post(`/api/v1/monitors/${tcp.id}/heartbeat-token`)
        .set(as('write'))
        .send({})
        .expect(422);
      expect(refused.body.error.field).toBe('kind');
    });

    it.each(['999999', 'abc', 'slug:', 'slug:nope', 'slug:BAD', '0', '-1'])(
      'answers 404 for the monitor ref %s',
      async (ref) => {
        const res = await t.http
          .get(`/api/v1/monitors/${encodeURIComponent(ref)}`)
          .set(as('read'))
          .expect(404);
        expect(res.body.error.code).toBe('not_found');
      },
    );
  });

  describe('list and filters', () => {
    beforeEach(async () => {
      await create(tcpMonitor({ name: 'Postgres', group: 'db', tags: ['prod', 'sql'] }));
      await create(tcpMonitor({ name: 'Redis', group: 'db', tags: ['prod'], tcp: { host: 'cache.lan', port: 6379 } }));
      await create(httpMonitor({ name: 'Blog', group: 'web', tags: ['public'] }));
      await create(httpMonitor({ name: 'Wiki', paused: true }, { url: 'https://wiki.lan/' }));
    });

    const names = async (query: string) =>
      (await t.http.get(`/api/v1/monitors${query}`).set(as('read')).expect(200)).body.items
        .map((m: { name: string }) => m.name)
        .sort();

    it.each([
      ['', ['Blog', 'Postgres', 'Redis', 'Wiki']],
      ['?group=db', ['Postgres', 'Redis']],
      ['?tag=prod', ['Postgres', 'Redis']],
      ['?tag=sql', ['Postgres']],
      ['?kind=http', ['Blog', 'Wiki']],
      ['?status=paused', ['Wiki']],
      ['?status=unknown', ['Blog', 'Postgres', 'Redis']],
      ['?q=REDIS', ['Redis']],
      ['?q=cache.lan', ['Redis']],
      ['?q=wiki.lan', ['Wiki']],
      ['?q=postgres&group=web', []],
    ])('filters %s', async (query, expected) => {
      expect(await names(query)).toEqual(expected);
    });

    it.each([
      ['status=sleeping', 'status'],
      ['kind=imap', 'kind'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['status=up&status=down', 'status'],
    ])('refuses %s with 422', async (query, field) => {
      const res = await t.http.get(`/api/v1/monitors?${query}`).set(as('read')).expect(422);
      expect(res.body.error.field).toBe(field);
    });

    it('pages newest first with limit and before, also with q', async () => {
      const p1 = await t.http.get('/api/v1/monitors?limit=3').set(as('read')).expect(200);
      expect(p1.body.items.map((m: { name: string }) => m.name)).toEqual(['Wiki', 'Blog', 'Redis']);
      const p2 = await t.http.get(`/api/v1/monitors?limit=3&before=${p1.body.next_cursor}`).set(as('read')).expect(200);
      expect(p2.body).toMatchObject({ items: [expect.objectContaining({ name: 'Postgres' })], next_cursor: null });
      const q1 = await t.http.get('/api/v1/monitors?limit=1&q=e').set(as('read')).expect(200);
      const q2 = await t.http
        .get(`/api/v1/monitors?limit=1&q=e&before=${q1.body.next_cursor}`)
        .set(as('read'))
        .expect(200);
      // q matches the target too: Blog's URL contains an e.
      expect([q1.body.items[0].name, q2.body.items[0].name]).toEqual(['Wiki', 'Blog']);
    });

    it('answers a list read again with what changed since: a rename, a mute that ran out, a deletion', async () => {
      type Listed = { id: number; name: string; state: { muted: boolean } };
      const list = async () =>
        (await t.http.get('/api/v1/monitors').set(as('read')).expect(200)).body.items as Listed[];
      const first = await list();
      const id = (name: string) => first.find((m) => m.name === name)!.id;
      await t.http
        .post(`/api/v1/monitors/${id('Blog')}/mute`)
        .set(as('write'))
        .send({ minutes: 1 })
        .expect(200);
      expect((await list()).find((m) => m.id === id('Blog'))!.state.muted).toBe(true);
      t.clock.advance(60_001);
      expect((await list()).find((m) => m.id === id('Blog'))!.state.muted).toBe(false);
      await t.http
        .patch(`/api/v1/monitors/${id('Redis')}`)
        .set(as('write'))
        .send({ name: 'Cache' })
        .expect(200);
      await t.http
        .delete(`/api/v1/monitors/${id('Wiki')}`)
        .set(as('admin'))
        .expect(200);
      expect((await list()).map((m) => m.name)).toEqual(['Blog', 'Cache', 'Postgres']);
    });

    it('summarises counts, groups and tags', async () => {
      const res = await t.http.get('/api/v1/summary').set(as('read')).expect(200);
      expect(res.body).toEqual({
        counts: { total: 4, up: 0, down: 0, slow: 0, paused: 1, unknown: 3 },
        open_incidents: 0,
        blind: { active: false, since: null, detection: 'off' },
        checks_per_min: 0,
        groups: ['db', 'web'],
        tags: ['prod', 'public', 'sql'],
      });
    });
  });

  describe('change', () => {
    it('merges kind settings field by field and clears with null', async () => {
      const m = await create(
        httpMonitor({ description: 'old' }, { method: 'POST', body: '{}', content_type: 'application/json' }),
      );
      t.clock.advance(1000);
      const res = await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(as('write'))
        .send({ description: null, http: { expect_status: '200-299,401', body: null } })
        .expect(200);
      expect(res.body).toMatchObject({
        description: null,
        http: { method: 'POST', expect_status: '200-299,401', body: null, content_type: 'application/json' },
      });
      expect(res.body.updated_at).not.toBe(m.updated_at);
      expect(res.body.created_at).toBe(m.created_at);
    });

    it('shows a change in the list at once, even within the same millisecond', async () => {
      const m = await create(tcpMonitor({ name: 'Before' }));
      const names = async () =>
        (await t.http.get('/api/v1/monitors').set(as('read')).expect(200)).body.items.map(
          (x: { name: string }) => x.name,
        );
      expect(await names()).toEqual(['Before']);
      await t.http.patch(`/api/v1/monitors/${m.id}`).set(as('write')).send({ name: 'After' }).expect(200);
      expect(await names()).toEqual(['After']);
    });

    it('resets a field with a default when sent null', async () => {
      const m = await create(tcpMonitor({ interval_s: 300 }));
      const res = await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(as('write'))
        .send({ interval_s: null })
        .expect(200);
      expect(res.body.interval_s).toBe(60);
    });

    it('changes kind when the new kind settings are given, and resets the state', async () => {
      const m = await create(tcpMonitor());
      const res = await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(as('write'))
        .send({ kind: 'ping', ping: { host: 'db.lan' } })
        .expect(200);
      expect(res.body).toMatchObject({ kind: 'ping', target: 'ping db.lan', ping: { host: 'db.lan', packets: 3 } });
      expect(res.body).not.toHaveProperty('tcp');
      const noSettings = await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(as('write'))
        .send({ kind: 'dns' })
        .expect(422);
      expect(noSettings.body.error.fields).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'dns.name' })]),
      );
    });

    it('refuses a bad change and changes nothing', async () => {
      const m = await create(tcpMonitor());
      const res = await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(as('write'))
        .send({ interval_s: 30, timeout_ms: 45000 })
        .expect(422);
      expect(res.body.error.field).toBe('timeout_ms');
      const got = await t.http.get(`/api/v1/monitors/${m.id}`).set(as('read')).expect(200);
      expect(got.body).toEqual(m);
    });

    it('records every change with who made it', async () => {
      const m = await create(tcpMonitor());
      await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(as('admin'))
        .send({ name: 'Main DB', tcp: { port: 5433 } })
        .expect(200);
      await t.http
        .post(`/api/v1/monitors/${m.id}/pause`)
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .set('Content-Type', 'application/json')
        .expect(200);
      const rows = await t.db.query<{ kind: string; actor: string; text: string; data: string | null }[]>(
        'SELECT kind, actor, text, data FROM events WHERE monitor_id = ? ORDER BY id',
        [m.id],
      );
      expect(rows.map((r) => [r.kind, r.actor])).toEqual([
        ['monitor_created', 'key:write key'],
        ['monitor_updated', 'key:admin key'],
        ['monitor_updated', 'owner'],
      ]);
      expect(JSON.parse(rows[1].data as string).fields).toEqual(['name', 'tcp.port']);
    });
  });

  describe('replace by slug', () => {
    it('creates (201), replaces (200), and changes nothing for the same body twice', async () => {
      const body = tcpMonitor({ name: 'NAS', tags: ['home'] });
      const first = await t.http.put('/api/v1/monitors/by-slug/nas').set(as('write')).send(body).expect(201);
      expect(first.body.slug).toBe('nas');
      t.clock.advance(5000);
      const same = await t.http.put('/api/v1/monitors/by-slug/nas').set(as('write')).send(body).expect(200);
      expect(same.body).toEqual(first.body);
      const changed = await t.http
        .put('/api/v1/monitors/by-slug/nas')
        .set(as('write'))
        .send({ ...body, tags: [] })
        .expect(200);
      expect(changed.body.id).toBe(first.body.id);
      expect(changed.body.tags).toEqual([]);
      expect(changed.body.updated_at).not.toBe(first.body.updated_at);
    });

    it('replaces the whole body: fields left out return to their defaults', async () => {
      await t.http
        .put('/api/v1/monitors/by-slug/nas')
        .set(as('write'))
        .send(tcpMonitor({ interval_s: 600, group: 'home' }))
        .expect(201);
      const res = await t.http.put('/api/v1/monitors/by-slug/nas').set(as('write')).send(tcpMonitor()).expect(200);
      expect(res.body).toMatchObject({ interval_s: 60, group: null });
    });

    it.each([
      ['a slug in the body that differs', { slug: 'other' }, 'slug'],
      ['a missing name', { name: undefined }, 'name'],
    ])('refuses %s', async (_, over, field) => {
      const res = await t.http.put('/api/v1/monitors/by-slug/nas').set(as('write')).send(tcpMonitor(over)).expect(422);
      expect(res.body.error.field).toBe(field);
    });

    it('answers 404 for a malformed slug in the path', async () => {
      await t.http.put('/api/v1/monitors/by-slug/Not%20A%20Slug').set(as('write')).send(tcpMonitor()).expect(404);
    });
  });

  describe('pause, resume, mute, delete', () => {
    it('pauses and resumes, moving the status', async () => {
      const m = await create(tcpMonitor());
      const paused = await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(as('write')).expect(200);
      expect(paused.body).toMatchObject({ paused: true, state: { status: 'paused' } });
      const again = await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(as('write')).send({}).expect(200);
      expect(again.body.updated_at).toBe(paused.body.updated_at);
      const resumed = await t.http.post(`/api/v1/monitors/${m.id}/resume`).set(as('write')).send({}).expect(200);
      expect(resumed.body).toMatchObject({ paused: false, state: { status: 'unknown' } });
      await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(as('write')).send({ really: true }).expect(422);
    });

    it('mutes for minutes or until a time, and unmutes', async () => {
      const m = await create(tcpMonitor());
      const byMinutes = await t.http
        .post(`/api/v1/monitors/${m.id}/mute`)
        .set(as('write'))
        .send({ minutes: 30 })
        .expect(200);
      expect(byMinutes.body.muted_until).toBe(new Date(t.clock.now() + 30 * 60_000).toISOString());
      expect(byMinutes.body.state.muted).toBe(true);
      const until = new Date(t.clock.now() + 86400_000).toISOString();
      const byTime = await t.http.post(`/api/v1/monitors/${m.id}/mute`).set(as('write')).send({ until }).expect(200);
      expect(byTime.body.muted_until).toBe(until);
      t.clock.advance(86400_000 + 1);
      expect((await t.http.get(`/api/v1/monitors/${m.id}`).set(as('read'))).body.state.muted).toBe(false);
      const unmuted = await t.http.post(`/api/v1/monitors/${m.id}/unmute`).set(as('write')).expect(200);
      expect(unmuted.body).toMatchObject({ muted_until: null, state: { muted: false } });
    });

    it.each([
      ['neither until nor minutes', {}],
      ['both', { minutes: 5, until: '2030-01-01T00:00:00.000Z' }],
      ['minutes 0', { minutes: 0 }],
      ['fractional minutes', { minutes: 1.5 }],
      ['minutes as text', { minutes: '5' }],
      ['an until in the past', { until: '2020-01-01T00:00:00.000Z' }],
      ['an until that is not a time', { until: 'next week' }],
    ])('refuses a mute with %s', async (_, body) => {
      const m = await create(tcpMonitor());
      const res = await t.http.post(`/api/v1/monitors/${m.id}/mute`).set(as('write')).send(body).expect(422);
      expect(res.body.error.code).toBe('invalid');
    });

    it('deletes a monitor with its state; a session needs a fresh sign-in', async () => {
      const m = await create(tcpMonitor());
      t.clock.advance(13 * 3600_000);
      const stale = await t.http
        .delete(`/api/v1/monitors/${m.id}`)
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .set('Content-Type', 'application/json')
        .expect(403);
      expect(stale.body.error.code).toBe('step_up');
      const res = await t.http.delete(`/api/v1/monitors/${m.id}`).set(as('write')).expect(200);
      expect(res.body).toEqual({ ok: true });
      await t.http.get(`/api/v1/monitors/${m.id}`).set(as('read')).expect(404);
      expect(await t.db.query('SELECT * FROM monitor_state WHERE monitor_id = ?', [m.id])).toEqual([]);
      await t.http.delete(`/api/v1/monitors/${m.id}`).set(as('write')).expect(404);
      t.clock.advance(-13 * 3600_000);
    });
  });

  describe('scopes', () => {
    const routes: [string, string, (id: number) => string, object | undefined][] = [
      ['POST', 'create', () => '/api/v1/monitors', tcpMonitor({ name: 'x' })],
      ['PATCH', 'patch', (id) => `/api/v1/monitors/${id}`, { name: 'y' }],
      ['PUT', 'put by slug', () => '/api/v1/monitors/by-slug/zz', tcpMonitor()],
      ['DELETE', 'delete', (id) => `/api/v1/monitors/${id}`, undefined],
      ['POST', 'pause', (id) => `/api/v1/monitors/${id}/pause`, {}],
      ['POST', 'resume', (id) => `/api/v1/monitors/${id}/resume`, {}],
      ['POST', 'mute', (id) => `/api/v1/monitors/${id}/mute`, { minutes: 5 }],
      ['POST', 'unmute', (id) => `/api/v1/monitors/${id}/unmute`, {}],
      ['POST', 'bulk', () => '/api/v1/monitors/bulk', { monitors: [] }],
      ['POST', 'heartbeat-token', (id) => `/api/v1/monitors/${id}/heartbeat-token`, {}],
    ];

    it.each(routes)('a read key cannot %s (%s) and nothing changes', async (method, _, path, body) => {
      const m = await create(heartbeatMonitor());
      const req = t.http[method.toLowerCase() as 'post'](path(m.id)).set(as('read'));
      const res = await (body ? req.send(body) : req).expect(403);
      expect(res.body.error.code).toBe('forbidden');
      const after = await t.http.get(`/api/v1/monitors/${m.id}`).set(as('read')).expect(200);
      const { heartbeat_url: _url, ...before } = m;
      expect(after.body).toEqual(before);
    });

    it.each(routes)('a write key can %s (%s)', async (method, name, path, body) => {
      const m = await create(heartbeatMonitor());
      const req = t.http[method.toLowerCase() as 'post'](path(m.id)).set(as('write'));
      const res = await (body ? req.send(body) : req);
      // Created answers 201 (POST /monitors, a new slug by PUT); every other change 200.
      expect(res.status).toBe(name === 'create' || name === 'put by slug' ? 201 : 200);
    });

    it.each(['/api/v1/monitors', '/api/v1/monitors/1', '/api/v1/summary'])('%s needs a caller', async (path) => {
      await t.http.get(path).expect(401);
    });
  });
});
