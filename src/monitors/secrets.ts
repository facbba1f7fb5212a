/**
 * Secret handling of http monitors (spec, "Secret handling rules"):
 * 1. secret values are answered as ********;
 * 2. ******** sent back keeps the stored value only while the URL keeps its scheme, host and port
 *    and resolve_to is unchanged, so a write key cannot redirect stored credentials elsewhere;
 * 3. header names that look like credentials are always secret.
 * Pure. The keep-rule itself is the generic one in common/secrets/secret-fields.ts; this file declares
 * which http fields are secret and what "the same target" means for them.
 */
import type { FieldError } from '../common/http/api-error';
import { KeepRule, keepSecrets, maskSecrets } from '../common/secrets/secret-fields';
import { HTTP_SECRETS } from '../probes/kind-secrets';
import type { HttpHeader, HttpSettings } from '../probes/kinds';

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

const SAME_TARGET: KeepRule<HttpSettings> = {
  sameDestination(next, prev) {
    const target = credentialTarget(next);
    return target !== null && target === credentialTarget(prev);
  },
  changedMessage: 'the target (scheme, host, port or resolve_to) changed: send the secret again',
};

/**
 * Replaces ******** in `next` with the stored values of `prev` where the keep-rule allows it;
 * returns a field error for each ******** that cannot be kept. Mutates `next`.
 */
export function keepMaskedSecrets(next: HttpSettings, prev: HttpSettings | null, path = 'http'): FieldError[] {
  return keepSecrets(next, prev, HTTP_SECRETS, SAME_TARGET, path);
}

/** A copy safe to answer with: secret values replaced by ********. Takes partial settings too. */
export function maskHttpSettings<T extends Partial<HttpSettings>>(s: T): T {
  return maskSecrets(s, HTTP_SECRETS);
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
