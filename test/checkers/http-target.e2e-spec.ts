/** http checks: where they connect (ip_version, resolve_to, private targets) and TLS. */
import { X509Certificate } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { CheckErrorCode } from '../../src/probes/check-result';
import { checkHttp } from '../../src/probes/checkers/http';
import { isPrivateAddress } from '../../src/probes/judge/private-address';
import type { HttpSettings } from '../../src/probes/kinds';
import { farmCerts, FarmCerts } from '../../harness/servers/certs';
import { HttpTarget, startHttpTarget } from '../../harness/servers/http-farm';
import { makeCtx, makeEnv, makeHttp } from './factories';

type Leaf = Exclude<keyof FarmCerts, 'ca'>;
const LEAVES: Leaf[] = ['valid', 'selfSigned', 'expired', 'notYetValid', 'wrongName'];

const targets = {} as Record<Leaf | 'plain' | 'v6', HttpTarget>;
const env = makeEnv(farmCerts().ca);
const ctx = makeCtx();
const noPrivate = makeCtx({ allow_private_targets: false });

beforeAll(async () => {
  const started = await Promise.all([
    ...LEAVES.map((leaf) => startHttpTarget({ tls: farmCerts()[leaf] })),
    startHttpTarget(),
    startHttpTarget({ host: '::1' }),
  ]);
  [...LEAVES, 'plain' as const, 'v6' as const].forEach((name, i) => (targets[name] = started[i]));
});
afterAll(async () => {
  await Promise.all(Object.values(targets).map((t) => t.close()));
});

const fingerprint = (leaf: Leaf) => new X509Certificate(farmCerts()[leaf].cert).fingerprint256;
const head = (leaf: Leaf) => fingerprint(leaf).split(':').slice(0, 8).join(':');
const https = (leaf: Leaf, path = '/ok', host = '127.0.0.1') => `https://${host}:${targets[leaf].port}${path}`;

describe('https certificates', () => {
  it('is up with a trusted certificate and reports it with the TLS phase', async () => {
    const result = await checkHttp(makeHttp(https('valid')), ctx, env);
    expect(result).toMatchObject({ outcome: 'up', cert: { issuer: 'Farsight Test CA', subject: 'localhost' } });
    expect(result.cert?.not_after).toBeGreaterThan(Date.now());
    expect(result.phases.tls_ms).not.toBeNull();
  });

  it.each<[Leaf, CheckErrorCode, string]>([
    ['selfSigned', 'cert_invalid', 'certificate is self-signed'],
    ['expired', 'cert_expired', 'certificate has expired'],
    ['notYetValid', 'cert_expired', 'certificate is not valid yet'],
    ['wrongName', 'cert_invalid', 'certificate does not match 127.0.0.1 (it is for wrong.example)'],
  ])('fails the %s certificate with %s, reporting the certificate', async (leaf, code, message) => {
    const result = await checkHttp(makeHttp(https(leaf)), ctx, env);
    expect(result.error?.code).toBe(code);
    expect(result.error?.message).toContain(message);
    expect(result.cert).not.toBeNull();
    expect(result.status).toBeNull();
  });

  it('fails with cert_invalid when the issuing CA is not trusted', async () => {
    const result = await checkHttp(makeHttp(https('valid')), ctx, makeEnv());
    expect(result.error).toEqual({ code: 'cert_invalid', message: 'certificate is not signed by a trusted authority' });
  });

  it('sends nothing to a server whose certificate fails verification', async () => {
    await checkHttp(makeHttp(https('selfSigned', '/never-sent')), ctx, env);
    expect(targets.selfSigned.hits('/never-sent')).toBe(0);
  });

  it.each(['selfSigned', 'expired', 'wrongName'] as const)(
    'accepts the %s certificate when tls_verify is off',
    async (leaf) => {
      const result = await checkHttp(makeHttp(https(leaf), { tls_verify: false }), ctx, makeEnv());
      expect(result).toMatchObject({ outcome: 'up', status: 200 });
      expect(result.cert).not.toBeNull();
    },
  );

  describe('a pinned certificate (cert_sha256)', () => {
    it.each(['selfSigned', 'wrongName', 'valid'] as const)(
      'accepts the pinned %s certificate, without trusting its issuer, tls_verify on',
      async (leaf) => {
        const result = await checkHttp(makeHttp(https(leaf), { cert_sha256: fingerprint(leaf) }), ctx, makeEnv());
        expect(result).toMatchObject({ outcome: 'up', status: 200, error: null });
        expect(result.cert).not.toBeNull();
      },
    );

    it('fails another certificate with cert_pin, naming both fingerprints, and sends nothing', async () => {
      const result = await checkHttp(
        makeHttp(https('valid', '/never-pinned'), { cert_sha256: fingerprint('selfSigned') }),
        ctx,
        env,
      );
      expect(result.error).toEqual({
        code: 'cert_pin',
        message: `certificate is not the pinned one: cert_sha256 expects ${head('selfSigned')}…, the server presented ${head('valid')}…`,
      });
      expect(result.cert).toMatchObject({ subject: 'localhost' });
      expect(targets.valid.hits('/never-pinned')).toBe(0);
    });

    it('holds also when tls_verify is off: the pin is the stronger choice', async () => {
      const result = await checkHttp(
        makeHttp(https('valid'), { tls_verify: false, cert_sha256: fingerprint('selfSigned') }),
        ctx,
        env,
      );
      expect(result.error?.code).toBe('cert_pin');
    });

    it("pins the monitored URL's origin only: a redirect to another origin is verified as tls_verify says", async () => {
      const to = encodeURIComponent(https('valid'));
      const result = await checkHttp(
        makeHttp(https('selfSigned', `/redirect-abs?to=${to}`), { cert_sha256: fingerprint('selfSigned') }),
        ctx,
        env,
      );
      expect(result).toMatchObject({ outcome: 'up', status: 200 });
      const refused = await checkHttp(
        makeHttp(https('selfSigned', `/redirect-abs?to=${to}`), { cert_sha256: fingerprint('selfSigned') }),
        ctx,
        makeEnv(),
      );
      expect(refused.error).toEqual({
        code: 'cert_invalid',
        message: 'certificate is not signed by a trusted authority',
      });
    });
  });

  it('reports the certificate when the check fails on status', async () => {
    const result = await checkHttp(makeHttp(https('valid', '/status/500')), ctx, env);
    expect(result).toMatchObject({ status: 500, error: { code: 'status' }, cert: { subject: 'localhost' } });
  });

  it('fails with tls when the server does not speak TLS', async () => {
    const result = await checkHttp(makeHttp(`https://127.0.0.1:${targets.plain.port}/ok`), ctx, env);
    expect(result.error?.code).toBe('tls');
  });
});

