/**
 * Self-signed and private-CA certificates through the API (issue 33, must-fix 10): tls monitors
 * take `tls_verify` as http monitors do, and both kinds take a pinned certificate (`cert_sha256`),
 * stored in one form, validated, exported and imported, and judged by real checks against a
 * loopback server with a self-signed certificate.
 */
import { X509Certificate } from 'node:crypto';
import { farmCerts } from '../../harness/servers/certs';
import { HttpTarget, startHttpTarget } from '../../harness/servers/http-farm';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';

describe('tls_verify and cert_sha256 through the API', () => {
  let t: TestApp;
  let server: HttpTarget;
  let write: Record<string, string>;
  let admin: Record<string, string>;
  const pin = new X509Certificate(farmCerts().selfSigned.cert).fingerprint256; // AB:CD:... as browsers show it
  const otherPin = new X509Certificate(farmCerts().valid.cert).fingerprint256;
  const hex = (f: string) => f.replace(/:/g, '').toLowerCase();

  beforeAll(async () => {
    server = await startHttpTarget({ tls: farmCerts().selfSigned });
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = bearer(await createKey(t, cookie, 'write'));
    admin = bearer(await createKey(t, cookie, 'admin', 'ops'));
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  const tlsMonitor = (tls: Record<string, unknown> = {}) => ({
    name: 'Router admin',
    kind: 'tls',
    tls: { host: '127.0.0.1', port: server.port, ...tls },
  });
  const httpsMonitor = (http: Record<string, unknown> = {}) => ({
    name: 'NAS',
    kind: 'http',
    http: { url: `https://127.0.0.1:${server.port}/ok`, ...http },
  });
  const tested = async (body: object) =>
    (await t.http.post('/api/v1/monitors/test').set(write).send(body).expect(200)).body;

  it.each<[string, () => object, string | null]>([
    ['tls: a self-signed certificate fails by default', () => tlsMonitor(), 'cert_invalid'],
    ['tls: tls_verify false accepts it', () => tlsMonitor({ tls_verify: false }), null],
    [
      'tls: pinned (lower-case hex without colons) passes, tls_verify on',
      () => tlsMonitor({ cert_sha256: hex(pin) }),
      null,
    ],
    ['tls: pinned to another certificate fails with cert_pin', () => tlsMonitor({ cert_sha256: otherPin }), 'cert_pin'],
    ['http: pinned passes', () => httpsMonitor({ cert_sha256: pin }), null],
    [
      'http: pinned to another certificate fails with cert_pin',
      () => httpsMonitor({ cert_sha256: otherPin }),
      'cert_pin',
    ],
  ])('%s', async (_what, body, code) => {
    const result = await tested(body());
    expect(result.error?.code ?? null).toBe(code);
    expect(result.cert).toMatchObject({ subject: 'localhost' });
    if (code === 'cert_pin')
      expect(result.error.message).toBe(
        `certificate is not the pinned one: cert_sha256 expects ${otherPin.slice(0, 23)}…, the server presented ${pin.slice(0, 23)}…`,
      );
  });

  it('stores a pin in one form, answers it, refuses a bad one on its field, and carries it through export and import', async () => {
    const created = (
      await t.http
        .post('/api/v1/monitors')
        .set(write)
        .send(tlsMonitor({ tls_verify: false, cert_sha256: `SHA256 Fingerprint=${pin}` }))
        .expect(201)
    ).body;
    expect(created.tls).toMatchObject({ tls_verify: false, cert_sha256: pin });
    const plain = (
      await t.http
        .post('/api/v1/monitors')
        .set(write)
        .send({ ...tlsMonitor(), name: 'Plain' })
        .expect(201)
    ).body;
    expect(plain.tls).toMatchObject({ tls_verify: true, cert_sha256: null });

    const bad = await t.http
      .patch(`/api/v1/monitors/${created.id}`)
      .set(write)
      .send({ tls: { cert_sha256: 'ab:cd' } })
      .expect(422);
    expect(bad.body.error.fields).toEqual([
      { field: 'tls.cert_sha256', message: expect.stringContaining('SHA-256 fingerprint') },
    ]);
    // The same pin in another accepted form is no change.
    const same = await t.http
      .patch(`/api/v1/monitors/${created.id}`)
      .set(write)
      .send({ tls: { cert_sha256: hex(pin) } })
      .expect(200);
    expect(same.body.updated_at).toBe(created.updated_at);

    const doc = (await t.http.get('/api/v1/export').set(admin).expect(200)).body;
    expect(doc.monitors.find((m: { slug: string }) => m.slug === created.slug).tls).toMatchObject({
      tls_verify: false,
      cert_sha256: pin,
    });
    const imported = await t.http
      .post('/api/v1/import')
      .set(admin)
      .send({ ...doc, dry_run: true })
      .expect(200);
    expect(imported.body).toMatchObject({ unchanged: [created.slug, plain.slug].sort(), errors: [] });
  });
});
