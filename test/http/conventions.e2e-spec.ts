import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';

describe('API conventions', () => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
  });
  afterEach(async () => {
    await t.close();
  });

  const post = (path: string) => t.http.post(path).set('Cookie', cookie).set('Origin', ORIGIN);
  const keyCount = async () => (await t.db.query<unknown[]>('SELECT id FROM api_keys')).length;

  describe('Idempotency-Key', () => {
    it('returns the first answer for a retry and does the work once', async () => {
      const channelCount = async () => (await t.db.query<unknown[]>('SELECT id FROM channels')).length;
      const body = { kind: 'email', name: 'Ops', config: { to: ['ops@example.com'] } };
      const first = await post('/api/v1/channels').set('Idempotency-Key', 'abc-1').send(body).expect(201);
      const again = await post('/api/v1/channels').set('Idempotency-Key', 'abc-1').send(body).expect(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await channelCount()).toBe(1);
    });

    it('does the work once for a retry of an answer with a secret shown once, and refuses the retry', async () => {
      const first = await post('/api/v1/keys')
        .set('Idempotency-Key', 'abc-4')
        .send({ name: 'ci', scope: 'read' })
        .expect(201);
      const again = await post('/api/v1/keys')
        .set('Idempotency-Key', 'abc-4')
        .send({ name: 'ci', scope: 'read' })
        .expect(409);
      expect(again.body.error.code).toBe('conflict');
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(JSON.stringify(await t.db.query('SELECT * FROM idempotency'))).not.toContain(first.body.key);
      expect(await keyCount()).toBe(1);
    });

    it('refuses the same key with a different body and changes nothing', async () => {
      await post('/api/v1/keys').set('Idempotency-Key', 'abc-2').send({ name: 'ci', scope: 'read' }).expect(201);
      const res = await post('/api/v1/keys')
        .set('Idempotency-Key', 'abc-2')
        .send({ name: 'other', scope: 'read' })
        .expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'Idempotency-Key' });
      expect(await keyCount()).toBe(1);
    });

    it('replays an error answer too, with its status', async () => {
      const first = await post('/api/v1/keys')
        .set('Idempotency-Key', 'bad-1')
        .send({ name: '', scope: 'read' })
        .expect(422);
      const again = await post('/api/v1/keys')
        .set('Idempotency-Key', 'bad-1')
        .send({ name: '', scope: 'read' })
        .expect(422);
      expect(again.body).toEqual(first.body);
    });

    it('forgets a key after 24 hours', async () => {
      await post('/api/v1/keys').set('Idempotency-Key', 'abc-3').send({ name: 'ci', scope: 'read' }).expect(201);
      t.clock.advance(24 * 3600_000 + 1);
      // The session signed in a day ago; stand in for a step-up so the key route is allowed.
      await t.db.query('UPDATE sessions SET fresh_until = ?', [t.clock.now() + 3600_000]);
      await post('/api/v1/keys').set('Idempotency-Key', 'abc-3').send({ name: 'ci', scope: 'read' }).expect(201);
      expect(await keyCount()).toBe(2);
    });

    it('keeps keys apart per caller', async () => {
      await post('/api/v1/keys').set('Idempotency-Key', 'shared').send({ name: 'ci', scope: 'read' }).expect(201);
      const rows = await t.db.query<{ caller: string }[]>('SELECT caller FROM idempotency');
      expect(rows).toEqual([{ caller: 'owner' }]);
    });

    it.each([
      ['empty', ''],
      ['too long', 'k'.repeat(256)],
      ['with spaces', 'a b'],
    ])('refuses an %s key', async (_, key) => {
      const res = await post('/api/v1/keys').set('Idempotency-Key', key).send({ name: 'ci', scope: 'read' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
      expect(await keyCount()).toBe(0);
    });
  });

  describe('hostile bodies', () => {
    it('refuses a body over 1 MB with the envelope', async () => {
      const res = await post('/api/v1/keys')
        .send({ name: 'x'.repeat(1024 * 1024 + 10), scope: 'read' })
        .expect(400);
      expect(res.body.error).toEqual({ code: 'bad_request', message: expect.stringContaining('1 MB') });
      expect(await keyCount()).toBe(0);
    });

    it('refuses a body that is not JSON', async () => {
      const res = await t.http
        .post('/api/v1/keys')
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .set('Content-Type', 'text/plain')
        .send('name=x')
        .expect(403);
      // A cookie request that is not JSON is refused as a possible cross-site form post.
      expect(res.body.error.code).toBe('forbidden');
      const key = await createKey(t, cookie, 'admin');
      // Access comes first (POST /keys is for the session only), so a route the key may use shows the content-type rule.
      const viaKey = await t.http
        .post('/api/v1/monitors')
        .set(bearer(key))
        .set('Content-Type', 'text/plain')
        .send('hello')
        .expect(400);
      expect(viaKey.body.error.message).toContain('application/json');
    });

    it('answers deeply nested JSON without crashing', async () => {
      const deep = '['.repeat(5000) + ']'.repeat(5000);
      const res = await post('/api/v1/keys').set('Content-Type', 'application/json').send(deep);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    });

    it.each([
      ['a number', { name: 1, scope: 'read' }],
      ['an object', { name: { a: 1 }, scope: 'read' }],
      ['an array', { name: ['a'], scope: 'read' }],
      ['null', { name: null, scope: 'read' }],
    ])('refuses a name that is %s', async (_, body) => {
      const res = await post('/api/v1/keys').send(body).expect(422);
      expect(res.body.error.code).toBe('invalid');
      expect(await keyCount()).toBe(0);
    });

    it.each(['__proto__', 'constructor'])('refuses a body with the reserved key %s', async (key) => {
      const res = await post('/api/v1/keys')
        .set('Content-Type', 'application/json')
        .send(`{"name": "x", "scope": "read", "nested": {"${key}": {"scope": "admin"}}}`)
        .expect(400);
      expect(res.body.error).toEqual({ code: 'bad_request', message: `the request body uses a reserved key: ${key}` });
      expect(await keyCount()).toBe(0);
    });

    it('answers wrong methods on known paths with the envelope', async () => {
      const res = await t.http.put('/api/health').expect(404);
      expect(res.body.error.code).toBe('not_found');
    });
  });

  it('answers an unexpected failure as internal, without internals', async () => {
    await t.db.query('DROP TABLE api_keys');
    const res = await t.http.get('/api/v1/keys').set('Cookie', cookie).expect(500);
    expect(res.body).toEqual({
      error: { code: 'internal', message: expect.stringMatching(/^internal error \(reference [0-9a-f]+\)$/) },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/SQLITE|api_keys|at /);
  });

  it('formats times as RFC 3339 UTC with milliseconds', async () => {
    await post('/api/v1/keys').send({ name: 'ci', scope: 'read' }).expect(201);
    const list = await t.http.get('/api/v1/keys').set('Cookie', cookie).expect(200);
    expect(list.body.items[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
