/** Helpers of the passkey tests: the ceremonies as a browser page runs them, against the real app. */
import type { Response } from 'supertest';
import { ORIGIN, TestApp } from '../support/app';
import { AssertionCredential, AttestationCredential, Ceremony, SoftAuthenticator } from './passkeys-authenticator';

export const API = '/api/v1';

/** A JSON POST (PATCH, DELETE) as the dashboard sends it: Origin, and the cookie when given. */
export function send(t: TestApp, method: 'post' | 'patch' | 'delete', path: string, body?: unknown, cookie?: string) {
  let req = t.http[method](`${API}${path}`).set('Origin', ORIGIN);
  if (cookie) req = req.set('Cookie', cookie);
  return body === undefined ? req.set('Content-Type', 'application/json') : req.send(body as object);
}

export function cookieOf(res: Response): string {
  const set = res.headers['set-cookie'] as unknown as string[] | undefined;
  if (!set?.length) throw new Error(`no cookie in the answer (status ${res.status}: ${JSON.stringify(res.body)})`);
  return set[0].split(';')[0];
}

/** Fails with the answer's body when its status is not the expected one; returns the answer. */
export function expectStatus(res: Response, status: number): Response {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res;
}

/** Adds a passkey to the signed-in owner through /me/passkeys (options, create, verify); returns the verify answer. */
export async function addPasskey(
  t: TestApp,
  cookie: string,
  auth: SoftAuthenticator,
  label?: string,
  c: Ceremony = {},
): Promise<Response> {
  const opts = expectStatus(await send(t, 'post', '/me/passkeys/options', {}, cookie), 200);
  const credential = auth.create(opts.body.public_key, c);
  return send(
    t,
    'post',
    '/me/passkeys/verify',
    { challenge_id: opts.body.challenge_id, credential, ...(label ? { label } : {}) },
    cookie,
  );
}

export interface SignInAttempt {
  options: { challenge_id: string; public_key: { challenge: string; rpId: string } };
  credential: AssertionCredential;
  res: Response;
}

/** Passkey sign-in: options, the authenticator signs, verify. */
export async function passkeySignIn(t: TestApp, auth: SoftAuthenticator, c: Ceremony = {}): Promise<SignInAttempt> {
  const options = (await send(t, 'post', '/auth/passkey/options', {}).expect(200)).body;
  const credential = auth.get(options.public_key, c);
  const res = await send(t, 'post', '/auth/passkey/verify', { challenge_id: options.challenge_id, credential });
  return { options, credential, res };
}

export type { AttestationCredential };
