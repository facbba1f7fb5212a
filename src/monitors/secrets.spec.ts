import { mapSecrets } from '../common/secrets/secret-fields';
import { HTTP_SECRETS } from '../probes/kind-secrets';
import { MASK } from '../common/secrets/secrets';
import type { HttpAuth, HttpHeader, HttpSettings } from '../probes/kinds';
import { makeHttp as makeHttpSettings } from '../../test/checkers/factories';
import {
  extractUrlCredentials,
  forceSecretHeaders,
  isCredentialHeader,
  keepMaskedSecrets,
  maskHttpSettings,
} from './secrets';

const URL_BEFORE = 'https://api.example.com/v1/health';

function makeHttp(overrides: Partial<HttpSettings> = {}): HttpSettings {
  return makeHttpSettings(URL_BEFORE, overrides);
}

const header = (name: string, value: string, secret = false): HttpHeader => ({ name, value, secret });

describe('isCredentialHeader', () => {
  it.each<[string, boolean]>([
    ['Authorization', true],
    ['authorization', true],
    ['Proxy-Authorization', true],
    ['Cookie', true],
    ['cookie', true],
    ['X-Api-Key', true],
    ['X-Auth-Token', true],
    ['My-Secret', true],
    ['X-Password', true],
    ['X-API-KEY', true],
    ['Accept', false],
    ['Content-Type', false],
    ['X-Request-Id', false],
    ['User-Agent', false],
    ['Keep-Alive', false],
  ])('%s is a credential header: %s', (name, secret) => {
    expect(isCredentialHeader(name)).toBe(secret);
  });
});

describe('forceSecretHeaders', () => {
  it.each<[string, HttpHeader, boolean]>([
    ['marks a credential header secret although the caller said no', header('Authorization', 'Bearer x', false), true],
    ['keeps a credential header secret', header('X-Api-Key', 'k', true), true],
    ['keeps an ordinary header the caller marked secret', header('X-Tenant', 't', true), true],
    ['leaves an ordinary header not secret', header('Accept', 'application/json', false), false],
  ])('%s', (_what, h, secret) => {
    expect(forceSecretHeaders([h])).toEqual([{ ...h, secret }]);
  });

  it('keeps order, names and values and does not change its input', () => {
    const input = [header('Accept', 'text/plain'), header('Cookie', 'a=b')];
    const copy = structuredClone(input);
    expect(forceSecretHeaders(input)).toEqual([header('Accept', 'text/plain', false), header('Cookie', 'a=b', true)]);
    expect(input).toEqual(copy);
  });
});

describe('maskHttpSettings', () => {
  const realSecrets = ['s3cret-pass', 'tok-123', 'key-456'];

  it.each<[string, HttpAuth | null, HttpAuth | null]>([
    [
      'masks the basic password and keeps the username',
      { type: 'basic', username: 'ops', password: 's3cret-pass' },
      { type: 'basic', username: 'ops', password: MASK },
    ],
    ['masks the bearer token', { type: 'bearer', token: 'tok-123' }, { type: 'bearer', token: MASK }],
    ['leaves no auth as null', null, null],
  ])('%s', (_what, auth, masked) => {
    expect(maskHttpSettings(makeHttp({ auth })).auth).toEqual(masked);
  });

  it('masks the values of secret headers and only those', () => {
    const s = makeHttp({ headers: [header('Accept', 'application/json'), header('X-Api-Key', 'key-456', true)] });
    expect(maskHttpSettings(s).headers).toEqual([
      header('Accept', 'application/json'),
      header('X-Api-Key', MASK, true),
    ]);
  });

  it.each<[string, HttpAuth]>([
    ['basic auth', { type: 'basic', username: 'ops', password: 's3cret-pass' }],
    ['bearer auth', { type: 'bearer', token: 'tok-123' }],
  ])('never returns a real secret with %s and a secret header', (_what, auth) => {
    const s = makeHttp({ auth, headers: [header('Cookie', 'key-456', true)] });
    const answer = JSON.stringify(maskHttpSettings(s));
    for (const secret of realSecrets) expect(answer).not.toContain(secret);
  });

  it('keeps every field that is not secret', () => {
    const s = makeHttp({
      method: 'POST',
      body: '{"ping":true}',
      content_type: 'application/json',
      json: [{ path: '$.status', op: '==', value: 'ok' }],
      expect_header: { name: 'X-Version', contains: '2' },
      max_ms: 2000,
    });
    expect(maskHttpSettings(s)).toEqual(s);
  });

  it('does not change its input, nested objects included', () => {
    const s = makeHttp({
      auth: { type: 'basic', username: 'ops', password: 's3cret-pass' },
      headers: [header('X-Api-Key', 'key-456', true)],
      json: [{ path: '$.ok', op: 'exists' }],
      expect_header: { name: 'Server', contains: 'nginx' },
    });
    const before = structuredClone(s);
    const masked = maskHttpSettings(s);
    masked.headers[0].name = 'changed';
    masked.json[0].path = '$.changed';
    masked.expect_header!.name = 'changed';
    expect(s).toEqual(before);
  });
});

