/**
 * Password reset and the owner's sign-in mail, through a real SMTP server on loopback
 * (harness/servers/smtp-farm.ts): a reset mails a link to `<public_url>/reset/<token>` that works
 * once with a new password and a code, signs in and signs out every other session; a password
 * sign-in mails the owner. /auth/forgot answers the same for every email.
 */
import { ResetService } from '../../src/auth/password/reset.service';
import { SignInService } from '../../src/auth/sign-in/sign-in.service';
import { totpAt } from '../../src/auth/password/totp';
import { PUBLIC_URL, OWNER, TestApp, createOwner, startApp } from '../support/app';
import { SmtpServer, decodeSubject, headersOf, partOf, startSmtp } from '../../harness/servers/smtp-farm';
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
} from './support';

const NEW_PASSWORD = 'an entirely new passphrase';
const WRONG_RESET = {
  error: {
    code: 'sign_in',
    message: 'the reset link, code or recovery code is not right (a link works once, for 1 hour; ask for a new one)',
  },
};

describe('password reset and sign-in mail', () => {
  let smtp: SmtpServer;
  let t: TestApp;
  let owner: Owner;

  beforeEach(async () => {
    smtp = await startSmtp();
    t = await startApp({ ...TRUST_LOOPBACK, FARSIGHT_SMTP: smtp.url });
    owner = await createOwner(t);
    await settled();
    smtp.mails.length = 0;
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  async function settled(): Promise<void> {
    await t.app.get(ResetService).settled();
    await t.app.get(SignInService).settled();
  }
  const forgot = async (email: string, ip?: string) => {
    const res = await t.http.post(`${API}/auth/forgot`).set(from(ip)).send({ email }).expect(200);
    expect(res.body).toEqual({ ok: true });
    await settled();
  };
  const text = (i: number) => partOf(smtp.mails[i].raw, 'text/plain') ?? '';
  const subject = (i: number) => decodeSubject(headersOf(smtp.mails[i].raw).get('subject') ?? '');
  /** The reset link in mail i: the page on the public URL, and its token. */
  const linkIn = (i: number) => {
    const m = /(http:\/\/farsight\.test\/reset\/([A-Za-z0-9_-]{43}))/.exec(text(i));
    if (!m) throw new Error(`no reset link in: ${text(i)}`);
    return { url: m[1], token: m[2] };
  };
  const reset = (body: Record<string, unknown>, ip?: string) =>
    t.http.post(`${API}/auth/reset`).set(from(ip)).send(body);
  const live = async (cookie: string) =>
    (await t.http.get(`${API}/auth/state`).set('Cookie', cookie)).body.signed_in as boolean;

  it('mails the owner a reset link that signs in with a new password and a code, and signs out every other session', async () => {
    const other = await signInWithPassword(t, owner);
    await settled();
    smtp.mails.length = 0;
    await forgot(OWNER.email.toUpperCase(), '198.51.100.44');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual([OWNER.email]);
    expect(subject(0)).toBe('Reset your Farsight password');
    const link = linkIn(0);
    expect(link.url.startsWith(`${PUBLIC_URL}/reset/`)).toBe(true);
    expect(text(0)).toContain('198.51.100.44');
    const [stored] = await rows<{ token_hash: string; expires_at: number }>(
      t,
      "SELECT token_hash, expires_at FROM link_tokens WHERE purpose = 'reset'",
    );
    expect(stored.token_hash).not.toContain(link.token);
    expect(stored.expires_at).toBe(t.clock.now() + 3600_000);

    const res = await reset({ token: link.token, password: NEW_PASSWORD, code: nextCode(t, owner.secret) }).expect(200);
    expect(res.body).toEqual({ ok: true });
    const cookie = cookieOf(res);
    expect([await live(cookie), await live(owner.cookie), await live(other)]).toEqual([true, false, false]);
    const [session] = await rows(t, 'SELECT method FROM sessions');
    expect(session).toEqual({ method: 'reset' });
    await passwordStep(t).expect(401);
    await passwordStep(t, { password: NEW_PASSWORD }).expect(200);
    const [line] = await rows(t, "SELECT text, data FROM events WHERE kind = 'password_changed'");
    expect(line).toEqual({
      text: 'password reset with a reset link; 2 sessions signed out',
      data: JSON.stringify({ signed_out: 2, reset: true }),
    });
    // The link works once.
    expect(
      (
        await reset({ token: link.token, password: 'yet another passphrase', code: nextCode(t, owner.secret) }).expect(
          401,
        )
      ).body,
    ).toEqual(WRONG_RESET);
    // And the sign-in was mailed too.
    await settled();
    expect(subject(smtp.mails.length - 1)).toBe('New sign-in to Farsight: password reset, an unknown browser');
  });

  it('resets with a recovery code, which is then spent', async () => {
    await forgot(OWNER.email);
    await reset({ token: linkIn(0).token, password: NEW_PASSWORD, recovery_code: owner.codes[0] }).expect(200);
    const [{ used }] = await rows<{ used: number }>(
      t,
      'SELECT COUNT(*) AS used FROM recovery_codes WHERE used_at IS NOT NULL',
    );
    expect(used).toBe(1);
  });

  it('answers an unknown email the same, and mails nothing', async () => {
    await forgot('stranger@example.org');
    expect(smtp.mails).toEqual([]);
    expect(await rows(t, "SELECT id FROM link_tokens WHERE purpose = 'reset'")).toEqual([]);
  });

  it('mails at most 3 reset links an hour, silently', async () => {
    for (let i = 0; i < 5; i++) await forgot(OWNER.email);
    expect(smtp.mails).toHaveLength(3);
    t.clock.advance(3600_000);
    await forgot(OWNER.email);
    expect(smtp.mails).toHaveLength(4);
    // Every link mailed still works until one is used; then the others stop.
    const tokens = [0, 1, 2, 3].map((i) => linkIn(i).token);
    await reset({ token: tokens[3], password: NEW_PASSWORD, code: nextCode(t, owner.secret) }).expect(200);
    await reset({ token: tokens[2], password: 'yet another passphrase', code: nextCode(t, owner.secret) }).expect(401);
  });

  it('expires a reset link after an hour', async () => {
    await forgot(OWNER.email);
    t.clock.advance(3600_000);
    expect(
      (
        await reset({
          token: linkIn(0).token,
          password: NEW_PASSWORD,
          code: totpAt(owner.secret, t.clock.now()),
        }).expect(401)
      ).body,
    ).toEqual(WRONG_RESET);
  });

  it('refuses a wrong code, an unknown token and a replayed code with the same 401, and changes nothing', async () => {
    await forgot(OWNER.email);
    const { token } = linkIn(0);
    const right = nextCode(t, owner.secret);
    const before = await securityState(t);
    for (const body of [
      { token, password: NEW_PASSWORD, code: right === '000000' ? '111111' : '000000' },
      { token, password: NEW_PASSWORD, recovery_code: 'aaaaa-bbbbb' },
      { token: 'x'.repeat(43), password: NEW_PASSWORD, code: right },
      // The setup's code: inside the skew window, but already used.
      { token, password: NEW_PASSWORD, code: totpAt(owner.secret, t.clock.now() - 30_000) },
    ]) {
      expect((await reset(body).expect(401)).body).toEqual(WRONG_RESET);
    }
    expect(await securityState(t)).toEqual(before);
    await reset({ token, password: NEW_PASSWORD, code: right }).expect(200);
  });

  it('judges the password against the email only once the link and code are right', async () => {
    await forgot(OWNER.email);
    const { token } = linkIn(0);
    // A stranger with a made-up token learns nothing about the email from the password rule.
    const code = nextCode(t, owner.secret);
    expect((await reset({ token: 'x'.repeat(43), password: OWNER.email, code }).expect(401)).body).toEqual(WRONG_RESET);
    const before = await securityState(t);
    const res = await reset({ token, password: OWNER.email, code }).expect(422);
    expect(res.body.error).toMatchObject({
      code: 'invalid',
      field: 'password',
      message: 'password: must not be your email address',
    });
    // Nothing was spent: the same link and code work with a better password.
    expect(await securityState(t)).toEqual(before);
    await reset({ token, password: NEW_PASSWORD, code }).expect(200);
  });

  it.each([
    ['a short password', { password: 'short' }, 'password'],
    ['a password of 1001 characters', { password: 'x'.repeat(1001) }, 'password'],
    ['no token', { token: undefined }, 'token'],
    ['a token that is a number', { token: 5 }, 'token'],
    ['a token of 101 characters', { token: 'k'.repeat(101) }, 'token'],
    ['neither code nor recovery code', { code: undefined }, 'code'],
    ['both code and recovery code', { recovery_code: 'aaaaa-bbbbb' }, 'recovery_code'],
    ['a code with letters', { code: 'abcdef' }, 'code'],
    ['an unknown field', { email: OWNER.email }, 'email'],
  ])('refuses a reset with %s: 422 on the field, nothing changed, the link still works', async (_, patch, field) => {
    await forgot(OWNER.email);
    const { token } = linkIn(0);
    const body: Record<string, unknown> = { token, password: NEW_PASSWORD, code: nextCode(t, owner.secret), ...patch };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const before = await securityState(t);
    const res = await reset(body).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    expect(await securityState(t)).toEqual(before);
    await reset({ token, password: NEW_PASSWORD, code: nextCode(t, owner.secret) }).expect(200);
  });

  it.each([
    ['no email', {}, 'email'],
    ['an email that is a number', { email: 7 }, 'email'],
    ['an email that is not one', { email: 'owner' }, 'email'],
    ['an email of 255 characters', { email: `${'a'.repeat(243)}@example.com` }, 'email'],
    ['an unknown field', { email: OWNER.email, name: 'x' }, 'name'],
  ])('refuses a forgot request with %s: 422 on the field, nothing mailed', async (_, body, field) => {
    const res = await t.http.post(`${API}/auth/forgot`).set(from()).send(body).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    await settled();
    expect(smtp.mails).toEqual([]);
  });

  it('mails the owner about a password sign-in: method, device, address and time', async () => {
    const ticket = (await passwordStep(t, {}, '203.0.113.61').expect(200)).body.ticket;
    await t.http
      .post(`${API}/auth/code`)
      .set({
        ...from('203.0.113.61'),
        'User-Agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      })
      .send({ ticket, code: nextCode(t, owner.secret) })
      .expect(200);
    await settled();
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual([OWNER.email]);
    expect(subject(0)).toBe('New sign-in to Farsight: password and authenticator code, Chrome on Windows');
    const body = text(0);
    for (const fact of [
      'password and authenticator code',
      'Chrome on Windows',
      '203.0.113.61',
      new Date(t.clock.now()).toISOString().slice(0, 16).replace('T', ' '),
    ]) {
      expect(body).toContain(fact);
    }
    const [row] = await rows(t, "SELECT channel_name, ok FROM deliveries WHERE channel_name = 'sign-in notice'");
    expect(row).toEqual({ channel_name: 'sign-in notice', ok: 1 });
  });

  it('mails a sign-in with a recovery code, and mails nothing for a refused one', async () => {
    const ticket = (await passwordStep(t).expect(200)).body.ticket;
    await t.http.post(`${API}/auth/code`).set(from()).send({ ticket, recovery_code: 'aaaaa-bbbbb' }).expect(401);
    await settled();
    expect(smtp.mails).toEqual([]);
    await t.http.post(`${API}/auth/code`).set(from()).send({ ticket, recovery_code: owner.codes[0] }).expect(200);
    await settled();
    expect(subject(0)).toBe('New sign-in to Farsight: password and a recovery code, an unknown browser');
  });
});
