/**
 * Password + second factor sign-in (POST /auth/password, POST /auth/code) end to end: tickets,
 * authenticator codes from otplib at the fake clock's time, recovery codes, and bad input.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { totpAt } from '../../src/auth/password/totp';
import { OWNER, TestApp, createOwner, startApp } from '../support/app';
import { API, Owner, TRUST_LOOPBACK, cookieOf, from, nextCode, passwordStep, rows, securityState } from './support';

const WRONG_PASSWORD = { error: { code: 'sign_in', message: 'the email or password is not right' } };
const WRONG_CODE = {
  error: {
    code: 'sign_in',
    message:
      'the code is not right, or this sign-in has expired (5 minutes): check the code, or start again with your password',
  },
};

describe('password sign-in', () => {
  let t: TestApp;
  let owner: Owner;
  beforeEach(async () => {
    t = await startApp(TRUST_LOOPBACK);
    owner = await createOwner(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const ticket = async (ip?: string) => (await passwordStep(t, {}, ip).expect(200)).body.ticket as string;
  const code = (body: Record<string, unknown>, ip?: string) => t.http.post(`${API}/auth/code`).set(from(ip)).send(body);
  const signedIn = async (cookie: string) =>
    (await t.http.get(`${API}/auth/state`).set('Cookie', cookie).expect(200)).body.signed_in as boolean;

  it('answers a ticket for the right email and password, then signs in with an authenticator code', async () => {
    const res = await passwordStep(t).expect(200);
    expect(res.body).toEqual({ ticket: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), next: 'code' });
    expect(res.headers['set-cookie']).toBeUndefined();
    const stored = await rows<{ token_hash: string; expires_at: number }>(
      t,
      'SELECT token_hash, expires_at FROM sign_in_tickets',
    );
    expect(stored).toEqual([
      { token_hash: expect.not.stringContaining(res.body.ticket), expires_at: t.clock.now() + 5 * 60_000 },
    ]);

    const done = await code({ ticket: res.body.ticket, code: nextCode(t, owner.secret) }).expect(200);
    expect(done.body).toEqual({ ok: true });
    const cookie = cookieOf(done);
    expect(await signedIn(cookie)).toBe(true);
    const [session] = await rows(t, 'SELECT method, ip, device FROM sessions ORDER BY id DESC LIMIT 1');
    expect(session).toEqual({ method: 'password', ip: '127.0.0.1', device: null });
    const [line] = await rows(t, "SELECT text, actor FROM events WHERE kind = 'sign_in' ORDER BY id DESC LIMIT 1");
    expect(line).toEqual({ text: 'signed in with password and authenticator code from 127.0.0.1', actor: 'owner' });
  });

  it('takes the email in any case', async () => {
    await passwordStep(t, { email: OWNER.email.toUpperCase() }).expect(200);
  });

  it('records the browser in words and the client address', async () => {
    const tk = await ticket('198.51.100.20');
    await t.http
      .post(`${API}/auth/code`)
      .set({
        ...from('198.51.100.20'),
        'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      })
      .send({ ticket: tk, code: nextCode(t, owner.secret) })
      .expect(200);
    const [session] = await rows(t, 'SELECT ip, device FROM sessions ORDER BY id DESC LIMIT 1');
    expect(session).toEqual({ ip: '198.51.100.20', device: 'Firefox on Linux' });
  });

  it('accepts a code of the previous or next 30-second step (clock skew), not two steps away', async () => {
    t.clock.advance(300_000);
    const now = t.clock.now();
    await code({ ticket: await ticket(), code: totpAt(owner.secret, now - 30_000) }).expect(200);
    t.clock.advance(300_000);
    await code({ ticket: await ticket(), code: totpAt(owner.secret, t.clock.now() + 30_000) }).expect(200);
    t.clock.advance(300_000);
    const far = totpAt(owner.secret, t.clock.now() - 60_000);
    const near = [-1, 0, 1].map((d) => totpAt(owner.secret, t.clock.now() + d * 30_000));
    if (!near.includes(far))
      expect((await code({ ticket: await ticket(), code: far }).expect(401)).body).toEqual(WRONG_CODE);
  });

  it('never accepts the same authenticator code twice, even within its 90 seconds', async () => {
    const c = nextCode(t, owner.secret);
    await code({ ticket: await ticket(), code: c }).expect(200);
    const again = await code({ ticket: await ticket(), code: c }).expect(401);
    expect(again.body).toEqual(WRONG_CODE);
    // An older step than the one used is refused too; the next step works.
    const previous = totpAt(owner.secret, t.clock.now() - 30_000);
    if (previous !== c) await code({ ticket: await ticket(), code: previous }).expect(401);
    await code({ ticket: await ticket(), code: nextCode(t, owner.secret) }).expect(200);
  });

  it('refuses the code used by the setup (replay right after first-run setup)', async () => {
    const setupCode = totpAt(owner.secret, t.clock.now());
    await code({ ticket: await ticket(), code: setupCode }).expect(401);
  });

  it('signs in with a recovery code once; the session says so; the code is spent', async () => {
    const recovery = owner.codes[0];
    const res = await code({ ticket: await ticket(), recovery_code: recovery.toUpperCase().replace('-', '') }).expect(
      200,
    );
    expect(await signedIn(cookieOf(res))).toBe(true);
    const [session] = await rows(t, 'SELECT method FROM sessions ORDER BY id DESC LIMIT 1');
    expect(session).toEqual({ method: 'recovery' });
    const again = await code({ ticket: await ticket(), recovery_code: recovery }).expect(401);
    expect(again.body).toEqual(WRONG_CODE);
    await code({ ticket: await ticket(), recovery_code: owner.codes[1] }).expect(200);
    const [{ left }] = await rows<{ left: number }>(
      t,
      'SELECT COUNT(*) AS left FROM recovery_codes WHERE used_at IS NULL',
    );
    expect(left).toBe(8);
  });

  it('uses a ticket once', async () => {
    const tk = await ticket();
    await code({ ticket: tk, code: nextCode(t, owner.secret) }).expect(200);
    const again = await code({ ticket: tk, code: nextCode(t, owner.secret) }).expect(401);
    expect(again.body).toEqual(WRONG_CODE);
  });

  it('keeps a ticket after a wrong code (a typo), within its 5 minutes', async () => {
    const tk = await ticket();
    const right = nextCode(t, owner.secret);
    const wrong = right === '000000' ? '111111' : '000000';
    await code({ ticket: tk, code: wrong }).expect(401);
    await code({ ticket: tk, code: right }).expect(200);
  });

  it('expires a ticket after 5 minutes', async () => {
    const tk = await ticket();
    t.clock.advance(5 * 60_000);
    const res = await code({ ticket: tk, code: totpAt(owner.secret, t.clock.now()) }).expect(401);
    expect(res.body).toEqual(WRONG_CODE);
    expect(await rows(t, "SELECT id FROM sessions WHERE method = 'password'")).toEqual([]);
  });

  it('refuses an unknown ticket with the same answer as a wrong code', async () => {
    const res = await code({ ticket: 'x'.repeat(43), code: nextCode(t, owner.secret) }).expect(401);
    expect(res.body).toEqual(WRONG_CODE);
  });

  it.each([
    ['a wrong password', { password: 'not the password at all' }],
    ['an unknown email', { email: 'someone@example.org' }],
    ['an unknown email and a wrong password', { email: 'someone@example.org', password: 'not the password at all' }],
  ])('answers %s with the same 401 and gives no ticket', async (_, body) => {
    const res = await passwordStep(t, body).expect(401);
    expect(res.body).toEqual(WRONG_PASSWORD);
    expect(await rows(t, 'SELECT id FROM sign_in_tickets')).toEqual([]);
  });

  it('keeps neither password nor ticket in the idempotency table when a signed-in browser sends Idempotency-Key', async () => {
    const tk = (await passwordStep(t).set('Cookie', owner.cookie).set('Idempotency-Key', 'k1').expect(200)).body.ticket;
    await code({ ticket: tk, code: nextCode(t, owner.secret) })
      .set('Cookie', owner.cookie)
      .set('Idempotency-Key', 'k2')
      .expect(200);
    expect(await rows(t, 'SELECT key FROM idempotency')).toEqual([]);
  });
});

describe('password sign-in: bad input', () => {
  // One app for the whole table: every case must leave the state as it found it.
  let t: TestApp;
  let owner: Owner;
  beforeAll(async () => {
    t = await startApp(TRUST_LOOPBACK);
    owner = await createOwner(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const ticket = async () => (await passwordStep(t).expect(200)).body.ticket as string;
  const code = (body: Record<string, unknown>) => t.http.post(`${API}/auth/code`).set(from()).send(body);

  const longString = 'x'.repeat(1001);
  it.each([
    ['no email', { email: undefined }, 'email'],
    ['an email that is a number', { email: 42 }, 'email'],
    ['an email that is not one', { email: 'owner' }, 'email'],
    ['an email of 255 characters', { email: `${'a'.repeat(243)}@example.com` }, 'email'],
    ['no password', { password: undefined }, 'password'],
    ['an empty password', { password: '' }, 'password'],
    ['a password that is an array', { password: ['x'] }, 'password'],
    ['a password of 1001 characters', { password: longString }, 'password'],
    ['a challenge that is not a string', { challenge: 5 }, 'challenge'],
    ['an unknown field', { remember: true }, 'remember'],
  ])('refuses a password step with %s: 422 on the field, the same for any email', async (_, patch, field) => {
    const before = await securityState(t);
    for (const email of [OWNER.email, 'stranger@example.org']) {
      const body: Record<string, unknown> = { email, password: OWNER.password, ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const res = await t.http.post(`${API}/auth/password`).set(from()).send(body).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
      expect(res.body.error.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect(await securityState(t)).toEqual(before);
    expect(await rows(t, 'SELECT id FROM sign_in_failures')).toEqual([]);
  });

  it.each([
    ['no ticket', { ticket: undefined }, 'ticket'],
    ['a ticket that is a number', { ticket: 7 }, 'ticket'],
    ['a ticket of 101 characters', { ticket: 't'.repeat(101) }, 'ticket'],
    ['neither code nor recovery code', { code: undefined }, 'code'],
    ['both code and recovery code', { recovery_code: 'abcde-fghjk' }, 'recovery_code'],
    ['a 5-digit code', { code: '12345' }, 'code'],
    ['a code with letters', { code: '12a456' }, 'code'],
    ['a code that is a number', { code: 123456 }, 'code'],
    ['an empty recovery code', { code: undefined, recovery_code: '' }, 'recovery_code'],
    ['a recovery code of 41 characters', { code: undefined, recovery_code: 'r'.repeat(41) }, 'recovery_code'],
    ['an unknown field', { trust_device: true }, 'trust_device'],
  ])('refuses a code step with %s: 422 on the field, nothing changed', async (_, patch, field) => {
    const tk = await ticket();
    const before = await securityState(t);
    const body: Record<string, unknown> = { ticket: tk, code: nextCode(t, owner.secret), ...patch };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const res = await code(body).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    expect(await securityState(t)).toEqual(before);
  });

  it.each([
    ['a string', '"hello"'],
    ['an array', '[1,2]'],
    ['null', 'null'],
  ])('answers a JSON body that is %s with 422 on body', async (_, raw) => {
    for (const route of ['password', 'code', 'forgot', 'reset']) {
      const res = await t.http.post(`${API}/auth/${route}`).set(from()).send(raw).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'body' });
    }
  });

  it('refuses a cross-site post to the sign-in routes', async () => {
    for (const route of ['password', 'code', 'forgot', 'reset']) {
      const res = await t.http
        .post(`${API}/auth/${route}`)
        .set({ Origin: 'https://evil.example' })
        .send({})
        .expect(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });
});

describe('password sign-in before the owner exists', () => {
  it('answers a wrong password for any email', async () => {
    const t = await startApp();
    try {
      const res = await passwordStep(t).expect(401);
      expect(res.body).toEqual(WRONG_PASSWORD);
    } finally {
      await t.close();
    }
  });
});

describe('bot challenge on the password sign-in routes', () => {
  let verifier: http.Server;
  let t: TestApp;
  let owner: Owner;
  const seen: URLSearchParams[] = [];

  beforeAll(async () => {
    verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push(form);
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            success: form.get('response') === 'good-token' && form.get('secret') === 'challenge-secret',
          }),
        );
      });
    });
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
    t = await startApp({
      FARSIGHT_CHALLENGE_SITE_KEY: 'site-key-1',
      FARSIGHT_CHALLENGE_SECRET: 'challenge-secret',
      FARSIGHT_CHALLENGE_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
    });
    const { setupToken } = await import('../support/app');
    // Setup needs the challenge too on this server.
    const token = await setupToken(t);
    const info = await t.http.get(`${API}/auth/setup/${token}`).expect(200);
    const res = await t.http
      .post(`${API}/auth/setup/${token}`)
      .set(from())
      .send({ ...OWNER, code: totpAt(info.body.totp.secret, t.clock.now()), challenge: 'good-token' })
      .expect(200);
    owner = { cookie: cookieOf(res), codes: res.body.recovery_codes, secret: info.body.totp.secret };
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => verifier.close(() => r()));
  });

  it.each([
    ['no token', {}],
    ['a refused token', { challenge: 'bad-token' }],
  ])('refuses every route with %s: 403 on challenge, nothing counted', async (_, extra) => {
    const bodies: Record<string, Record<string, unknown>> = {
      password: { email: OWNER.email, password: OWNER.password },
      code: { ticket: 'x'.repeat(43), code: '123456' },
      forgot: { email: OWNER.email },
      reset: { token: 'x'.repeat(43), password: 'a new long password', code: '123456' },
    };
    for (const [route, body] of Object.entries(bodies)) {
      const res = await t.http
        .post(`${API}/auth/${route}`)
        .set(from())
        .send({ ...body, ...extra })
        .expect(403);
      expect([route, res.body.error]).toEqual([
        route,
        expect.objectContaining({ code: 'forbidden', field: 'challenge' }),
      ]);
    }
    expect(await rows(t, 'SELECT id FROM sign_in_failures')).toEqual([]);
    expect(await rows(t, 'SELECT id FROM sign_in_tickets')).toEqual([]);
  });

  it('lets a passed challenge through, and sends the verifier the secret and the client address', async () => {
    seen.length = 0;
    const tk = (await passwordStep(t, { challenge: 'good-token' }).expect(200)).body.ticket;
    await t.http
      .post(`${API}/auth/code`)
      .set(from())
      .send({ ticket: tk, code: nextCode(t, owner.secret), challenge: 'good-token' })
      .expect(200);
    await t.http
      .post(`${API}/auth/forgot`)
      .set(from())
      .send({ email: OWNER.email, challenge: 'good-token' })
      .expect(200);
    expect(seen.map((f) => [f.get('secret'), f.get('response'), f.get('remoteip')])).toEqual([
      ['challenge-secret', 'good-token', '127.0.0.1'],
      ['challenge-secret', 'good-token', '127.0.0.1'],
      ['challenge-secret', 'good-token', '127.0.0.1'],
    ]);
  });
});