describe('extractUrlCredentials', () => {
  it.each<[string, string, { url: string; username: string; password: string }]>([
    [
      'user and password',
      'https://ops:s3cret@nas.local/health',
      { url: 'https://nas.local/health', username: 'ops', password: 's3cret' },
    ],
    [
      'percent-encoded characters, decoded',
      'https://us%40er:p%40ss%3Aword@host.example/',
      { url: 'https://host.example/', username: 'us@er', password: 'p@ss:word' },
    ],
    [
      'non-ascii characters, decoded',
      'https://ü:ö@host.example/',
      { url: 'https://host.example/', username: 'ü', password: 'ö' },
    ],
    ['a user only', 'https://ops@host.example/x', { url: 'https://host.example/x', username: 'ops', password: '' }],
    ['a password only', 'https://:pw@host.example/', { url: 'https://host.example/', username: '', password: 'pw' }],
    [
      'port, path, query and fragment kept',
      'http://a:b@host.example:8080/p?q=1#f',
      { url: 'http://host.example:8080/p?q=1#f', username: 'a', password: 'b' },
    ],
    [
      'broken percent-encoding kept as written',
      'https://a%zz:b@host.example/',
      { url: 'https://host.example/', username: 'a%zz', password: 'b' },
    ],
  ])('moves %s out of the URL', (_what, url, expected) => {
    expect(extractUrlCredentials(url)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['a URL without credentials', 'https://host.example/health'],
    ['an invalid URL', 'not a url'],
    ['an empty string', ''],
  ])('returns null for %s', (_what, url) => {
    expect(extractUrlCredentials(url)).toBeNull();
  });
});

describe('keepMaskedSecrets', () => {
  type SecretKind = 'password' | 'token' | 'header';
  const STORED = { password: 'stored-pass', token: 'stored-token', header: 'stored-key' };

  /** A stored monitor with one secret of the given kind, plus an ordinary header at index 0. */
  function stored(kind: SecretKind, overrides: Partial<HttpSettings> = {}): HttpSettings {
    return makeHttp({
      auth:
        kind === 'password'
          ? { type: 'basic', username: 'ops', password: STORED.password }
          : kind === 'token'
            ? { type: 'bearer', token: STORED.token }
            : null,
      headers: [
        header('Accept', 'application/json'),
        ...(kind === 'header' ? [header('X-Api-Key', STORED.header, true)] : []),
      ],
      ...overrides,
    });
  }

  /** The same monitor as a client sends it back: the secret replaced by ********. */
  function sentBack(kind: SecretKind, overrides: Partial<HttpSettings> = {}): HttpSettings {
    return makeHttp({
      auth:
        kind === 'password'
          ? { type: 'basic', username: 'ops', password: MASK }
          : kind === 'token'
            ? { type: 'bearer', token: MASK }
            : null,
      headers: [header('Accept', 'application/json'), ...(kind === 'header' ? [header('X-Api-Key', MASK, true)] : [])],
      ...overrides,
    });
  }

  function secretOf(kind: SecretKind, s: HttpSettings): string | undefined {
    if (kind === 'header') return s.headers[1]?.value;
    if (s.auth?.type === 'basic') return s.auth.password;
    return s.auth?.token;
  }

  const FIELD: Record<SecretKind, string> = {
    password: 'http.auth.password',
    token: 'http.auth.token',
    header: 'http.headers[1].value',
  };
  const KINDS: SecretKind[] = ['password', 'token', 'header'];
  const cross = <T extends unknown[]>(rows: T[]): [SecretKind, ...T][] =>
    KINDS.flatMap((k) => rows.map((r) => [k, ...r] as [SecretKind, ...T]));

  describe('keeps the stored value when the target is the same', () => {
    it.each(
      cross<[string, Partial<HttpSettings>, Partial<HttpSettings>]>([
        ['the same URL', {}, {}],
        ['another path', {}, { url: 'https://api.example.com/v2/status' }],
        ['another query', {}, { url: 'https://api.example.com/v1/health?verbose=1' }],
        ['an explicit default port :443', {}, { url: 'https://api.example.com:443/v1/health' }],
        ['the default port after an explicit :443', { url: 'https://api.example.com:443/v1/health' }, {}],
        ['the host in upper case', {}, { url: 'https://API.Example.COM/v1/health' }],
        ['the same resolve_to', { resolve_to: '203.0.113.5' }, { resolve_to: '203.0.113.5' }],
        [
          'an explicit default port :80 on http',
          { url: 'http://api.example.com/' },
          { url: 'http://api.example.com:80/x' },
        ],
      ]),
    )('%s kept with %s', (kind, _what, prevOverrides, nextOverrides) => {
      const next = sentBack(kind, nextOverrides);
      expect(keepMaskedSecrets(next, stored(kind, prevOverrides))).toEqual([]);
      expect(secretOf(kind, next)).toBe(STORED[kind]);
    });
  });

  describe('refuses ******** when the target changed', () => {
    it.each(
      cross<[string, Partial<HttpSettings>, Partial<HttpSettings>]>([
        ['another scheme', {}, { url: 'http://api.example.com/v1/health' }],
        ['another scheme on the same port number', {}, { url: 'http://api.example.com:443/v1/health' }],
        ['another host', {}, { url: 'https://evil.example.net/v1/health' }],
        ['a host that only starts the same', {}, { url: 'https://api.example.com.evil.net/v1/health' }],
        ['another port', {}, { url: 'https://api.example.com:8443/v1/health' }],
        ['a resolve_to added', {}, { resolve_to: '203.0.113.5' }],
        ['a resolve_to removed', { resolve_to: '203.0.113.5' }, {}],
        ['another resolve_to', { resolve_to: '203.0.113.5' }, { resolve_to: '198.51.100.7' }],
        ['an unparsable URL', {}, { url: 'not a url' }],
      ]),
    )('%s refused with %s', (kind, _what, prevOverrides, nextOverrides) => {
      const next = sentBack(kind, nextOverrides);
      expect(keepMaskedSecrets(next, stored(kind, prevOverrides))).toEqual([
        { field: FIELD[kind], message: 'the target (scheme, host, port or resolve_to) changed: send the secret again' },
      ]);
      expect(secretOf(kind, next)).toBe(MASK);
    });
  });

  it.each(KINDS)('refuses a %s ******** when there is no previous monitor', (kind) => {
    const next = sentBack(kind);
    expect(keepMaskedSecrets(next, null)).toEqual([
      { field: FIELD[kind], message: 'there is no stored value to keep; send the secret itself' },
    ]);
    expect(secretOf(kind, next)).toBe(MASK);
  });

  it.each<[string, SecretKind, SecretKind]>([
    ['a basic password when the stored auth was bearer', 'password', 'token'],
    ['a bearer token when the stored auth was basic', 'token', 'password'],
    ['a basic password when nothing was stored', 'password', 'header'],
    ['a secret header that did not exist before', 'header', 'password'],
  ])('refuses %s', (_what, nextKind, prevKind) => {
    const next = sentBack(nextKind);
    expect(keepMaskedSecrets(next, stored(prevKind))).toEqual([
      { field: FIELD[nextKind], message: 'there is no stored value to keep; send the secret itself' },
    ]);
  });

  it('refuses a secret header whose stored namesake was not secret', () => {
    const next = makeHttp({ headers: [header('X-Tenant', MASK, true)] });
    const prev = makeHttp({ headers: [header('X-Tenant', 'visible', false)] });
    expect(keepMaskedSecrets(next, prev)).toEqual([
      { field: 'http.headers[0].value', message: 'there is no stored value to keep; send the secret itself' },
    ]);
  });

  it('matches a stored header by name regardless of case', () => {
    const next = makeHttp({ headers: [header('x-api-key', MASK, true)] });
    expect(keepMaskedSecrets(next, stored('header'))).toEqual([]);
    expect(next.headers[0].value).toBe(STORED.header);
  });

  it('reports every refused secret, each at its own path', () => {
    const next = makeHttp({
      url: 'https://elsewhere.example/',
      auth: { type: 'basic', username: 'ops', password: MASK },
      headers: [header('Cookie', MASK, true), header('Accept', 'text/plain'), header('X-Api-Key', MASK, true)],
    });
    const prev = makeHttp({
      auth: { type: 'basic', username: 'ops', password: 'p' },
      headers: [header('Cookie', 'c', true), header('X-Api-Key', 'k', true)],
    });
    expect(keepMaskedSecrets(next, prev).map((e) => e.field)).toEqual([
      'http.auth.password',
      'http.headers[0].value',
      'http.headers[2].value',
    ]);
  });

  it('uses the given path prefix in field errors', () => {
    expect(keepMaskedSecrets(sentBack('token'), null, 'items[3].http')).toEqual([
      { field: 'items[3].http.auth.token', message: 'there is no stored value to keep; send the secret itself' },
    ]);
  });

  describe('takes a real value as is', () => {
    it.each(
      cross<[string, boolean, Partial<HttpSettings>]>([
        ['with no previous monitor', false, {}],
        ['at the same target', true, {}],
        ['at another host', true, { url: 'https://evil.example.net/' }],
        ['with another resolve_to', true, { resolve_to: '203.0.113.5' }],
      ]),
    )('%s %s', (kind, _what, hasPrevious, nextOverrides) => {
      const prev = hasPrevious ? stored(kind) : null;
      const next = sentBack(kind, nextOverrides);
      if (kind === 'header') next.headers[1].value = 'new-value';
      else if (next.auth?.type === 'basic') next.auth.password = 'new-value';
      else if (next.auth?.type === 'bearer') next.auth.token = 'new-value';
      expect(keepMaskedSecrets(next, prev)).toEqual([]);
      expect(secretOf(kind, next)).toBe('new-value');
    });
  });

  it('leaves ******** in a header that is not secret alone', () => {
    const next = makeHttp({ url: 'https://elsewhere.example/', headers: [header('X-Stars', MASK, false)] });
    expect(keepMaskedSecrets(next, null)).toEqual([]);
    expect(next.headers[0].value).toBe(MASK);
  });
  it('keeps each stored value of two secret headers that share a name', () => {
    const prev = makeHttp({ headers: [header('Cookie', 'k1', true), header('Cookie', 'k2', true)] });
    const next = makeHttp({ headers: [header('Cookie', MASK, true), header('Cookie', MASK, true)] });
    expect(keepMaskedSecrets(next, prev)).toEqual([]);
    expect(next.headers.map((h) => h.value)).toEqual(['k1', 'k2']);
  });
});

describe('mapSecrets with the http schema (sealing at rest)', () => {
  const wrap = (v: string) => `<${v}>`;

  it.each<[string, Partial<HttpSettings>, Partial<HttpSettings>]>([
    [
      'the basic auth password, not the user name',
      { auth: { type: 'basic', username: 'u', password: 'p' } },
      { auth: { type: 'basic', username: 'u', password: '<p>' } },
    ],
    ['the bearer token', { auth: { type: 'bearer', token: 't' } }, { auth: { type: 'bearer', token: '<t>' } }],
    [
      'secret header values only, in order',
      { headers: [header('X-Api-Key', 'k1', true), header('Accept', 'text/plain'), header('X-Api-Key', 'k2', true)] },
      {
        headers: [header('X-Api-Key', '<k1>', true), header('Accept', 'text/plain'), header('X-Api-Key', '<k2>', true)],
      },
    ],
    [
      'nothing when there is no secret',
      { auth: null, headers: [header('Accept', '*/*')] },
      { auth: null, headers: [header('Accept', '*/*')] },
    ],
  ])('passes %s through the function', (_what, given, expected) => {
    const before = makeHttp(given);
    const snapshot = structuredClone(before);
    expect(mapSecrets(before, HTTP_SECRETS, wrap)).toEqual(makeHttp(expected));
    expect(before).toEqual(snapshot);
  });

  it('leaves the URL, the body and every other field as they are', () => {
    const s = makeHttp({ body: 'password=not-marked-secret', auth: { type: 'bearer', token: 't' } });
    const { auth: _a, ...rest } = mapSecrets(s, HTTP_SECRETS, wrap);
    const { auth: _b, ...restBefore } = s;
    expect(rest).toEqual(restBefore);
  });
});
