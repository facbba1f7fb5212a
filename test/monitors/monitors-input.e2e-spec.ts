/**
 * Input hardening over HTTP (issue 10): names and header texts that would be invisible traps or
 * break every check, bodies that are not objects, and `slug: null`.
 */
import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor, tcpMonitor } from '../support/monitors';

describe('monitor and key input', () => {
  let t: TestApp;
  let cookie: string;
  let write: Record<string, string>;

  beforeAll(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    write = bearer(await createKey(t, cookie, 'write'));
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.db.query('DELETE FROM monitors');
  });

  const monitorCount = async () => (await t.db.query<unknown[]>('SELECT id FROM monitors')).length;
  const create = async (body: object) => (await t.http.post('/api/v1/monitors').set(write).send(body).expect(201)).body;

  describe('names', () => {
    it.each([
      ['a right-to-left override', 'gpj.\u202eexe'],
      ['a line feed', 'Web\nserver'],
      ['NUL', 'Web\u0000'],
      ['only spaces', '   '],
    ])('refuses a monitor name with %s on field name', async (_, name) => {
      const res = await t.http.post('/api/v1/monitors').set(write).send(tcpMonitor({ name })).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'name' });
      expect(await monitorCount()).toBe(0);
    });

    it('refuses a public_name with a control character, also in PATCH', async () => {
      const res = await t.http
        .post('/api/v1/monitors')
        .set(write)
        .send(tcpMonitor({ public_name: 'Web\u202e' }))
        .expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'public_name' });
      const m = await create(tcpMonitor());
      const patched = await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(write)
        .send({ public_name: 'a\rb' })
        .expect(422);
      expect(patched.body.error.field).toBe('public_name');
    });

    // Issue 42: one text rule for every text of a monitor, not only its name.
    it.each<[string, Record<string, unknown>, string]>([
      ['a group with a right-to-left override', { group: 'Home\u202e' }, 'group'],
      ['a tag with NUL', { tags: ['lan', 'a\u0000'] }, 'tags'],
      ['a description with a right-to-left isolate', { description: 'Runs nightly.\n\u2067' }, 'description'],
      ['a public_group with a C1 control', { public_group: 'Edge\u0085' }, 'public_group'],
      ['a public_name with a lone surrogate', { public_name: 'Web \ud800' }, 'public_name'],
    ])('refuses %s with 422 naming the field, in POST and PATCH', async (_, over, field) => {
      const res = await t.http.post('/api/v1/monitors').set(write).send(tcpMonitor(over)).expect(422);
      expect(res.body.error).toMatchObject({
        code: 'invalid',
        field,
        message: expect.stringContaining(`${field}: must not contain`),
      });
      expect(res.body.error.fields).toEqual([
        { field, message: expect.stringMatching(/^must not contain (control characters|a lone surrogate)/) },
      ]);
      expect(await monitorCount()).toBe(0);
      const m = await create(tcpMonitor({ description: 'Runs nightly.\r\n\tAsk first.' }));
      const patched = await t.http.patch(`/api/v1/monitors/${m.id}`).set(write).send(over).expect(422);
      expect(patched.body.error.field).toBe(field);
    });

    it('refuses a public_group with a right-to-left override in PUT /status-page too', async () => {
      const m = await create(tcpMonitor());
      const res = await t.http
        .put('/api/v1/status-page')
        .set(write)
        .send({ monitors: [{ id: m.id, public_group: 'gpj.\u202eexe' }] })
        .expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'monitors[0].public_group' });
    });

    it.each([
      ['a right-to-left override', 'ci\u202e'],
      ['a tab', 'ci\tkey'],
      ['only spaces', '  '],
    ])('refuses an API key name with %s on field name', async (_, name) => {
      const res = await t.http
        .post('/api/v1/keys')
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .send({ name, scope: 'read' })
        .expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'name' });
    });
  });

  describe('texts sent as HTTP headers', () => {
    it.each<[string, Record<string, unknown>, string]>([
      [
        'a header value with a right-to-left override',
        { headers: [{ name: 'X-A', value: 'v\u202e' }] },
        'http.headers[0].value',
      ],
      [
        'a header value with DEL',
        {
          headers: [
            { name: 'X-A', value: 'v' },
            { name: 'X-B', value: 'v\u007f' },
          ],
        },
        'http.headers[1].value',
      ],
      ['a header name with a line feed', { headers: [{ name: 'X-A\n', value: 'v' }] }, 'http.headers[0].name'],
      [
        'a bearer token ending in a line feed',
        { auth: { type: 'bearer', token: 'secret-token\n' } },
        'http.auth.token',
      ],
      [
        'a content_type with NUL',
        { method: 'POST', body: '{}', content_type: 'application/json\u0000' },
        'http.content_type',
      ],
      [
        'an expect_header name with CR',
        { expect_header: { name: 'X-Version\r', contains: '2' } },
        'http.expect_header.name',
      ],
    ])('refuses %s with 422 on its dotted path', async (_, settings, field) => {
      const res = await t.http.post('/api/v1/monitors').set(write).send(httpMonitor({}, settings)).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
      expect(res.body.error.fields).toEqual([{ field, message: expect.any(String) }]);
      expect(await monitorCount()).toBe(0);
    });

    it('refuses the same texts in PATCH and in POST /monitors/test', async () => {
      const m = await create(httpMonitor());
      const patched = await t.http
        .patch(`/api/v1/monitors/${m.id}`)
        .set(write)
        .send({ http: { auth: { type: 'bearer', token: 'tok\n' } } })
        .expect(422);
      expect(patched.body.error.field).toBe('http.auth.token');
      const tested = await t.http
        .post('/api/v1/monitors/test')
        .set(write)
        .send(httpMonitor({}, { headers: [{ name: 'X-A', value: '\u202e' }] }))
        .expect(422);
      expect(tested.body.error.field).toBe('http.headers[0].value');
    });
  });

  describe('bodies that are not JSON objects', () => {
    const NOT_OBJECTS: [string, string][] = [
      ['an array', '[]'],
      ['null', 'null'],
      ['a number', '42'],
      ['a string', '"monitor"'],
      ['true', 'true'],
    ];
    const send = (method: 'post' | 'patch' | 'put', path: string, text: string, auth: 'key' | 'session' = 'key') => {
      const req = t.http[method](path).set('Content-Type', 'application/json');
      return (auth === 'key' ? req.set(write) : req.set('Cookie', cookie).set('Origin', ORIGIN)).send(text);
    };
    const routes = async (): Promise<[string, 'post' | 'patch' | 'put', string, 'key' | 'session'][]> => {
      const m = await create(tcpMonitor());
      return [
        ['POST /monitors', 'post', '/api/v1/monitors', 'key'],
        ['PATCH /monitors/{id}', 'patch', `/api/v1/monitors/${m.id}`, 'key'],
        ['PUT /monitors/by-slug/{slug}', 'put', '/api/v1/monitors/by-slug/database', 'key'],
        ['POST /monitors/bulk', 'post', '/api/v1/monitors/bulk', 'key'],
        ['POST /monitors/test', 'post', '/api/v1/monitors/test', 'key'],
        ['POST /monitors/{id}/pause', 'post', `/api/v1/monitors/${m.id}/pause`, 'key'],
        ['POST /keys', 'post', '/api/v1/keys', 'session'],
      ];
    };

    it.each(NOT_OBJECTS)('answers %s with 422 on field body on every JSON route', async (_, text) => {
      for (const [route, method, path, auth] of await routes()) {
        const res = await send(method, path, text, auth);
        expect({ route, status: res.status, error: res.body.error }).toEqual({
          route,
          status: 422,
          error: {
            code: 'invalid',
            message: expect.stringContaining('JSON object'),
            field: 'body',
            fields: [{ field: 'body', message: expect.stringContaining('JSON object') }],
          },
        });
      }
      const stored = await t.db.query<{ slug: string; paused: number }[]>('SELECT slug, paused FROM monitors');
      expect(stored).toEqual([{ slug: 'database', paused: 0 }]);
    });

    it('answers malformed JSON with 400 bad_request on every JSON route', async () => {
      for (const [route, method, path, auth] of await routes()) {
        const res = await send(method, path, '{"name": ', auth);
        expect({ route, status: res.status, error: res.body.error }).toEqual({
          route,
          status: 400,
          error: { code: 'bad_request', message: 'the request body is not valid JSON' },
        });
      }
    });
  });

  describe('slug: null means "derive from the name"', () => {
    const patch = (id: number, body: object) => t.http.patch(`/api/v1/monitors/${id}`).set(write).send(body);

    it('PATCH derives the slug from the current name again, and the monitor stays editable', async () => {
      const m = await create(tcpMonitor({ name: 'Database', slug: 'custom' }));
      const res = await patch(m.id, { slug: null }).expect(200);
      expect(res.body.slug).toBe('database');
      const again = await patch(m.id, { description: 'primary' }).expect(200);
      expect(again.body).toMatchObject({ slug: 'database', description: 'primary' });
    });

    it('PATCH with a new name and slug null derives from the new name', async () => {
      const m = await create(tcpMonitor({ name: 'Database', slug: 'custom' }));
      expect((await patch(m.id, { name: 'Main DB', slug: null }).expect(200)).body.slug).toBe('main-db');
    });

    it('PATCH adds -2 when another monitor holds the derived slug, but never moves off its own', async () => {
      await create(tcpMonitor({ name: 'Database' }));
      const m = await create(tcpMonitor({ name: 'Database', slug: 'custom' }));
      expect((await patch(m.id, { slug: null }).expect(200)).body.slug).toBe('database-2');
      expect((await patch(m.id, { slug: null }).expect(200)).body.slug).toBe('database-2');
      const own = await create(tcpMonitor({ name: 'Cache' }));
      expect((await patch(own.id, { slug: null }).expect(200)).body.slug).toBe('cache');
    });

    it('PATCH repairs a monitor stored with an empty slug', async () => {
      const m = await create(tcpMonitor({ name: 'Database' }));
      await t.db.query("UPDATE monitors SET slug = '' WHERE id = ?", [m.id]);
      expect((await patch(m.id, { slug: null }).expect(200)).body.slug).toBe('database');
    });

    it('POST derives it as if it were left out', async () => {
      expect((await create(tcpMonitor({ name: 'Database', slug: null }))).slug).toBe('database');
      expect((await create(tcpMonitor({ name: 'Database', slug: null }))).slug).toBe('database-2');
    });

    it('PUT by slug keeps the slug of the URL', async () => {
      const first = await t.http
        .put('/api/v1/monitors/by-slug/db-main')
        .set(write)
        .send(tcpMonitor({ slug: null }))
        .expect(201);
      expect(first.body.slug).toBe('db-main');
      const again = await t.http
        .put('/api/v1/monitors/by-slug/db-main')
        .set(write)
        .send(tcpMonitor({ slug: null }))
        .expect(200);
      expect(again.body).toEqual(first.body);
    });

    it('never stores an empty slug', async () => {
      const m = await create(tcpMonitor({ name: 'Database', slug: 'custom' }));
      await patch(m.id, { slug: null }).expect(200);
      await t.http
        .put('/api/v1/monitors/by-slug/other')
        .set(write)
        .send(tcpMonitor({ slug: null }))
        .expect(201);
      await t.http
        .post('/api/v1/monitors/bulk')
        .set(write)
        .send({ monitors: [tcpMonitor({ name: 'Bulk', slug: null })] })
        .expect(200);
      const slugs = (await t.db.query<{ slug: string }[]>('SELECT slug FROM monitors ORDER BY id')).map((r) => r.slug);
      expect(slugs).toEqual(['database', 'other', 'bulk']);
    });
  });
});