describe('where an http check connects', () => {
  it('resolves names and reports the dns phase', async () => {
    const result = await checkHttp(makeHttp(https('valid', '/ok', 'localhost')), ctx, env);
    expect(result.outcome).toBe('up');
    expect(result.phases.dns_ms).not.toBeNull();
  });

  it.each<[string, CheckErrorCode | null, string, HttpSettings['ip_version']]>([
    ['a name over IPv4', null, 'localhost', 'ipv4'],
    ['an IPv4 literal over IPv4', null, '127.0.0.1', 'ipv4'],
    ['an IPv4 literal over IPv6', 'dns', '127.0.0.1', 'ipv6'],
  ])('reaching %s ends with error %p', async (_name, code, host, ipVersion) => {
    const result = await checkHttp(
      makeHttp(`http://${host}:${targets.plain.port}/ok`, { ip_version: ipVersion }),
      ctx,
      env,
    );
    expect(result.error?.code ?? null).toBe(code);
  });

  it('reaches an IPv6 literal over IPv6 and fails it over IPv4', async () => {
    const url = `http://[::1]:${targets.v6.port}/ok`;
    expect((await checkHttp(makeHttp(url, { ip_version: 'ipv6' }), ctx, env)).outcome).toBe('up');
    const result = await checkHttp(makeHttp(url, { ip_version: 'ipv4' }), ctx, env);
    expect(result.error).toEqual({ code: 'dns', message: '::1 is not an IPv4 address (ip_version is ipv4)' });
  });

  it('connects to resolve_to but keeps the Host header of the URL', async () => {
    const host = `farsight.invalid:${targets.plain.port}`;
    const result = await checkHttp(
      makeHttp(`http://${host}/echo-headers`, {
        resolve_to: '127.0.0.1',
        json: [{ path: '$.host', op: '==', value: host }],
      }),
      ctx,
      env,
    );
    expect(result.error).toBeNull();
  });

  it('fails with refused when nothing listens at resolve_to', async () => {
    const result = await checkHttp(
      makeHttp(`http://farsight.invalid:${targets.plain.port}/ok`, { resolve_to: '127.0.0.2' }),
      ctx,
      env,
    );
    expect(result.error).toEqual({ code: 'refused', message: `connection refused by 127.0.0.2:${targets.plain.port}` });
  });

  it('checks the certificate against the URL host, not resolve_to', async () => {
    const good = await checkHttp(makeHttp(https('valid', '/ok', 'localhost'), { resolve_to: '127.0.0.1' }), ctx, env);
    expect(good.outcome).toBe('up');
    const bad = await checkHttp(
      makeHttp(https('valid', '/ok', 'wrong.example'), { resolve_to: '127.0.0.1' }),
      ctx,
      env,
    );
    expect(bad.error).toEqual({
      code: 'cert_invalid',
      message: 'certificate does not match wrong.example (it is for localhost)',
    });
  });

  it.each<[string, string, Partial<HttpSettings>]>([
    ['a literal private IP', 'http://127.0.0.1:PORT/private', {}],
    ['a name that resolves to a private IP', 'http://localhost:PORT/private', {}],
    ['a private resolve_to', 'http://farsight.invalid:PORT/private', { resolve_to: '127.0.0.1' }],
    ['an IPv4-mapped private IPv6 literal', 'http://[::ffff:127.0.0.1]:PORT/private', {}],
  ])('fails with private_target for %s when private targets are not allowed', async (_name, url, over) => {
    const result = await checkHttp(makeHttp(url.replace('PORT', String(targets.plain.port)), over), noPrivate, env);
    expect(result.error?.code).toBe('private_target');
    expect(targets.plain.hits('/private')).toBe(0);
  });

  // A redirect hop is checked like the first one; this needs a local address that is not private.
  const publicIp = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal && !isPrivateAddress(a.address))?.address;
  (publicIp ? it : it.skip)('fails with private_target when a public target redirects to a private one', async () => {
    const pub = await startHttpTarget({ host: publicIp });
    try {
      expect((await checkHttp(makeHttp(`${pub.url}/ok`), noPrivate, env)).outcome).toBe('up');
      const to = encodeURIComponent(`${targets.plain.url}/ok`);
      const result = await checkHttp(makeHttp(`${pub.url}/redirect-abs?to=${to}`), noPrivate, env);
      expect(result.error?.code).toBe('private_target');
    } finally {
      await pub.close();
    }
  });
});
