/**
 * Helpers for the sign-in and owner-route tests: the owner made through the real setup flow,
 * authenticator codes from otplib at the fake clock's time, and client addresses chosen per
 * request through X-Forwarded-For (the app is started with FARSIGHT_TRUST_PROXY=loopback, as a
 * reverse proxy on the same machine would be trusted).
 */
import { totpAt } from '../../src/auth/password/totp';
import { OWNER, ORIGIN, TestApp } from '../support/app';

export const API = '/api/v1';
export const TRUST_LOOPBACK = { FARSIGHT_TRUST_PROXY: 'loopback' };

export interface Owner {
  cookie: string;
  codes: string[];
  secret: string;
}

/**
 * The authenticator code of the next 30-second step: the clock moves on first, because the code
 * of a step already used (the setup's, or a sign-in's a moment ago) is refused as a replay.
 */
export function nextCode(t: TestApp, secret: string): string {
  t.clock.advance(30_000);
  return totpAt(secret, t.clock.now());
}

/** Headers of a JSON request from a browser on the dashboard's origin, from `ip` when given. */
export function from(ip?: string): Record<string, string> {
  const h: Record<string, string> = { Origin: ORIGIN, 'Content-Type': 'application/json' };
  if (ip) h['X-Forwarded-For'] = ip;
  return h;
}

/** Headers of a session's JSON request. */
export function withSession(cookie: string, ip?: string): Record<string, string> {
  return { ...from(ip), Cookie: cookie };
}

export function cookieOf(res: { headers: Record<string, unknown> }): string {
  const set = res.headers['set-cookie'] as string[] | undefined;
  if (!set?.length) throw new Error('no Set-Cookie in the answer');
  return set[0].split(';')[0];
}

/** POST /auth/password with the owner's credentials (or the given ones); returns the answer. */
export function passwordStep(t: TestApp, body: Record<string, unknown> = {}, ip?: string) {
  return t.http
    .post(`${API}/auth/password`)
    .set(from(ip))
    .send({ email: OWNER.email, password: OWNER.password, ...body });
}

/** The whole password sign-in: password, then a fresh authenticator code. Returns the new session cookie. */
export async function signInWithPassword(t: TestApp, owner: Owner, ip?: string): Promise<string> {
  const ticket = (await passwordStep(t, {}, ip).expect(200)).body.ticket as string;
  const res = await t.http
    .post(`${API}/auth/code`)
    .set(from(ip))
    .send({ ticket, code: nextCode(t, owner.secret) })
    .expect(200);
  return cookieOf(res);
}

/** Table rows, for asserting what changed and what did not. */
export async function rows<T = Record<string, unknown>>(t: TestApp, sql: string, params: unknown[] = []): Promise<T[]> {
  return t.db.query<T[]>(sql, params);
}

/** The state a refused request must leave untouched. */
export async function securityState(t: TestApp): Promise<unknown> {
  return {
    owner: await rows(t, 'SELECT email, password_hash, totp_secret, totp_last_step, updated_at FROM owner'),
    codes: await rows(t, 'SELECT id, code_hash, used_at FROM recovery_codes ORDER BY id'),
    sessions: await rows(t, 'SELECT id, fresh_until FROM sessions ORDER BY id'),
    tickets: await rows(t, 'SELECT id, used_at FROM sign_in_tickets ORDER BY id'),
    links: await rows(t, "SELECT id, used_at FROM link_tokens WHERE purpose = 'reset' ORDER BY id"),
    setups: await rows(t, 'SELECT id FROM totp_setups ORDER BY id'),
  };
}
