/** tls checks against loopback servers with each kind of certificate. */
import { X509Certificate } from 'node:crypto';
import type { CheckErrorCode } from '../../src/probes/check-result';
import { checkTls } from '../../src/probes/checkers/tls';
import type { TlsSettings } from '../../src/probes/kinds';
import { FakeClock } from '../../src/common/clock';
import { farmCerts, FarmCerts } from '../../harness/servers/certs';
import { HttpTarget, startHttpTarget } from '../../harness/servers/http-farm';
import { startTcpFarm, TcpFarm } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makeTls } from './factories';

type Leaf = Exclude<keyof FarmCerts, 'ca'>;
const LEAVES: Leaf[] = ['valid', 'selfSigned', 'expired', 'notYetValid', 'wrongName'];

const fingerprint = (leaf: Leaf) => new X509Certificate(farmCerts()[leaf].cert).fingerprint256;
const servers = {} as Record<Leaf, HttpTarget>;
let tcp: TcpFarm;
// Certificates are made against the real time, so this clock must read close to it.
const env = { ...makeEnv(farmCerts().ca), clock: new FakeClock(Date.now()) };
const ctx = makeCtx({ timeout_ms: 1000 });

beforeAll(async () => {
  const started = await Promise.all(LEAVES.map((leaf) => startHttpTarget({ tls: farmCerts()[leaf] })));
  LEAVES.forEach((leaf, i) => (servers[leaf] = started[i]));
  tcp = await startTcpFarm();
});
afterAll(async () => {
  await Promise.all([...Object.values(servers).map((s) => s.close()), tcp.close()]);
});

describe('tls check', () => {
  it('is up for a valid certificate, reporting it, the days left and the phases', async () => {
    const result = await checkTls(makeTls(servers.valid.port), ctx, env);
    expect(result).toMatchObject({
      outcome: 'up',
      error: null,
      cert: { issuer: 'Farsight Test CA', subject: 'localhost' },
    });
    expect(result.detail).toMatch(/^certificate valid for (89|90) days more \(until \d{4}-\d{2}-\d{2}\)$/);
    expect(result.phases.connect_ms).not.toBeNull();
    expect(result.phases.tls_ms).not.toBeNull();
  });

  it.each<[string, CheckErrorCode | null, Leaf, Partial<TlsSettings>]>([
    ['a self-signed certificate', 'cert_invalid', 'selfSigned', {}],
    ['an expired certificate', 'cert_expired', 'expired', {}],
    ['a certificate that is not valid yet', 'cert_expired', 'notYetValid', {}],
    ['a certificate for another name', 'cert_invalid', 'wrongName', {}],
    ['a name the certificate has', null, 'valid', { host: 'localhost' }],
    ['an SNI the certificate has', null, 'valid', { sni: 'localhost' }],
    ['an SNI the certificate lacks', 'cert_invalid', 'valid', { sni: 'other.example' }],
    ['the SNI the certificate was made for', null, 'wrongName', { sni: 'wrong.example' }],
  ])('judges %s: %p, and reports the certificate', async (_name, code, leaf, over) => {
    const result = await checkTls(makeTls(servers[leaf].port, over), ctx, env);
    expect(result.error?.code ?? null).toBe(code);
    expect(result.cert).not.toBeNull();
  });

  it.each(['selfSigned', 'expired', 'wrongName'] as const)(
    'accepts the %s certificate when tls_verify is off, and still reports it',
    async (leaf) => {
      const result = await checkTls(makeTls(servers[leaf].port, { tls_verify: false }), ctx, makeEnv());
      expect(result).toMatchObject({ outcome: 'up', error: null });
      expect(result.cert).not.toBeNull();
      expect(result.detail).toMatch(/^certificate (valid for|expired)/);
    },
  );

  it.each(['selfSigned', 'wrongName', 'valid'] as const)(
    'accepts the pinned %s certificate (cert_sha256), without trusting its issuer',
    async (leaf) => {
      const result = await checkTls(makeTls(servers[leaf].port, { cert_sha256: fingerprint(leaf) }), ctx, makeEnv());
      expect(result).toMatchObject({ outcome: 'up', error: null, cert: { subject: expect.any(String) } });
    },
  );

  it.each([true, false])(
    'fails another certificate than the pinned one with cert_pin (tls_verify %p), naming both fingerprints',
    async (verify) => {
      const result = await checkTls(
        makeTls(servers.valid.port, { tls_verify: verify, cert_sha256: fingerprint('selfSigned') }),
        ctx,
        env,
      );
      const head = (leaf: Leaf) => fingerprint(leaf).split(':').slice(0, 8).join(':');
      expect(result.error).toEqual({
        code: 'cert_pin',
        message: `certificate is not the pinned one: cert_sha256 expects ${head('selfSigned')}…, the server presented ${head('valid')}…`,
      });
      expect(result.cert).toMatchObject({ issuer: 'Farsight Test CA' });
    },
  );

  it('says how long ago an expired certificate ended', async () => {
    const result = await checkTls(makeTls(servers.expired.port), ctx, env);
    expect(result.detail).toMatch(/^certificate expired 2 days ago/);
    expect(result.error?.message).toMatch(/^certificate has expired \(valid until \d{4}-\d{2}-\d{2}\)$/);
  });

  it('fails with cert_invalid when the CA is not trusted', async () => {
    const result = await checkTls(makeTls(servers.valid.port), ctx, makeEnv());
    expect(result.error).toEqual({ code: 'cert_invalid', message: 'certificate is not signed by a trusted authority' });
  });

  it.each<[string, CheckErrorCode, () => number]>([
    ['a server that does not speak TLS', 'tls', () => tcp.banner.port],
    ['a closed port', 'refused', () => tcp.closedPort],
    ['a server that never answers the handshake', 'timeout', () => tcp.silent.port],
  ])('fails %s with %s and no certificate', async (_name, code, port) => {
    const result = await checkTls(makeTls(port()), makeCtx({ timeout_ms: 400 }), env);
    expect(result.error?.code).toBe(code);
    expect(result.cert).toBeNull();
  });

  it('fails with private_target when private targets are not allowed', async () => {
    const result = await checkTls(makeTls(servers.valid.port), makeCtx({ allow_private_targets: false }), env);
    expect(result.error?.code).toBe('private_target');
  });
});
