import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';

describe('callers, scopes, step-up and cookie rules', () => {
  let t: TestApp;
  let cookie: string;
  const keys: Record<'read' | 'write' | 'admin', string> = { read: '', write: '', admin: '' };

  beforeEach(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    for (const scope of ['read', 'write', 'admin'] as const) keys[scope] = await createKey(t, cookie, scope);
  });
  afterEach(async () => {
    await t.close();
  });

  const session = () => ({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' });

  it.each([
    ['read', 403],
    ['write', 403],
    ['admin', 200],
  ] as const)('GET /keys with a %s key answers %i', async (scope, status) => {
    const res = await t.http.get('/api/v1/keys').set(bearer(keys[scope])).expect(status);
    if (status === 403) expect(res.body.error.code).toBe('forbidden');
    else expect(res.body.items).toHaveLength(3);
  });

  it.each(['read', 'write', 'admin'] as const)('never lets a %s key create or revoke keys', async (scope) => {
    const created = await t.http
      .post('/api/v1/keys')
      .set(bearer(keys[scope]))
      .send({ name: 'x', scope: 'read' })
      .expect(403);
    expect(created.body.error.code).toBe('forbidden');
    const revoked = await t.http.delete('/api/v1/keys/1').set(bearer(keys[scope])).expect(403);
    expect(revoked.body.error.code).toBe('forbidden');
  });

  it.each([
    ['an unknown key', `fs_${'0'.repeat(48)}`],
    ['a malformed key', 'fs_nothex'],
    ['a non-bearer scheme', null],
  ])('answers 401 sign_in for %s', async (_, key) => {
    const req = t.http.get('/api/v1/keys');
    const res = await (
      key === null ? req.set('Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`) : req.set(bearer(key))
    ).expect(401);
    expect(res.body.error.code).toBe('sign_in');
  });

  it('stops a revoked key at once', async () => {
    const list = await t.http.get('/api/v1/keys').set(bearer(keys.admin)).expect(200);
    const readId = list.body.items.find((k: { scope: string }) => k.scope === 'read').id;
    await t.http.get('/api/v1/keys').set(bearer(keys.read)).expect(403);
    const res = await t.http.delete(`/api/v1/keys/${readId}`).set(session()).expect(200);
    expect(res.body).toEqual({ ok: true });
    await t.http.get('/api/v1/keys').set(bearer(keys.read)).expect(401);
    await t.http.delete(`/api/v1/keys/${readId}`).set(session()).expect(404);
  });

  it('stops a key after its expiry', async () => {
    const expires = new Date(t.clock.now() + 3600_000).toISOString();
    const res = await t.http
      .post('/api/v1/keys')
      .set(session())
      .send({ name: 'short', scope: 'admin', expires_at: expires })
      .expect(201);
    expect(res.body).toMatchObject({
      name: 'short',
      scope: 'admin',
      expires_at: expires,
      last_used_at: null,
      key: expect.stringMatching(/^fs_/),
    });
    await t.http.get('/api/v1/keys').set(bearer(res.body.key)).expect(200);
    t.clock.advance(3600_000);
    await t.http.get('/api/v1/keys').set(bearer(res.body.key)).expect(401);
  });

  it.each([
    ['no name', { scope: 'read' }, 'name'],
    ['an empty name', { name: '', scope: 'read' }, 'name'],
    ['a 101-character name', { name: 'n'.repeat(101), scope: 'read' }, 'name'],
    ['an unknown scope', { name: 'k', scope: 'root' }, 'scope'],
    ['a number as scope', { name: 'k', scope: 2 }, 'scope'],
    ['an expiry in the past', { name: 'k', scope: 'read', expires_at: '2020-01-01T00:00:00.000Z' }, 'expires_at'],
    ['an expiry that is not a time', { name: 'k', scope: 'read', expires_at: 'tomorrow' }, 'expires_at'],
    ['an unknown field', { name: 'k', scope: 'read', owner: true }, 'owner'],
  ])('refuses a key with %s (422 on the field) and creates nothing', async (_, body, field) => {
    const res = await t.http.post('/api/v1/keys').set(session()).send(body).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    const list = await t.http.get('/api/v1/keys').set(bearer(keys.admin)).expect(200);
    expect(list.body.items).toHaveLength(3);
  });

  it('accepts a 100-character name and a null expiry', async () => {
    await t.http
      .post('/api/v1/keys')
      .set(session())
      .send({ name: 'n'.repeat(100), scope: 'read', expires_at: null })
      .expect(201);
  });

  it('asks a session for step-up 12 hours after sign-in, but never an API key', async () => {
    t.clock.advance(12 * 3600_000 + 1);
    const res = await t.http.post('/api/v1/keys').set(session()).send({ name: 'late', scope: 'read' }).expect(403);
    expect(res.body.error.code).toBe('step_up');
    await t.http.get('/api/v1/keys').set(session()).expect(200);
    await t.http.get('/api/v1/keys').set(bearer(keys.admin)).expect(200);
  });

  it.each([
    ['no Origin', { Cookie: () => cookie }],
    ['a foreign Origin', { Cookie: () => cookie, Origin: () => 'https://evil.example' }],
  ])('refuses a cookie mutation with %s', async (_, headers) => {
    const req = t.http.post('/api/v1/keys');
    for (const [k, v] of Object.entries(headers)) req.set(k, v());
    const res = await req.send({ name: 'x', scope: 'read' }).expect(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('refuses a cookie mutation that is not JSON', async () => {
    const res = await t.http.delete('/api/v1/keys/1').set({ Cookie: cookie, Origin: ORIGIN }).expect(403);
    expect(res.body.error.message).toContain('application/json');
  });

  it('paginates keys with limit and before', async () => {
    const first = await t.http.get('/api/v1/keys?limit=2').set(bearer(keys.admin)).expect(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_cursor).not.toBeNull();
    const second = await t.http
      .get(`/api/v1/keys?limit=2&before=${first.body.next_cursor}`)
      .set(bearer(keys.admin))
      .expect(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    const ids = [...first.body.items, ...second.body.items].map((k: { id: number }) => k.id);
    expect(new Set(ids).size).toBe(3);
  });

  it.each(['0', '501', '-1', 'abc', '2.5'])('refuses limit=%s with 422', async (limit) => {
    const res = await t.http.get(`/api/v1/keys?limit=${limit}`).set(bearer(keys.admin)).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'limit' });
  });

  it.each(['abc', '0', '-3', '1e3', '99999999999999999999'])('answers 404 for the odd key id %s', async (id) => {
    const res = await t.http.delete(`/api/v1/keys/${id}`).set(session()).expect(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('rate limit per API key', () => {
  it('answers 429 with Retry-After after 600 requests in a minute, per key', async () => {
    const t = await startApp();
    try {
      const { cookie } = await createOwner(t);
      const a = await createKey(t, cookie, 'admin', 'a');
      const b = await createKey(t, cookie, 'admin', 'b');
      for (let i = 0; i < 600; i++) await t.http.get('/api/health').set(bearer(a)).expect(200);
      const res = await t.http.get('/api/v1/keys').set(bearer(a)).expect(429);
      expect(res.body.error.code).toBe('too_many_requests');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      await t.http.get('/api/v1/keys').set(bearer(b)).expect(200);
      t.clock.advance(60_000);
      await t.http.get('/api/v1/keys').set(bearer(a)).expect(200);
    } finally {
      await t.close();
    }
  });
});
