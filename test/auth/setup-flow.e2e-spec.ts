import { totpAt } from '../../src/auth/password/totp';
import { OWNER, ORIGIN, TestApp, createOwner, setupToken, startApp } from '../support/app';

describe('first-run setup', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp();
  });
  afterEach(async () => {
    await t.close();
  });

  async function secretFor(token: string): Promise<string> {
    const res = await t.http.get(`/api/v1/auth/setup/${token}`).expect(200);
    return res.body.totp.secret;
  }

  it('shows the authenticator secret, a QR code and the expiry for a fresh link', async () => {
    const token = await setupToken(t);
    const res = await t.http.get(`/api/v1/auth/setup/${token}`).expect(200);
    expect(res.body).toEqual({
      valid: true,
      email: null,
      expires_at: new Date(t.clock.now() + 24 * 3600_000).toISOString(),
      totp: {
        secret: expect.stringMatching(/^[A-Z2-7]{16,}$/),
        uri: expect.stringMatching(/^otpauth:\/\/totp\//),
        qr_svg: expect.stringContaining('<svg'),
      },
    });
  });

  it.each([
    ['an unknown token', 'x'.repeat(32)],
    ['a too short token', 'abc'],
  ])('answers valid false for %s', async (_, token) => {
    const res = await t.http.get(`/api/v1/auth/setup/${token}`).expect(200);
    expect(res.body).toEqual({ valid: false, email: null, expires_at: null, totp: null });
  });

  it('makes nothing when the first session cannot be stored: the link still works afterwards', async () => {
    const token = await setupToken(t);
    const secret = await secretFor(token);
    // The database refuses the session row, as a full disk would, halfway through the setup.
    await t.db.query(
      "CREATE TRIGGER refuse_sessions BEFORE INSERT ON sessions BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    const failed = await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .send({ ...OWNER, code: totpAt(secret, t.clock.now()) });
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal');
    const [counts] = await t.db.query<{ owners: number; codes: number; used: number; lines: number }[]>(
      `SELECT (SELECT COUNT(*) FROM owner) AS owners, (SELECT COUNT(*) FROM recovery_codes) AS codes,
              (SELECT COUNT(*) FROM link_tokens WHERE used_at IS NOT NULL) AS used,
              (SELECT COUNT(*) FROM events WHERE kind IN ('setup', 'sign_in')) AS lines`,
    );
    expect(counts).toEqual({ owners: 0, codes: 0, used: 0, lines: 0 });
    await t.db.query('DROP TRIGGER refuse_sessions');
    await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .send({ ...OWNER, code: totpAt(secret, t.clock.now()) })
      .expect(200);
  });

  it('creates the owner, sets a hardened session cookie and returns 10 recovery codes', async () => {
    const token = await setupToken(t);
    const secret = await secretFor(token);
    const res = await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .send({ ...OWNER, code: totpAt(secret, t.clock.now()) })
      .expect(200);
    expect(res.body).toEqual({ ok: true, recovery_codes: expect.any(Array) });
    expect(new Set(res.body.recovery_codes).size).toBe(10);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(cookie).toMatch(/^service_session=[A-Za-z0-9_-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure'); // the test public URL is plain http
    const stored = await t.db.query<{ token_hash: string }[]>('SELECT token_hash FROM sessions');
    expect(stored).toHaveLength(1);
    expect(cookie).not.toContain(stored[0].token_hash);
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    await t.close();
    t = await startApp({ FARSIGHT_PUBLIC_URL: 'https://status.example.com' });
    const token = await setupToken(t);
    const secret = await secretFor(token);
    const res = await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .send({ ...OWNER, code: totpAt(secret, t.clock.now()) })
      .expect(200);
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toContain('Secure');
  });

  it('uses a link only once', async () => {
    const token = await setupToken(t);
    const secret = await secretFor(token);
    const body = { ...OWNER, code: totpAt(secret, t.clock.now()) };
    await t.http.post(`/api/v1/auth/setup/${token}`).send(body).expect(200);
    const again = await t.http.post(`/api/v1/auth/setup/${token}`).send(body).expect(404);
    expect(again.body.error.code).toBe('not_found');
    const info = await t.http.get(`/api/v1/auth/setup/${token}`).expect(200);
    expect(info.body.valid).toBe(false);
  });

  it('expires a link after 24 hours', async () => {
    const token = await setupToken(t);
    const secret = await secretFor(token);
    t.clock.advance(24 * 3600_000 + 1);
    await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .send({ ...OWNER, code: totpAt(secret, t.clock.now()) })
      .expect(404);
  });

  it('replaces an older unused link when a new one is issued', async () => {
    const first = await setupToken(t);
    await setupToken(t);
    const res = await t.http.get(`/api/v1/auth/setup/${first}`).expect(200);
    expect(res.body.valid).toBe(false);
  });

  it('refuses to issue a link once the owner exists', async () => {
    await createOwner(t);
    await expect(setupToken(t)).rejects.toThrow(/already exists/);
  });

  it.each([
    ['a wrong authenticator code', { code: '000000' }, 'code'],
    ['a short password', { password: 'short' }, 'password'],
    ['a password equal to the email', { password: OWNER.email }, 'password'],
    ['a well-known password', { password: 'Password123' }, 'password'],
    ['a bad email', { email: 'not-an-email' }, 'email'],
    ['a code with letters', { code: '12a456' }, 'code'],
    ['an unknown field', { admin: true }, 'admin'],
  ])('refuses %s with 422 on the field and creates nothing', async (_, patch, field) => {
    const token = await setupToken(t);
    const secret = await secretFor(token);
    const body = { ...OWNER, code: totpAt(secret, t.clock.now()), ...patch };
    if (body.code === '000000' && totpAt(secret, t.clock.now()) === '000000') body.code = '111111';
    const res = await t.http.post(`/api/v1/auth/setup/${token}`).send(body).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    expect(res.body.error.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await t.db.query('SELECT id FROM owner')).toEqual([]);
    // the link still works after a mistake
    expect((await t.http.get(`/api/v1/auth/setup/${token}`)).body.valid).toBe(true);
  });

  it.each([
    ['a string', '"hello"'],
    ['an array', '[1,2]'],
    ['null', 'null'],
  ])('answers a JSON body that is %s with an error envelope', async (_, raw) => {
    const token = await setupToken(t);
    const res = await t.http.post(`/api/v1/auth/setup/${token}`).set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'body' });
  });

  it('refuses a cross-site form post to the setup route', async () => {
    const token = await setupToken(t);
    const res = await t.http
      .post(`/api/v1/auth/setup/${token}`)
      .set('Origin', 'https://evil.example')
      .send({ ...OWNER, code: '123456' })
      .expect(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('signs out: the session stops working and the cookie is cleared', async () => {
    const { cookie } = await createOwner(t);
    const res = await t.http.post('/api/v1/auth/logout').set('Cookie', cookie).set('Origin', ORIGIN).expect(200);
    expect(res.body).toEqual({ ok: true });
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toContain('Max-Age=0');
    const state = await t.http.get('/api/v1/auth/state').set('Cookie', cookie).expect(200);
    expect(state.body.signed_in).toBe(false);
  });

  it('serves the setup page as HTML with a strict content security policy', async () => {
    const token = await setupToken(t);
    const res = await t.http.get(`/setup/${token}`).expect(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const src = /<script type="module" src="(\/dashboard\/assets\/pages\/setup\.js\?v=[^"]+)"><\/script>/.exec(
      res.text,
    );
    expect(src).not.toBeNull();
    expect(res.text).toMatch(/<script type="module" src="\/dashboard\/assets\/pages\/setup-codes\.js\?v=/);
    expect(res.text).not.toMatch(/<script>(?!<\/script>)/);
    const js = await t.http.get(src![1].replace(/&amp;/g, '&')).expect(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.text).toMatch(/from '\.\.\/page\.js\?v=/);
    await t.http.get('/dashboard/assets/..%2Fpackage.json').expect(404);
  });
});

describe('bot challenge on setup', () => {
  it('requires a token the verifier accepts when a challenge is configured', async () => {
    const http = await import('node:http');
    const seen: string[] = [];
    const verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(body);
        const ok = new URLSearchParams(body).get('response') === 'good-token';
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: ok }));
      });
    });
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
    const port = (verifier.address() as { port: number }).port;
    const t = await startApp({
      FARSIGHT_CHALLENGE_SITE_KEY: 'site-key-1',
      FARSIGHT_CHALLENGE_SECRET: 'challenge-secret',
      FARSIGHT_CHALLENGE_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`,
    });
    try {
      const state = await t.http.get('/api/v1/auth/state').expect(200);
      expect(state.body.challenge_site_key).toBe('site-key-1');
      const token = await setupToken(t);
      const secret = (await t.http.get(`/api/v1/auth/setup/${token}`)).body.totp.secret;
      const body = { ...OWNER, code: totpAt(secret, t.clock.now()) };
      const missing = await t.http.post(`/api/v1/auth/setup/${token}`).send(body).expect(403);
      expect(missing.body.error).toMatchObject({ code: 'forbidden', field: 'challenge' });
      await t.http
        .post(`/api/v1/auth/setup/${token}`)
        .send({ ...body, challenge: 'bad-token' })
        .expect(403);
      await t.http
        .post(`/api/v1/auth/setup/${token}`)
        .send({ ...body, challenge: 'good-token' })
        .expect(200);
      expect(seen.at(-1)).toContain('secret=challenge-secret');
    } finally {
      await t.close();
      verifier.close();
    }
  });
});
