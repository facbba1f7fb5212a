/**
 * Custom hosts against real servers on loopback: the test's DNS server on 127.0.53.1:53 serves
 * the zone (its SOA, NS and the hosts' records) to the service and to Debian's Pebble, which
 * validates HTTP-01 on port 80 of 127.0.53.1 (the service's FARSIGHT_ACME_HTTP_LISTEN) and issues
 * certificates the service then serves on 127.0.53.1:443 by SNI.
 */
import { X509Certificate } from 'node:crypto';
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DnsFarm } from '../../harness/servers/dns-farm';
import { Pebble, startPebble } from '../../harness/servers/pebble';
import { baseZone, fetchHttp, fetchHttps, HostsApp, startHostsApp, startZone, Zone } from './support';

const IP = '127.0.53.1';
/** Listed as this server's too, but nothing listens there: the CA's validation fails. */
const DEAD_IP = '127.0.53.9';
/** Listed as this server's too, but another web server answers there: our pre-check fails the order. */
const OTHER_IP = '127.0.53.8';
const DAY = 86_400_000;

describe('custom hosts with Pebble', () => {
  let zone: Zone;
  let dns: DnsFarm;
  let pebble: Pebble;
  let a: HostsApp;
  let env: Record<string, string>;
  let root: string;
  let dataDir: string | null = null;
  let other: http.Server;

  beforeAll(async () => {
    zone = {
      ...baseZone(IP),
      'away.example.test': [{ type: 'A', address: '198.51.100.20' }],
      'cdn.example.test': [{ type: 'A', address: '104.16.1.1' }],
      'cf.test': [
        { type: 'SOA', mname: 'ada.ns.cloudflare.com', rname: 'dns.cloudflare.com', serial: 1 },
        { type: 'NS', name: 'ada.ns.cloudflare.com' },
      ],
      'ada.ns.cloudflare.com': [{ type: 'A', address: IP }],
      'www.cf.test': [{ type: 'A', address: '104.16.1.2' }],
    };
    dns = await startZone(IP, zone);
    pebble = await startPebble(`${IP}:53`);
    root = await pebble.issuingRoot();
    other = http.createServer((_req, res) => res.end('a web server of its own\n'));
    await new Promise<void>((resolve) => other.listen(80, OTHER_IP, resolve));
    env = {
      FARSIGHT_ACME_DIRECTORY: pebble.directory,
      FARSIGHT_ACME_CA_FILE: pebble.caFile,
      FARSIGHT_SERVER_IPS: `${IP},${DEAD_IP},${OTHER_IP}`,
    };
    a = await startHostsApp(IP, env);
  });

  afterAll(async () => {
    await a?.t.close();
    await pebble?.stop();
    await dns?.close();
    await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("reads each host at its zone's nameservers: missing, elsewhere, proxied (provider and dashboard known)", async () => {
    await a.setHosts(['status.example.test', 'away.example.test', 'www.cf.test']);
    expect(await a.domain('status.example.test')).toEqual({
      host: 'status.example.test',
      state: 'dns_missing',
      detail: expect.stringContaining('has no A or AAAA record'),
      checked_at: expect.any(String),
      points_at: [],
      zone: 'example.test',
      provider: null,
      records: [
        { type: 'A', name: 'status.example.test', value: IP },
        { type: 'A', name: 'status.example.test', value: DEAD_IP },
        { type: 'A', name: 'status.example.test', value: OTHER_IP },
      ],
    });
    expect(await a.domain('away.example.test')).toMatchObject({
      state: 'dns_elsewhere',
      points_at: ['198.51.100.20'],
      detail: expect.stringContaining('198.51.100.20, which is not this server'),
      records: expect.any(Array),
    });
    expect(await a.domain('www.cf.test')).toMatchObject({
      state: 'proxied',
      zone: 'cf.test',
      provider: 'Cloudflare',
      dashboard: 'https://dash.cloudflare.com/',
      points_at: ['104.16.1.2'],
      detail: expect.stringContaining('DNS only'),
    });
    expect(await a.lines()).toEqual(
      expect.arrayContaining([
        'custom host status.example.test: checking (added by key:admin key)',
        expect.stringMatching(/^custom host status\.example\.test: checking → dns_missing/),
      ]),
    );
  });

  it('orders a certificate once the record points here, goes live and serves the status page over HTTPS by SNI', async () => {
    zone['status.example.test'] = [{ type: 'A', address: IP }];
    await a.advance(5 * 60_000);
    const d = await a.domain('status.example.test');
    expect(d).toMatchObject({
      state: 'live',
      points_at: [IP],
      zone: 'example.test',
      detail: expect.stringContaining('serving a certificate valid until'),
    });
    expect(d).not.toHaveProperty('records');
    expect(d).not.toHaveProperty('dashboard');
    expect(await a.lines()).toEqual(
      expect.arrayContaining([
        'custom host status.example.test: dns_missing → certificate (DNS: here)',
        expect.stringMatching(
          /^custom host status\.example\.test: certificate → live \(certificate issued, valid until /,
        ),
      ]),
    );

    const page = await fetchHttps(IP, 'status.example.test', '/', root);
    expect(page.authorized).toBe(true);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    // The status page itself (at `/` on a page host), not the dashboard's landing page.
    expect(page.body).toContain('<title>Status</title>');
    // Every asset the page names is served on that name too.
    const assets = [...page.body.matchAll(/(?:href|src)="(\/[^"]*)"/g)].map((m) =>
      m[1].replace(/&#x3D;/g, '=').replace(/&amp;/g, '&'),
    );
    expect(assets).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/status\.css\?v=/), expect.stringMatching(/^\/status\.js\?v=/)]),
    );
    for (const asset of new Set(assets))
      expect([asset, (await fetchHttps(IP, 'status.example.test', asset, root)).status]).toEqual([asset, 200]);
    expect(page.cert.subjectaltname).toBe('DNS:status.example.test');
    // The page's own JSON and assets are served there; the API and the dashboard are not.
    expect((await fetchHttps(IP, 'status.example.test', '/api/public/status', root)).status).toBe(200);
    expect((await fetchHttps(IP, 'status.example.test', '/api/v1/status-page', root)).status).toBe(404);
    expect((await fetchHttps(IP, 'status.example.test', '/setup', root)).status).toBe(404);
    // A name without a certificate gets no handshake.
    await expect(fetchHttps(IP, 'away.example.test', '/', root)).rejects.toThrow();

    // Plain HTTP on the challenge listener sends the page host to https.
    const plain = await fetchHttp(IP, 'status.example.test', '/status?range=7d');
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://status.example.test/status?range=7d');
    expect((await fetchHttp(IP, 'away.example.test', '/')).status).toBe(404);
  });

  it('keeps the account key and the certificate in the data dir, readable by the service only', () => {
    for (const file of ['acme/account.key', 'certs/status.example.test.key', 'certs/status.example.test.crt']) {
      expect(fs.statSync(path.join(a.t.dataDir, file)).mode & 0o777).toBe(0o600);
    }
    expect(fs.statSync(path.join(a.t.dataDir, 'certs')).mode & 0o777).toBe(0o700);
    const chain = fs.readFileSync(path.join(a.t.dataDir, 'certs/status.example.test.crt'), 'utf8');
    // Leaf, then Pebble's intermediate, which the root of the management interface signed.
    const pems = chain.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    expect(pems.length).toBeGreaterThanOrEqual(2);
    expect(new X509Certificate(pems[pems.length - 1]).verify(new X509Certificate(root).publicKey)).toBe(true);
  });

  it("other hosts fail (nothing answers at one's address, another server at the other's) while the first keeps serving", async () => {
    zone['broken.example.test'] = [{ type: 'A', address: DEAD_IP }];
    zone['impostor.example.test'] = [{ type: 'A', address: OTHER_IP }];
    await a.setHosts([
      'status.example.test',
      'away.example.test',
      'www.cf.test',
      'broken.example.test',
      'impostor.example.test',
    ]);
    const impostor = await a.domain('impostor.example.test');
    expect(impostor.state).toBe('failed');
    expect(impostor.detail).toContain(
      `certificate order failed: pre-check before asking the CA: http://impostor.example.test/.well-known/acme-challenge/`,
    );
    expect(impostor.detail).toContain(
      `at ${OTHER_IP}: answered something else than the challenge (another server answers there)`,
    );
    const broken = await a.domain('broken.example.test');
    expect(broken).toMatchObject({
      state: 'failed',
      detail: expect.stringContaining("the CA's validation of broken.example.test failed"),
    });
    expect(broken.detail).toContain(
      `(our own pre-check could not reach it either: http://broken.example.test/.well-known/acme-challenge/`,
    );
    expect(broken.detail).toContain(`at ${DEAD_IP}: connection refused (nothing listens on port 80 there)`);
    expect(broken.detail).toContain('1 failed order in a row; next try');
    expect((await a.domain('status.example.test')).state).toBe('live');
    expect((await fetchHttps(IP, 'status.example.test', '/', root)).status).toBe(200);
  });

  it('after a restart serves the certificate on disk, without ordering another', async () => {
    const serial = (await fetchHttps(IP, 'status.example.test', '/', root)).cert.serialNumber;
    dataDir = a.t.dataDir;
    const clock = a.t.clock;
    const admin = a.admin;
    await a.t.app.close();
    await a.t.db.close();
    a = await startHostsApp(IP, env, { dataDir, clock }, admin);
    expect((await a.domain('status.example.test')).state).toBe('live');
    const served = await fetchHttps(IP, 'status.example.test', '/', root);
    expect(served.status).toBe(200);
    expect(served.cert.serialNumber).toBe(serial);
  });

  it('renews 30 days before expiry and serves the new certificate', async () => {
    const before = new X509Certificate(
      fs.readFileSync(path.join(a.t.dataDir, 'certs/status.example.test.crt'), 'utf8'),
    );
    a.t.clock.set(Date.parse(before.validTo) - 29 * DAY);
    await a.advance(0);
    const after = new X509Certificate(fs.readFileSync(path.join(a.t.dataDir, 'certs/status.example.test.crt'), 'utf8'));
    expect(after.serialNumber).not.toBe(before.serialNumber);
    expect((await a.domain('status.example.test')).state).toBe('live');
    expect(
      (await a.lines()).some((l) => /status\.example\.test: live \(certificate renewed, valid until/.test(l)),
    ).toBe(true);
    const served = await fetchHttps(IP, 'status.example.test', '/', root);
    expect(served.cert.serialNumber.toUpperCase()).toBe(after.serialNumber.toUpperCase());
  });
});
