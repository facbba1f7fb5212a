import { ORIGIN, TestApp, createKey, createOwner, startApp, bearer } from '../support/app';

describe('foundation: health, setup, keys', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers health with version and uptime', async () => {
    t.clock.advance(5_000);
    const res = await t.http.get('/api/health').expect(200);
    expect(res.body).toEqual({ ok: true, version: expect.any(String), uptime_s: 5 });
  });

  it('goes from a setup link to an admin API key that works', async () => {
    const state0 = await t.http.get('/api/v1/auth/state').expect(200);
    expect(state0.body).toEqual({
      setup_needed: true,
      signed_in: false,
      methods: { passkey: false, password: false },
      challenge_site_key: null,
    });
    const { cookie, codes } = await createOwner(t);
    expect(codes).toHaveLength(10);
    const state1 = await t.http.get('/api/v1/auth/state').set('Cookie', cookie).expect(200);
    expect(state1.body).toMatchObject({ setup_needed: false, signed_in: true });
    const key = await createKey(t, cookie, 'admin');
    expect(key).toMatch(/^fs_[0-9a-f]{48}$/);
    const list = await t.http.get('/api/v1/keys').set(bearer(key)).expect(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        name: 'admin key',
        scope: 'admin',
        prefix: key.slice(0, 7),
        last_ip: expect.any(String),
      }),
    ]);
    expect(list.body.next_cursor).toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(key);
  });

  it('answers unknown routes with the error envelope', async () => {
    const res = await t.http.get('/api/v1/nothing-here').expect(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('refuses keys without credentials', async () => {
    const res = await t.http.get('/api/v1/keys').expect(401);
    expect(res.body.error.code).toBe('sign_in');
  });

  it('refuses malformed JSON with bad_request', async () => {
    const { cookie } = await createOwner(t);
    const res = await t.http
      .post('/api/v1/keys')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(400);
    expect(res.body.error.code).toBe('bad_request');
  });
});
