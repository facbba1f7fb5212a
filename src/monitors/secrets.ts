/**
 * Secret handling of http monitors (spec, "Secret handling rules"):
 * 1. secret values are answered as ********;
 * 2. ******** sent back keeps the stored value only while the URL keeps its scheme, host and port
 *    and resolve_to is unchanged, so a write key cannot redirect stored credentials elsewhere;
 * 3. header names that look like credentials are always secret.
 * Pure functions; the keep-rule lives here and nowhere else.
 */
import type { FieldError } from '../common/api-error';
import { isMask, MASK } from '../common/secrets';
import type { HttpHeader, HttpSettings } from './monitor-types';

const CREDENTIAL_NAME = /authorization|cookie|token|key|secret|password/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/** Marks credential-looking headers secret whatever the caller said. */
export function forceSecretHeaders(headers: HttpHeader[]): HttpHeader[] {
  return headers.map((h) => ({ ...h, secret: h.secret || isCredentialHeader(h.name) }));
}

/** The parts of an http target that stored credentials are bound to. */
function credentialTarget(s: Pick<HttpSettings, 'url' | 'resolve_to'>): string | null {
  try {
    const u = new URL(s.url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.protocol}//${u.hostname}:${port}|${s.resolve_to ?? ''}`;
  } catch {
    return null;
  }
}

/**
 * Replaces ******** in `next` with the stored values of `prev` where the keep-rule allows it;
 * returns a field error for each ******** that cannot be kept. Mutates `next`.
 */
export function keepMaskedSecrets(next: HttpSettings, prev: HttpSettings | null, path = 'http'): FieldError[] {
  const errors: FieldError[] = [];
  const target = credentialTarget(next);
  const sameTarget = prev !== null && target !== null && target === credentialTarget(prev);
  const refuse = (field: string) =>
    errors.push({
      field,
      message: prev
        ? sameTarget
          ? 'there is no stored value to keep; send the secret itself'
          : 'the target (scheme, host, port or resolve_to) changed: send the secret again'
        : 'there is no stored value to keep; send the secret itself',
    });

  const auth = next.auth;
  if (auth?.type === 'basic' && isMask(auth.password)) {
    const old = prev?.auth?.type === 'basic' ? prev.auth.password : null;
    if (sameTarget && old !== null) auth.password = old;
    else refuse(`${path}.auth.password`);
  }
  if (auth?.type === 'bearer' && isMask(auth.token)) {
    const old = prev?.auth?.type === 'bearer' ? prev.auth.token : null;
    if (sameTarget && old !== null) auth.token = old;
    else refuse(`${path}.auth.token`);
  }
  // Stored headers are matched by name and, for repeated names, by their order among that name.
  const seen = new Map<string, number>();
  next.headers.forEach((h, i) => {
    const name = h.name.toLowerCase();
    const nth = seen.get(name) ?? 0;
    seen.set(name, nth + 1);
    if (!h.secret || !isMask(h.value)) return;
    const old = prev?.headers.filter((p) => p.secret && p.name.toLowerCase() === name)[nth];
    if (sameTarget && old) h.value = old.value;
    else refuse(`${path}.headers[${i}].value`);
  });
  return errors;
}

/** A copy safe to answer with: secret values replaced by ********. */
export function maskHttpSettings(s: HttpSettings): HttpSettings {
  return {
    ...maskSecretValues(s),
    json: s.json.map((r) => ({ ...r })),
    expect_header: s.expect_header ? { ...s.expect_header } : null,
  };
}

/** Masks the secret values of http settings that may be partial (auth and headers, where present). */
export function maskSecretValues<T extends Partial<Pick<HttpSettings, 'auth' | 'headers'>>>(s: T): T {
  const out: T = { ...s };
  if (Array.isArray(s.headers)) out.headers = s.headers.map((h) => (h.secret ? { ...h, value: MASK } : { ...h }));
  if (s.auth) {
    out.auth = s.auth.type === 'basic' ? { type: 'basic', username: s.auth.username, password: MASK } : { type: 'bearer', token: MASK };
  }
  return out;
}

/**
 * A copy of http settings with every secret value (basic auth password, bearer token, values of
 * secret headers) passed through fn: sealing before storage, opening after reading. The one
 * place that says which stored values are secret.
 */
export function mapSecretValues(s: HttpSettings, fn: (value: string) => string): HttpSettings {
  const out: HttpSettings = { ...s };
  if (Array.isArray(s.headers)) out.headers = s.headers.map((h) => (h.secret ? { ...h, value: fn(h.value) } : h));
  if (s.auth?.type === 'basic') out.auth = { ...s.auth, password: fn(s.auth.password) };
  else if (s.auth?.type === 'bearer') out.auth = { ...s.auth, token: fn(s.auth.token) };
  return out;
}

/**
 * Moves `user:pass@` out of an http URL into basic auth (spec: credentials in the URL are moved
 * into `auth`). Returns the cleaned URL and the credentials, or null when there were none.
 */
export function extractUrlCredentials(url: string): { url: string; username: string; password: string } | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!u.username && !u.password) return null;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const username = decode(u.username);
  const password = decode(u.password);
  u.username = '';
  u.password = '';
  return { url: u.toString(), username, password };
}
