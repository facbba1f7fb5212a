/**
 * Passkeys through the real app with a software authenticator (passkeys-authenticator.ts): the
 * bytes a browser would send, checked by @simplewebauthn for real. Registration, sign-in, step-up,
 * rename, remove, and every way an answer can be wrong: refused with the spec's codes, and
 * nothing changed.
 */
import { SignInService } from '../../src/auth/sign-in/sign-in.service';
import { bearer, createKey, createOwner, ORIGIN, PUBLIC_URL, startApp, TestApp } from '../support/app';
import { FLAG, SoftAuthenticator } from './passkeys-authenticator';
import { addPasskey, API, cookieOf, expectStatus, passkeySignIn, send } from './passkeys-support';

const HOUR = 3600_000;

describe('passkeys', () => {
  let t: TestApp;
  let cookie: string;
  let auth: SoftAuthenticator;

  beforeEach(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    auth = new SoftAuthenticator(PUBLIC_URL);
  });
  afterEach(async () => {
    await t.close();
  });

  /** What a refused attempt must leave alone: sessions, passkey counters and use times, timeline. */
  async function snapshot() {
    return t.db.query(
      `SELECT (SELECT COUNT(*) FROM sessions) AS sessions,
              (SELECT group_concat(id || ':' || counter || ':' || IFNULL(last_used_at, '-') || ':' || label, ',') FROM passkeys) AS passkeys,
              (SELECT COUNT(*) FROM events) AS lines`,
    );
  }

  describe('registration', () => {
    it('offers creation options for this Farsight: RP id from FARSIGHT_PUBLIC_URL, user verification required, attestation none', async () => {
      const res = await send(t, 'post', '/me/passkeys/options', {}, cookie).expect(200);
      expect(res.body).toEqual({
        challenge_id: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/),
        public_key: expect.objectContaining({
          challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          rp: { name: 'Farsight', id: 'farsight.test' },
          user: { id: expect.any(String), name: 'owner@example.com', displayName: 'owner@example.com' },
          pubKeyCredParams: expect.arrayContaining([{ alg: -7, type: 'public-key' }]),
          timeout: 300_000,
          attestation: 'none',
          excludeCredentials: [],
          authenticatorSelection: expect.objectContaining({ userVerification: 'required' }),
        }),
      });
    });

    it('adds a passkey: the row, the list, the timeline, and /auth/state says passkeys exist', async () => {
      expect((await t.http.get(`${API}/auth/state`).expect(200)).body.methods).toEqual({
        passkey: false,
        password: true,
      });
      const res = await addPasskey(t, cookie, auth, 'YubiKey 5C').then((r) => expectStatus(r, 201));
      expect(res.body).toEqual({
        id: expect.any(Number),
        label: 'YubiKey 5C',
        created_at: new Date(t.clock.now()).toISOString(),
        last_used_at: null,
      });
      const list = await t.http.get(`${API}/me/passkeys`).set('Cookie', cookie).expect(200);
      expect(list.body).toEqual({ items: [res.body] });
      expect((await t.http.get(`${API}/auth/state`).expect(200)).body.methods).toEqual({
        passkey: true,
        password: true,
      });
      const [row] =
        await t.db.query<{ credential_id: string; counter: number; transports: string; backed_up: number }[]>(
          'SELECT * FROM passkeys',
        );
      expect(row).toMatchObject({ credential_id: auth.id, counter: 0, transports: '["internal"]', backed_up: 0 });
      const lines = await t.http.get(`${API}/events?kind=passkey_added`).set('Cookie', cookie).expect(200);
      expect(lines.body.items).toEqual([
        expect.objectContaining({ kind: 'passkey_added', actor: 'owner', text: 'passkey "YubiKey 5C" added' }),
      ]);
    });

    it('names a passkey added without a label after the browser', async () => {
      const opts = await send(t, 'post', '/me/passkeys/options', {}, cookie).expect(200);
      const res = await send(
        t,
        'post',
        '/me/passkeys/verify',
        { challenge_id: opts.body.challenge_id, credential: auth.create(opts.body.public_key) },
        cookie,
      )
        .set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')
        .expect(201);
      expect(res.body.label).toBe('Firefox on Linux');
    });

    it('excludes registered passkeys from new creation options, and refuses the same one twice with 409', async () => {
      await addPasskey(t, cookie, auth).then((r) => expectStatus(r, 201));
      const opts = await send(t, 'post', '/me/passkeys/options', {}, cookie).expect(200);
      expect(opts.body.public_key.excludeCredentials).toEqual([
        { id: auth.id, type: 'public-key', transports: ['internal'] },
      ]);
      const again = await send(
        t,
        'post',
        '/me/passkeys/verify',
        { challenge_id: opts.body.challenge_id, credential: auth.create(opts.body.public_key) },
        cookie,
      ).expect(409);
      expect(again.body.error.code).toBe('conflict');
      expect(await t.db.query('SELECT id FROM passkeys')).toHaveLength(1);
    });

    it.each<[string, Parameters<SoftAuthenticator['create']>[1], RegExp]>([
      ['another origin', { origin: 'https://evil.example' }, /another web address/],
      ['another RP id', { rpId: 'evil.example' }, /another site/],
      ['no user verification', { flags: FLAG.UP | FLAG.AT }, /did not verify you/],
      ['no user presence', { flags: FLAG.UV | FLAG.AT }, /present/],
      ['another challenge', { challenge: Buffer.alloc(32, 1).toString('base64url') }, /another request/],
      ['a sign-in answer type', { type: 'webauthn.get' }, /could not be read/],
    ])(
      'refuses a registration made for %s with 422 on credential, storing nothing',
      async (_label, ceremony, message) => {
        const before = await snapshot();
        const res = await addPasskey(t, cookie, auth, 'x', ceremony).then((r) => expectStatus(r, 422));
        expect(res.body.error).toMatchObject({
          code: 'invalid',
          field: 'credential',
          message: expect.stringMatching(message),
        });
        expect(await snapshot()).toEqual(before);
      },
    );

    it('refuses an expired registration challenge with 422 on challenge_id', async () => {
      const opts = await send(t, 'post', '/me/passkeys/options', {}, cookie).expect(200);
      t.clock.advance(5 * 60_000);
      const res = await send(
        t,
        'post',
        '/me/passkeys/verify',
        { challenge_id: opts.body.challenge_id, credential: auth.create(opts.body.public_key) },
        cookie,
      ).expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field: 'challenge_id' });
      expect(await t.db.query('SELECT id FROM passkeys')).toEqual([]);
    });

    it('refuses a registration challenge issued to another session', async () => {
      const other = cookieOf(await passkeySignInAfterSetup());
      const opts = await send(t, 'post', '/me/passkeys/options', {}, other).expect(200);
      const fresh = new SoftAuthenticator(PUBLIC_URL);
      const res = await send(
        t,
        'post',
        '/me/passkeys/verify',
        { challenge_id: opts.body.challenge_id, credential: fresh.create(opts.body.public_key) },
        cookie,
      ).expect(422);
      expect(res.body.error.field).toBe('challenge_id');
    });

    it('keeps at most 20 passkeys', async () => {
      for (let i = 0; i < 20; i++)
        await addPasskey(t, cookie, new SoftAuthenticator(PUBLIC_URL)).then((r) => expectStatus(r, 201));
      const res = await send(t, 'post', '/me/passkeys/options', {}, cookie).expect(409);
      expect(res.body.error.message).toMatch(/20 passkeys/);
    });

    it('needs a sign-in within 12 hours (step-up)', async () => {
      t.clock.advance(12 * HOUR + 1);
      const res = await send(t, 'post', '/me/passkeys/options', {}, cookie).expect(403);
      expect(res.body.error.code).toBe('step_up');
    });

    /** A second session, by passkey sign-in with a passkey added for it. */
    async function passkeySignInAfterSetup() {
      const second = new SoftAuthenticator(PUBLIC_URL);
      await addPasskey(t, cookie, second).then((r) => expectStatus(r, 201));
      return (await passkeySignIn(t, second)).res;
    }
  });

  describe('sign-in', () => {
    beforeEach(async () => {
      await addPasskey(t, cookie, auth, 'Laptop').then((r) => expectStatus(r, 201));
    });

    it('answers request options in the spec shape: challenge, rpId, timeout, userVerification required, allowCredentials', async () => {
      const res = await send(t, 'post', '/auth/passkey/options', {}).expect(200);
      expect(res.body).toEqual({
        challenge_id: expect.any(String),
        public_key: {
          challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          rpId: 'farsight.test',
          timeout: 300_000,
          userVerification: 'required',
          allowCredentials: [{ id: auth.id, type: 'public-key', transports: ['internal'] }],
        },
      });
    });

    it('signs in: a session with method passkey, the cookie works, counter and last use are kept, the sign-in is on the timeline', async () => {
      t.clock.advance(60_000);
      const { res } = await passkeySignIn(t, auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      const session = cookieOf(res);
      expect(session).toMatch(/^service_session=/);
      await t.http.get(`${API}/me/passkeys`).set('Cookie', session).expect(200);
      expect((await t.http.get(`${API}/auth/state`).set('Cookie', session)).body.signed_in).toBe(true);
      const [row] = await t.db.query<{ counter: number; last_used_at: number }[]>(
        'SELECT counter, last_used_at FROM passkeys',
      );
      expect(row).toEqual({ counter: 1, last_used_at: t.clock.now() });
      const methods = await t.db.query<{ method: string }[]>('SELECT method FROM sessions ORDER BY id');
      expect(methods.map((m) => m.method)).toEqual(['setup', 'passkey']);
      const lines = await t.http.get(`${API}/events?kind=sign_in`).set('Cookie', session).expect(200);
      expect(lines.body.items[0].text).toMatch(/^signed in with passkey from /);
      const list = await t.http.get(`${API}/me/passkeys`).set('Cookie', session).expect(200);
      expect(list.body.items[0].last_used_at).toBe(new Date(t.clock.now()).toISOString());
      // No mail provider here: the sign-in notice is not attempted, so no failed delivery is logged
      // (test/auth/reset-and-mail.e2e-spec.ts follows a notice through a real SMTP server).
      await t.app.get(SignInService).settled();
      expect(await t.db.query('SELECT summary FROM deliveries WHERE email = 1')).toEqual([]);
    });

    it('signs in again and again with an authenticator that does not count (counter stays 0)', async () => {
      const synced = new SoftAuthenticator(PUBLIC_URL, false);
      await addPasskey(t, cookie, synced).then((r) => expectStatus(r, 201));
      for (let i = 0; i < 3; i++) expect((await passkeySignIn(t, synced)).res.status).toBe(200);
    });

    it.each<[string, Parameters<SoftAuthenticator['get']>[1], RegExp]>([
      ['another origin', { origin: 'https://farsight.test.evil.example' }, /another web address/],
      ['the right host over another scheme', { origin: 'https://farsight.test' }, /another web address/],
      ['another RP id', { rpId: 'evil.example' }, /another site/],
      ['a missing user verification flag', { flags: FLAG.UP }, /did not verify you/],
      ['a missing user presence flag', { flags: FLAG.UV }, /present/],
      ['another challenge', { challenge: Buffer.alloc(32, 9).toString('base64url') }, /another request/],
      ['a registration answer type', { type: 'webauthn.create' }, /could not be read/],
    ])('refuses an assertion with %s: 401 sign_in, nothing changed', async (_label, ceremony, message) => {
      const before = await snapshot();
      const { res } = await passkeySignIn(t, auth, ceremony);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'sign_in', message: expect.stringMatching(message) });
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await snapshot()).toEqual(before);
      expect(t.logs.join('')).toMatch(/passkey sign-in refused/);
    });

    it('refuses a replayed assertion: the same answer twice, and the captured answer with a new challenge_id', async () => {
      const first = await passkeySignIn(t, auth);
      expect(first.res.status).toBe(200);
      const before = await snapshot();
      const again = await send(t, 'post', '/auth/passkey/verify', {
        challenge_id: first.options.challenge_id,
        credential: first.credential,
      }).expect(401);
      expect(again.body.error.message).toMatch(/expired or was already used/);
      const fresh = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      const replay = await send(t, 'post', '/auth/passkey/verify', {
        challenge_id: fresh.challenge_id,
        credential: first.credential,
      }).expect(401);
      expect(replay.body.error.message).toMatch(/another request/);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a counter that goes backwards or repeats (a cloned authenticator), and accepts one that grows', async () => {
      expect((await passkeySignIn(t, auth, { counter: 5 })).res.status).toBe(200);
      const before = await snapshot();
      for (const counter of [3, 5, 0]) {
        const { res } = await passkeySignIn(t, auth, { counter });
        expect(res.status).toBe(401);
        expect(res.body.error.message).toMatch(/counter went backwards/);
      }
      expect(await snapshot()).toEqual(before);
      expect((await passkeySignIn(t, auth, { counter: 6 })).res.status).toBe(200);
    });

    it('lets only one of two answers with the same counter through when they arrive together', async () => {
      const a = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      const b = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      const [ra, rb] = await Promise.all([
        send(t, 'post', '/auth/passkey/verify', {
          challenge_id: a.challenge_id,
          credential: auth.get(a.public_key, { counter: 7 }),
        }),
        send(t, 'post', '/auth/passkey/verify', {
          challenge_id: b.challenge_id,
          credential: auth.get(b.public_key, { counter: 7 }),
        }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 401]);
      expect(
        (await t.db.query<{ n: number }[]>("SELECT COUNT(*) AS n FROM sessions WHERE method = 'passkey'"))[0].n,
      ).toBe(1);
    });

    it('refuses a challenge once its 5 minutes are over', async () => {
      const options = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      t.clock.advance(5 * 60_000);
      const res = await send(t, 'post', '/auth/passkey/verify', {
        challenge_id: options.challenge_id,
        credential: auth.get(options.public_key),
      }).expect(401);
      expect(res.body.error).toMatchObject({ code: 'sign_in', message: expect.stringMatching(/expired/) });
    });

    it('accepts a challenge just before its 5 minutes are over', async () => {
      const options = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      t.clock.advance(5 * 60_000 - 1);
      await send(t, 'post', '/auth/passkey/verify', {
        challenge_id: options.challenge_id,
        credential: auth.get(options.public_key),
      }).expect(200);
    });

    it('refuses an unknown credential, and a forged signature', async () => {
      const before = await snapshot();
      const stranger = new SoftAuthenticator(PUBLIC_URL);
      const unknown = await passkeySignIn(t, stranger);
      expect(unknown.res.status).toBe(401);
      expect(unknown.res.body.error.message).toMatch(/not registered here/);
      // The stranger's signature under the registered credential's id.
      const options = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      const forged = { ...stranger.get(options.public_key), id: auth.id, rawId: auth.id };
      const res = await send(t, 'post', '/auth/passkey/verify', {
        challenge_id: options.challenge_id,
        credential: forged,
      }).expect(401);
      expect(res.body.error.message).toMatch(/signature does not match/);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a challenge that was issued for a step-up or a registration', async () => {
      const stepUp = (await send(t, 'post', '/auth/step-up/passkey/options', {}, cookie).expect(200)).body;
      await send(t, 'post', '/auth/passkey/verify', {
        challenge_id: stepUp.challenge_id,
        credential: auth.get(stepUp.public_key),
      }).expect(401);
      const reg = (await send(t, 'post', '/me/passkeys/options', {}, cookie).expect(200)).body;
      await send(t, 'post', '/auth/passkey/verify', {
        challenge_id: reg.challenge_id,
        credential: auth.get({ challenge: reg.public_key.challenge }),
      }).expect(401);
    });

    it.each<[string, (c: Record<string, unknown>) => unknown, string]>([
      ['no credential', () => undefined, 'credential'],
      ['a credential that is a string', () => 'abc', 'credential'],
      [
        'a signature that is not base64url',
        (c) => ({ ...c, response: { ...(c.response as object), signature: 'not base64!' } }),
        'credential.response.signature',
      ],
      [
        'a missing authenticatorData',
        (c) => ({ ...c, response: { ...(c.response as object), authenticatorData: undefined } }),
        'credential.response.authenticatorData',
      ],
      ['a type other than public-key', (c) => ({ ...c, type: 'password' }), 'credential.type'],
      ['a rawId unlike the id', (c) => ({ ...c, rawId: 'AAAA' }), 'credential.rawId'],
      [
        'client data that is not JSON',
        (c) => ({
          ...c,
          response: { ...(c.response as object), clientDataJSON: Buffer.from('{oops').toString('base64url') },
        }),
        'credential.response.clientDataJSON',
      ],
      [
        'authenticator data of 10 bytes',
        (c) => ({
          ...c,
          response: { ...(c.response as object), authenticatorData: Buffer.alloc(10).toString('base64url') },
        }),
        'credential.response.authenticatorData',
      ],
      ['an unknown field', (c) => ({ ...c, extra: 1 }), 'credential.extra'],
      [
        'an over-long signature',
        (c) => ({ ...c, response: { ...(c.response as object), signature: 'A'.repeat(5000) } }),
        'credential.response.signature',
      ],
    ])(
      'answers a malformed credential (%s) with 422 on the field, and the challenge stays usable',
      async (_label, bend, field) => {
        const options = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
        const good = auth.get(options.public_key);
        const res = await send(t, 'post', '/auth/passkey/verify', {
          challenge_id: options.challenge_id,
          credential: bend(good as unknown as Record<string, unknown>),
        }).expect(422);
        expect(res.body.error).toMatchObject({ code: 'invalid', field });
        await send(t, 'post', '/auth/passkey/verify', { challenge_id: options.challenge_id, credential: good }).expect(
          200,
        );
      },
    );

    it.each([
      ['a JSON array', '[]', 'body'],
      ['no challenge_id', JSON.stringify({ credential: {} }), 'challenge_id'],
      ['a challenge_id that is a number', JSON.stringify({ challenge_id: 5 }), 'challenge_id'],
    ])('answers a body with %s with 422', async (_label, raw, field) => {
      const res = await t.http
        .post(`${API}/auth/passkey/verify`)
        .set('Origin', ORIGIN)
        .set('Content-Type', 'application/json')
        .send(raw)
        .expect(422);
      expect(res.body.error.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('refuses a cross-site post of a passkey answer', async () => {
      const options = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      const res = await t.http
        .post(`${API}/auth/passkey/verify`)
        .set('Origin', 'https://evil.example')
        .send({ challenge_id: options.challenge_id, credential: auth.get(options.public_key) })
        .expect(403);
      expect(res.body.error.code).toBe('forbidden');
    });
  });

  describe('step-up', () => {
    let id: number;
    beforeEach(async () => {
      id = (await addPasskey(t, cookie, auth, 'Laptop').then((r) => expectStatus(r, 201))).body.id;
      t.clock.advance(12 * HOUR + 1);
    });

    it('makes a stale session fresh for 12 hours, after which the step-up route works', async () => {
      await send(t, 'delete', `/me/passkeys/${id}`, undefined, cookie).expect(403);
      const options = await send(t, 'post', '/auth/step-up/passkey/options', {}, cookie).expect(200);
      expect(options.body.public_key).toMatchObject({
        rpId: 'farsight.test',
        userVerification: 'required',
        allowCredentials: [expect.objectContaining({ id: auth.id })],
      });
      const res = await send(
        t,
        'post',
        '/auth/step-up/passkey/verify',
        { challenge_id: options.body.challenge_id, credential: auth.get(options.body.public_key) },
        cookie,
      ).expect(200);
      expect(res.body).toEqual({ fresh_until: new Date(t.clock.now() + 12 * HOUR).toISOString() });
      const [row] = await t.db.query<{ counter: number; last_used_at: number }[]>(
        'SELECT counter, last_used_at FROM passkeys',
      );
      expect(row).toEqual({ counter: 1, last_used_at: t.clock.now() });
      await send(t, 'delete', `/me/passkeys/${id}`, undefined, cookie).expect(200);
    });

    it('refuses a wrong passkey with 401 and leaves the session stale (and signed in)', async () => {
      const options = await send(t, 'post', '/auth/step-up/passkey/options', {}, cookie).expect(200);
      const res = await send(
        t,
        'post',
        '/auth/step-up/passkey/verify',
        { challenge_id: options.body.challenge_id, credential: auth.get(options.body.public_key, { flags: FLAG.UP }) },
        cookie,
      ).expect(401);
      expect(res.body.error.code).toBe('sign_in');
      await send(t, 'delete', `/me/passkeys/${id}`, undefined, cookie).expect(403);
      await t.http.get(`${API}/me/passkeys`).set('Cookie', cookie).expect(200);
    });

    it('refuses a step-up challenge of another session, and a sign-in challenge', async () => {
      const other = cookieOf((await passkeySignIn(t, auth)).res);
      const theirs = (await send(t, 'post', '/auth/step-up/passkey/options', {}, other).expect(200)).body;
      await send(
        t,
        'post',
        '/auth/step-up/passkey/verify',
        { challenge_id: theirs.challenge_id, credential: auth.get(theirs.public_key) },
        cookie,
      ).expect(401);
      const signIn = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
      await send(
        t,
        'post',
        '/auth/step-up/passkey/verify',
        { challenge_id: signIn.challenge_id, credential: auth.get(signIn.public_key) },
        cookie,
      ).expect(401);
      await send(t, 'delete', `/me/passkeys/${id}`, undefined, cookie).expect(403);
    });

    it('answers 409 when there is no passkey to confirm with', async () => {
      await t.db.query('DELETE FROM passkeys');
      const res = await send(t, 'post', '/auth/step-up/passkey/options', {}, cookie).expect(409);
      expect(res.body.error.message).toMatch(/step-up\/password/);
    });

    it('needs a session: 401 without one', async () => {
      await send(t, 'post', '/auth/step-up/passkey/options', {}).expect(401);
    });
  });

  describe('rename and remove', () => {
    let id: number;
    beforeEach(async () => {
      id = (await addPasskey(t, cookie, auth, 'Laptop').then((r) => expectStatus(r, 201))).body.id;
    });

    it('renames a passkey (no step-up needed) and answers the passkey', async () => {
      t.clock.advance(12 * HOUR + 1);
      const res = await send(t, 'patch', `/me/passkeys/${id}`, { label: '  Work laptop ' }, cookie).expect(200);
      expect(res.body).toMatchObject({ id, label: 'Work laptop' });
      expect((await t.http.get(`${API}/me/passkeys`).set('Cookie', cookie)).body.items[0].label).toBe('Work laptop');
    });

    it.each<[string, unknown]>([
      ['an empty label', ''],
      ['a blank label', '   '],
      ['a label of 101 characters', 'x'.repeat(101)],
      ['a label with a line break', 'a\nb'],
      ['a label that is a number', 5],
    ])('refuses %s with 422 on label', async (_label, label) => {
      const res = await send(t, 'patch', `/me/passkeys/${id}`, { label }, cookie).expect(422);
      expect(res.body.error.field).toBe('label');
      expect((await t.http.get(`${API}/me/passkeys`).set('Cookie', cookie)).body.items[0].label).toBe('Laptop');
    });

    it.each(['999', 'abc', '0'])('answers 404 for passkey %s', async (which) => {
      await send(t, 'patch', `/me/passkeys/${which}`, { label: 'x' }, cookie).expect(404);
      await send(t, 'delete', `/me/passkeys/${which}`, undefined, cookie).expect(404);
    });

    it('removes a passkey, even the last one (password and authenticator remain): it signs in no more', async () => {
      const res = await send(t, 'delete', `/me/passkeys/${id}`, undefined, cookie).expect(200);
      expect(res.body).toEqual({ ok: true });
      expect((await t.http.get(`${API}/me/passkeys`).set('Cookie', cookie)).body.items).toEqual([]);
      expect((await t.http.get(`${API}/auth/state`)).body.methods).toEqual({ passkey: false, password: true });
      const { res: signIn } = await passkeySignIn(t, auth);
      expect(signIn.status).toBe(401);
      const lines = await t.http.get(`${API}/events?kind=passkey_removed`).set('Cookie', cookie).expect(200);
      expect(lines.body.items[0]).toMatchObject({ actor: 'owner', text: 'passkey "Laptop" removed' });
    });
  });

  describe('API keys', () => {
    it.each<[string, 'get' | 'post' | 'patch' | 'delete', string, object | undefined]>([
      ['list', 'get', '/me/passkeys', undefined],
      ['options', 'post', '/me/passkeys/options', {}],
      ['verify', 'post', '/me/passkeys/verify', { challenge_id: 'x', credential: {} }],
      ['rename', 'patch', '/me/passkeys/1', { label: 'x' }],
      ['remove', 'delete', '/me/passkeys/1', undefined],
      ['step-up options', 'post', '/auth/step-up/passkey/options', {}],
      ['step-up verify', 'post', '/auth/step-up/passkey/verify', { challenge_id: 'x', credential: {} }],
    ])('can never reach %s, not even with admin scope (403)', async (_label, method, path, body) => {
      await addPasskey(t, cookie, auth).then((r) => expectStatus(r, 201));
      const key = await createKey(t, cookie, 'admin');
      const req = t.http[method](`${API}${path}`).set(bearer(key));
      const res = await (body ? req.send(body) : req).expect(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(await t.db.query('SELECT COUNT(*) AS n FROM passkeys')).toEqual([{ n: 1 }]);
    });

    it('needs a sign-in for /me/passkeys: 401 without cookie or key', async () => {
      await t.http.get(`${API}/me/passkeys`).expect(401);
    });
  });
});

describe('the bot challenge on passkey sign-in', () => {
  it('requires a token the verifier accepts before giving sign-in options', async () => {
    const http = await import('node:http');
    const verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: new URLSearchParams(body).get('response') === 'good-token' }));
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
      const missing = await send(t, 'post', '/auth/passkey/options', {}).expect(403);
      expect(missing.body.error).toMatchObject({ code: 'forbidden', field: 'challenge' });
      await send(t, 'post', '/auth/passkey/options', { challenge: 'bad-token' }).expect(403);
      const ok = await send(t, 'post', '/auth/passkey/options', { challenge: 'good-token' }).expect(200);
      expect(ok.body.challenge_id).toEqual(expect.any(String));
    } finally {
      await t.close();
      verifier.close();
    }
  });
});
