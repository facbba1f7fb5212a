/**
 * Owner routes end to end: GET /me, sessions (list, lifetimes, revoke one, revoke others, open
 * streams closing), the password, the authenticator, recovery codes, password step-up, and API
 * keys kept away from all of it.
 */
import type { AddressInfo } from 'node:net';
import { totpAt } from '../../src/auth/password/totp';
import { OWNER, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { SseClient } from '../../harness/sse';
import {
  API,
  Owner,
  TRUST_LOOPBACK,
  cookieOf,
  from,
  nextCode,
  passwordStep,
  rows,
  securityState,
  signInWithPassword,
  withSession,
} from './support';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('owner routes', () => {
  let t: TestApp;
  let owner: Owner;
  beforeEach(async () => {
    t = await startApp(TRUST_LOOPBACK);
    owner = await createOwner(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (path: string, cookie = owner.cookie) => t.http.get(`${API}${path}`).set('Cookie', cookie);
  const post = (path: string, body: unknown = {}, cookie = owner.cookie) =>
    t.http
      .post(`${API}${path}`)
      .set(withSession(cookie))
      .send(body as object);
  const live = async (cookie: string) =>
    (await t.http.get(`${API}/auth/state`).set('Cookie', cookie)).body.signed_in as boolean;
  /** Another browser signs in with password and code. */
  const otherBrowser = async (ua = FIREFOX, ip = '198.51.100.30') => {
    const ticket = (await passwordStep(t, {}, ip).expect(200)).body.ticket;
    const res = await t.http
      .post(`${API}/auth/code`)
      .set({ ...from(ip), 'User-Agent': ua })
      .send({ ticket, code: nextCode(t, owner.secret) })
      .expect(200);
    return cookieOf(res);
  };
  const stale = () => {
    t.clock.advance(12 * HOUR + 1);
  };
  const stepUp = async (cookie = owner.cookie) =>
    t.http
      .post(`${API}/auth/step-up/password`)
      .set(withSession(cookie))
      .send({ password: OWNER.password, code: nextCode(t, owner.secret) })
      .expect(200);

  describe('GET /me', () => {
    it('describes the owner and the current session', async () => {
      const res = await get('/me').expect(200);
      expect(res.body).toEqual({
        email: OWNER.email,
        created_at: new Date(t.clock.now()).toISOString(),
        session: {
          method: 'setup',
          created_at: new Date(t.clock.now()).toISOString(),
          fresh_until: new Date(t.clock.now() + 12 * HOUR).toISOString(),
        },
        passkeys: 0,
        totp: true,
        recovery_codes_left: 10,
      });
    });

    it('counts the recovery codes left', async () => {
      const ticket = (await passwordStep(t).expect(200)).body.ticket;
      const res = await t.http
        .post(`${API}/auth/code`)
        .set(from())
        .send({ ticket, recovery_code: owner.codes[3] })
        .expect(200);
      const me = await get('/me', cookieOf(res)).expect(200);
      expect(me.body).toMatchObject({ session: { method: 'recovery' }, recovery_codes_left: 9 });
    });
  });

  describe('sessions', () => {
    it('lists live sessions with the device in words, the address and which one is current', async () => {
      const setupAt = t.clock.now();
      t.clock.advance(60_000);
      const phone = await otherBrowser(SAFARI_IOS, '2001:db8::7');
      const phoneAt = t.clock.now();
      const res = await get('/me/sessions').expect(200);
      expect(res.body).toEqual({
        items: [
          {
            id: expect.any(Number),
            current: true,
            method: 'setup',
            created_at: new Date(setupAt).toISOString(),
            seen_at: new Date(t.clock.now()).toISOString(),
            expires_at: new Date(t.clock.now() + 14 * DAY).toISOString(),
            ip: '127.0.0.1',
            device: null,
          },
          {
            id: expect.any(Number),
            current: false,
            method: 'password',
            created_at: new Date(phoneAt).toISOString(),
            seen_at: new Date(phoneAt).toISOString(),
            expires_at: new Date(phoneAt + 14 * DAY).toISOString(),
            ip: '2001:db8::7',
            device: 'Safari on iOS',
          },
        ],
      });
      const fromPhone = await get('/me/sessions', phone).expect(200);
      expect(fromPhone.body.items.filter((s: { current: boolean }) => s.current)).toEqual([
        expect.objectContaining({ device: 'Safari on iOS' }),
      ]);
    });

    it('ends a session after 14 days without use', async () => {
      const other = await otherBrowser();
      // Use is written at most once a minute, so the owner's session counts as used a minute on.
      t.clock.advance(60_000);
      await get('/me').expect(200);
      t.clock.advance(14 * DAY - 60_000 - 1000);
      await get('/me').expect(200); // the owner's own session stays in use
      t.clock.advance(1000);
      expect(await live(other)).toBe(false);
      expect((await get('/me/sessions').expect(200)).body.items).toHaveLength(1);
    });

    it('ends a session 30 days after its sign-in however busy it is', async () => {
      for (let day = 10; day < 30; day += 10) {
        t.clock.advance(10 * DAY);
        await get('/me').expect(200);
      }
      t.clock.advance(10 * DAY - 1000);
      const [row] = (await get('/me/sessions').expect(200)).body.items;
      expect(row.expires_at).toBe(new Date(t.clock.now() + 1000).toISOString());
      t.clock.advance(1000);
      expect((await get('/me').expect(401)).body.error.code).toBe('sign_in');
    });

    it('sets a cookie that lasts 30 days at most', async () => {
      const ticket = (await passwordStep(t).expect(200)).body.ticket;
      const res = await t.http
        .post(`${API}/auth/code`)
        .set(from())
        .send({ ticket, code: nextCode(t, owner.secret) })
        .expect(200);
      expect((res.headers['set-cookie'] as unknown as string[])[0]).toContain(`Max-Age=${30 * 24 * 3600}`);
    });

    it('revokes one session: its cookie stops working at once; the timeline says so', async () => {
      const other = await otherBrowser();
      const id = (await get('/me/sessions').expect(200)).body.items.find((s: { current: boolean }) => !s.current).id;
      const res = await t.http.delete(`${API}/me/sessions/${id}`).set(withSession(owner.cookie)).expect(200);
      expect(res.body).toEqual({ ok: true });
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await live(other)).toBe(false);
      expect(await live(owner.cookie)).toBe(true);
      await t.http.delete(`${API}/me/sessions/${id}`).set(withSession(owner.cookie)).expect(404);
      await t.http.delete(`${API}/me/sessions/abc`).set(withSession(owner.cookie)).expect(404);
      const [line] = await rows(t, "SELECT text, data FROM events WHERE kind = 'sessions_revoked'");
      expect(line).toEqual({
        text: `session ${id} ended (Firefox on Linux from 198.51.100.30)`,
        data: JSON.stringify({ signed_out: 1, session_id: id }),
      });
    });

    it('revoking the current session signs out and clears the cookie', async () => {
      const id = (await get('/me/sessions').expect(200)).body.items[0].id;
      const res = await t.http.delete(`${API}/me/sessions/${id}`).set(withSession(owner.cookie)).expect(200);
      expect((res.headers['set-cookie'] as unknown as string[])[0]).toContain('Max-Age=0');
      expect(await live(owner.cookie)).toBe(false);
    });

    it('revokes every other session and says how many', async () => {
      const a = await otherBrowser();
      const b = await otherBrowser(SAFARI_IOS);
      const res = await post('/me/sessions/revoke-others').expect(200);
      expect(res.body).toEqual({ ok: true, signed_out: 2 });
      expect([await live(a), await live(b), await live(owner.cookie)]).toEqual([false, false, true]);
      expect((await post('/me/sessions/revoke-others').expect(200)).body).toEqual({ ok: true, signed_out: 0 });
    });

    it('asks for a step-up before revoking, and gets it from the password and a code', async () => {
      const other = await otherBrowser();
      stale();
      const id = (await get('/me/sessions').expect(200)).body.items.find((s: { current: boolean }) => !s.current).id;
      expect(
        (await t.http.delete(`${API}/me/sessions/${id}`).set(withSession(owner.cookie)).expect(403)).body.error.code,
      ).toBe('step_up');
      expect((await post('/me/sessions/revoke-others').expect(403)).body.error.code).toBe('step_up');
      await stepUp();
      await t.http.delete(`${API}/me/sessions/${id}`).set(withSession(owner.cookie)).expect(200);
      expect(await live(other)).toBe(false);
    });
  });

  describe('step-up with password and code', () => {
    it('answers fresh_until 12 hours on and lets step-up routes through again', async () => {
      stale();
      await post('/me/recovery-codes').expect(403);
      const res = await stepUp();
      expect(res.body).toEqual({ fresh_until: new Date(t.clock.now() + 12 * HOUR).toISOString() });
      expect((await get('/me').expect(200)).body.session.fresh_until).toBe(res.body.fresh_until);
      await post('/me/recovery-codes').expect(200);
    });

    it.each([
      ['a wrong password', { password: 'not the password' }],
      ['a wrong code', { code: 'wrong' }],
    ])('refuses %s with 401 and stays stale', async (_, patch) => {
      stale();
      const right = nextCode(t, owner.secret);
      const body = { password: OWNER.password, code: right, ...patch };
      if (body.code === 'wrong') body.code = right === '000000' ? '111111' : '000000';
      const before = await securityState(t);
      const res = await t.http
        .post(`${API}/auth/step-up/password`)
        .set(withSession(owner.cookie))
        .send(body)
        .expect(401);
      expect(res.body).toEqual({ error: { code: 'sign_in', message: 'the password or code is not right' } });
      expect(await securityState(t)).toEqual(before);
      await post('/me/recovery-codes').expect(403);
    });

    it('does not accept the same code twice', async () => {
      stale();
      const code = nextCode(t, owner.secret);
      await t.http
        .post(`${API}/auth/step-up/password`)
        .set(withSession(owner.cookie))
        .send({ password: OWNER.password, code })
        .expect(200);
      await t.http
        .post(`${API}/auth/step-up/password`)
        .set(withSession(owner.cookie))
        .send({ password: OWNER.password, code })
        .expect(401);
    });

    it('needs a session', async () => {
      await t.http
        .post(`${API}/auth/step-up/password`)
        .set(from())
        .send({ password: OWNER.password, code: '123456' })
        .expect(401);
    });
  });

  describe('POST /me/password', () => {
    it('changes the password, signs out every other session and says how many', async () => {
      const other = await otherBrowser();
      const res = await post('/me/password', { current: OWNER.password, new: 'a much longer new passphrase' }).expect(
        200,
      );
      expect(res.body).toEqual({ ok: true, signed_out: 1 });
      expect([await live(other), await live(owner.cookie)]).toEqual([false, true]);
      expect((await passwordStep(t).expect(401)).body.error.code).toBe('sign_in');
      await passwordStep(t, { password: 'a much longer new passphrase' }).expect(200);
      const [line] = await rows(t, "SELECT text, data FROM events WHERE kind = 'password_changed'");
      expect(line).toEqual({ text: 'password changed; 1 session signed out', data: JSON.stringify({ signed_out: 1 }) });
    });

    it('refuses a wrong current password with 401 on current, changes nothing and counts it as a failure', async () => {
      const before = await securityState(t);
      const res = await post('/me/password', {
        current: 'not my password',
        new: 'a much longer new passphrase',
      }).expect(401);
      expect(res.body.error).toEqual({
        code: 'sign_in',
        message: 'the current password is not right',
        field: 'current',
      });
      expect(await securityState(t)).toEqual(before);
      expect(await rows(t, 'SELECT bucket FROM sign_in_failures')).toEqual([{ bucket: '127.0.0.1' }]);
    });

    it.each([
      ['a short new password', { new: 'short' }, 'new'],
      ['the email as the new password', { new: OWNER.email }, 'new'],
      ['the same password again', { new: OWNER.password }, 'new'],
      ['no current password', { current: undefined }, 'current'],
      ['a current password that is a number', { current: 12345678901 }, 'current'],
      ['a new password of 1001 characters', { new: 'x'.repeat(1001) }, 'new'],
      ['an unknown field', { confirm: 'x' }, 'confirm'],
    ])('refuses %s: 422 on the field, nothing changed', async (_, patch, field) => {
      const body: Record<string, unknown> = { current: OWNER.password, new: 'a much longer new passphrase', ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const before = await securityState(t);
      const res = await post('/me/password', body).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
      expect(await securityState(t)).toEqual(before);
    });

    it('needs a step-up', async () => {
      stale();
      expect(
        (await post('/me/password', { current: OWNER.password, new: 'a much longer new passphrase' }).expect(403)).body
          .error.code,
      ).toBe('step_up');
    });
  });

  describe('replacing the authenticator', () => {
    it('shows a new secret with its QR code, and replaces the old one after its first code', async () => {
      const other = await otherBrowser();
      const options = await post('/me/totp/options').expect(200);
      expect(options.body).toEqual({
        setup_id: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
        uri: expect.stringMatching(
          /^otpauth:\/\/totp\/Farsight:Farsight%20owner\?secret=[A-Z2-7]+&period=30&digits=6&algorithm=SHA1&issuer=Farsight$/,
        ),
        qr_svg: expect.stringMatching(/^<svg[\s\S]*<\/svg>\s*$/),
      });
      expect(options.body.uri).toContain(options.body.secret);
      const stored = await rows<{ setup_hash: string }>(t, 'SELECT setup_hash FROM totp_setups');
      expect(stored[0].setup_hash).not.toBe(options.body.setup_id);
      // The old authenticator keeps working until the new one is confirmed.
      expect(await live(await signInWithPassword(t, owner))).toBe(true);

      const newSecret = options.body.secret as string;
      const code = totpAt(newSecret, t.clock.now());
      const res = await post('/me/totp', { setup_id: options.body.setup_id, code }).expect(200);
      expect(res.body).toEqual({ ok: true, signed_out: 2 });
      expect(await live(other)).toBe(false);
      expect(await live(owner.cookie)).toBe(true);
      // The old secret's codes stop working; the new one's work, but never the confirming code again.
      const ticket = (await passwordStep(t).expect(200)).body.ticket;
      const oldCode = nextCode(t, owner.secret);
      if (oldCode !== totpAt(newSecret, t.clock.now()))
        await t.http.post(`${API}/auth/code`).set(from()).send({ ticket, code: oldCode }).expect(401);
      const ticket2 = (await passwordStep(t).expect(200)).body.ticket;
      const replay = await t.http
        .post(`${API}/auth/code`)
        .set(from())
        .send({ ticket: ticket2, code: totpAt(newSecret, t.clock.now() - 30_000) });
      if (totpAt(newSecret, t.clock.now() - 30_000) === code) expect(replay.status).toBe(401);
      await signInWithPassword(t, { ...owner, secret: newSecret });
      expect(await rows(t, 'SELECT id FROM totp_setups')).toEqual([]);
      const [line] = await rows(t, "SELECT text FROM events WHERE kind = 'totp_replaced'");
      expect(line).toEqual({ text: 'authenticator replaced; 2 sessions signed out' });
    });

    it('refuses a wrong first code with 422 on code and keeps the old authenticator', async () => {
      const options = await post('/me/totp/options').expect(200);
      const right = totpAt(options.body.secret, t.clock.now());
      const before = await securityState(t);
      const res = await post('/me/totp', {
        setup_id: options.body.setup_id,
        code: right === '000000' ? '111111' : '000000',
      }).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'code' });
      expect(await securityState(t)).toEqual(before);
      await post('/me/totp', { setup_id: options.body.setup_id, code: right }).expect(200);
    });

    it('refuses a setup of another session, an unknown one, and one older than 10 minutes', async () => {
      const other = await otherBrowser();
      const options = await post('/me/totp/options').expect(200);
      const code = totpAt(options.body.secret, t.clock.now());
      const foreign = await post('/me/totp', { setup_id: options.body.setup_id, code }, other).expect(422);
      expect(foreign.body.error).toMatchObject({ field: 'setup_id' });
      await post('/me/totp', { setup_id: 'x'.repeat(32), code }).expect(422);
      t.clock.advance(10 * 60_000);
      const late = await post('/me/totp', {
        setup_id: options.body.setup_id,
        code: totpAt(options.body.secret, t.clock.now()),
      }).expect(422);
      expect(late.body.error).toMatchObject({ field: 'setup_id' });
    });

    it('voids the previous options when asked again', async () => {
      const first = await post('/me/totp/options').expect(200);
      const second = await post('/me/totp/options').expect(200);
      await post('/me/totp', { setup_id: first.body.setup_id, code: totpAt(first.body.secret, t.clock.now()) }).expect(
        422,
      );
      await post('/me/totp', {
        setup_id: second.body.setup_id,
        code: totpAt(second.body.secret, t.clock.now()),
      }).expect(200);
    });

    it.each([
      ['no setup_id', { setup_id: undefined }, 'setup_id'],
      ['a setup_id of 101 characters', { setup_id: 's'.repeat(101) }, 'setup_id'],
      ['a code that is a number', { code: 123456 }, 'code'],
      ['a 7-digit code', { code: '1234567' }, 'code'],
      ['an unknown field', { label: 'phone' }, 'label'],
    ])('refuses %s: 422 on the field', async (_, patch, field) => {
      const options = await post('/me/totp/options').expect(200);
      const body: Record<string, unknown> = {
        setup_id: options.body.setup_id,
        code: totpAt(options.body.secret, t.clock.now()),
        ...patch,
      };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const before = await securityState(t);
      const res = await post('/me/totp', body).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
      expect(await securityState(t)).toEqual(before);
    });

    it('refuses a body on the options route', async () => {
      expect((await post('/me/totp/options', { secret: 'MINE' }).expect(422)).body.error).toMatchObject({
        field: 'secret',
      });
    });
  });

  describe('recovery codes', () => {
    it('makes 10 new codes, stored hashed; the old ones stop working, the new ones work once', async () => {
      const res = await post('/me/recovery-codes').expect(200);
      expect(res.body.codes).toHaveLength(10);
      expect(new Set(res.body.codes).size).toBe(10);
      for (const c of res.body.codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      const stored = JSON.stringify(await rows(t, 'SELECT * FROM recovery_codes'));
      for (const c of res.body.codes) expect(stored).not.toContain(c);
      expect((await get('/me').expect(200)).body.recovery_codes_left).toBe(10);

      const useCode = async (recovery_code: string) => {
        const ticket = (await passwordStep(t).expect(200)).body.ticket;
        return t.http.post(`${API}/auth/code`).set(from()).send({ ticket, recovery_code });
      };
      expect((await useCode(owner.codes[0])).status).toBe(401);
      expect((await useCode(res.body.codes[0])).status).toBe(200);
      expect((await useCode(res.body.codes[0])).status).toBe(401);
      expect((await get('/me').expect(200)).body.recovery_codes_left).toBe(9);
      const [line] = await rows(t, "SELECT text FROM events WHERE kind = 'recovery_codes'");
      expect(line).toEqual({ text: '10 new recovery codes made; the old ones stopped working' });
    });

    it('needs a step-up', async () => {
      stale();
      expect((await post('/me/recovery-codes').expect(403)).body.error.code).toBe('step_up');
      expect((await get('/me').expect(200)).body.recovery_codes_left).toBe(10);
    });

    it('keeps the codes and the authenticator secret out of the idempotency table, and refuses a repeat', async () => {
      const codes = (await post('/me/recovery-codes').set('Idempotency-Key', 'codes-1').expect(200)).body
        .codes as string[];
      const totp = (await post('/me/totp/options').set('Idempotency-Key', 'totp-1').expect(200)).body;
      const kept = JSON.stringify(await rows(t, 'SELECT * FROM idempotency'));
      for (const secret of [...codes, totp.setup_id, totp.secret]) expect(kept).not.toContain(secret);
      expect((await post('/me/recovery-codes').set('Idempotency-Key', 'codes-1').expect(409)).body.error.code).toBe(
        'conflict',
      );
      expect((await post('/me/totp/options').set('Idempotency-Key', 'totp-1').expect(409)).body.error.code).toBe(
        'conflict',
      );
      expect(await rows(t, "SELECT id FROM events WHERE kind = 'recovery_codes'")).toHaveLength(1);
    });
  });

  describe('API keys', () => {
    const ownerRoutes: [string, string, unknown?][] = [
      ['GET', '/me'],
      ['GET', '/me/sessions'],
      ['DELETE', '/me/sessions/1'],
      ['POST', '/me/sessions/revoke-others', {}],
      ['POST', '/me/password', { current: OWNER.password, new: 'a much longer new passphrase' }],
      ['POST', '/me/totp/options', {}],
      ['POST', '/me/totp', { setup_id: 'x'.repeat(32), code: '123456' }],
      ['POST', '/me/recovery-codes', {}],
      ['DELETE', '/me/blocked-ips/203.0.113.1'],
      ['POST', '/auth/step-up/password', { password: OWNER.password, code: '123456' }],
    ];

    it.each(['admin', 'write', 'read'] as const)(
      'never lets a %s key use an owner route (403), and nothing changes',
      async (scope) => {
        const key = await createKey(t, owner.cookie, scope);
        const before = await securityState(t);
        for (const [method, path, body] of ownerRoutes) {
          const req =
            method === 'GET'
              ? t.http.get(`${API}${path}`)
              : method === 'DELETE'
                ? t.http.delete(`${API}${path}`)
                : t.http.post(`${API}${path}`).send(body as object);
          const res = await req.set(bearer(key));
          expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 403, 'forbidden']);
        }
        expect(await securityState(t)).toEqual(before);
      },
    );

    it('answers 401 without any credentials', async () => {
      for (const [method, path, body] of ownerRoutes) {
        const req =
          method === 'GET'
            ? t.http.get(`${API}${path}`)
            : method === 'DELETE'
              ? t.http.delete(`${API}${path}`)
              : t.http.post(`${API}${path}`).send(body as object);
        const res = await req;
        expect([method, path, res.status]).toEqual([method, path, 401]);
      }
    });

    it('refuses cookie requests that change something without the dashboard Origin', async () => {
      const res = await t.http
        .post(`${API}/me/recovery-codes`)
        .set({ Cookie: owner.cookie, 'Content-Type': 'application/json' })
        .send({})
        .expect(403);
      expect(res.body.error.code).toBe('forbidden');
    });
  });
});

describe('owner routes and open streams', () => {
  let t: TestApp;
  let owner: Owner;
  let base: string;
  const opened: SseClient[] = [];
  beforeEach(async () => {
    t = await startApp(TRUST_LOOPBACK);
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    owner = await createOwner(t);
  });
  afterEach(async () => {
    for (const c of opened.splice(0)) c.close();
    await t.close();
  });

  const streamOf = async (cookie: string) => {
    const c = await SseClient.open(`${base}${API}/stream`, { Cookie: cookie });
    opened.push(c);
    expect(c.status).toBe(200);
    await c.until(() => c.events.length > 0, 'hello');
    return c;
  };
  const within = <T>(p: Promise<T>, what: string): Promise<T> =>
    Promise.race([
      p,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), 10_000).unref()),
    ]);

  it.each([
    [
      'revoke-others',
      async (tt: TestApp, o: Owner) =>
        tt.http.post(`${API}/me/sessions/revoke-others`).set(withSession(o.cookie)).send({}).expect(200),
    ],
    [
      'a password change',
      async (tt: TestApp, o: Owner) =>
        tt.http
          .post(`${API}/me/password`)
          .set(withSession(o.cookie))
          .send({ current: OWNER.password, new: 'a much longer new passphrase' })
          .expect(200),
    ],
    [
      'an authenticator change',
      async (tt: TestApp, o: Owner) => {
        const options = await tt.http.post(`${API}/me/totp/options`).set(withSession(o.cookie)).send({}).expect(200);
        await tt.http
          .post(`${API}/me/totp`)
          .set(withSession(o.cookie))
          .send({ setup_id: options.body.setup_id, code: totpAt(options.body.secret, tt.clock.now()) })
          .expect(200);
      },
    ],
  ])('closes the open streams of every other session on %s; the current session keeps its stream', async (_, act) => {
    const other = await signInWithPassword(t, owner);
    const theirs = await streamOf(other);
    const mine = await streamOf(owner.cookie);
    await act(t, owner);
    await within(theirs.closed, "the other session's stream to close");
    expect(mine.ended).toBe(false);
  });

  it('closes the stream of a revoked session only', async () => {
    const a = await signInWithPassword(t, owner);
    const b = await signInWithPassword(t, owner);
    const sa = await streamOf(a);
    const sb = await streamOf(b);
    const sessions = (await t.http.get(`${API}/me/sessions`).set('Cookie', owner.cookie).expect(200)).body.items as {
      id: number;
      current: boolean;
      seen_at: string;
    }[];
    const [newest] = sessions.filter((s) => !s.current).sort((x, y) => y.id - x.id);
    await t.http.delete(`${API}/me/sessions/${newest.id}`).set(withSession(owner.cookie)).expect(200);
    await within(sb.closed, "the revoked session's stream to close");
    expect(sa.ended).toBe(false);
  });
});
