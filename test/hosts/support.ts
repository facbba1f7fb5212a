/**
 * Shared by the custom hosts' tests: a zone served by the DNS farm on port 53 of a loopback
 * address of the test's own (each test file has its own address, so files running side by side
 * never share a port), the app started with the custom hosts' variables, and small readers.
 */
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import forge from 'node-forge';
import * as tls from 'node:tls';
import { startDnsFarm, DnsFarm } from '../../harness/servers/dns-farm';
import type { RecordData } from '../../harness/servers/dns-wire';
import { bearer, createKey, createOwner, startApp, StartOptions, TestApp } from '../support/app';
import { DomainsService } from '../../src/hosts/domains.service';

export type Zone = Record<string, RecordData[]>;

/** example.test with its SOA and one nameserver at `ip` (which the farm itself is). */
export function baseZone(ip: string): Zone {
  return {
    'example.test': [
      { type: 'SOA', mname: 'ns1.example.test', rname: 'hostmaster.example.test', serial: 1 },
      { type: 'NS', name: 'ns1.example.test' },
    ],
    'ns1.example.test': [{ type: 'A', address: ip }],
  };
}

export async function startZone(ip: string, zone: Zone): Promise<DnsFarm> {
  return startDnsFarm(ip, { port: 53, zone });
}

export interface HostsApp {
  t: TestApp;
  admin: string;
  hosts: DomainsService;
  /** PUT /status-page {hosts}, expecting 200. */
  setHosts(hosts: string[]): Promise<void>;
  domain(host: string): Promise<Record<string, unknown>>;
  /** Moves the fake clock, runs the due checks and waits for them (and any order) to finish. */
  advance(ms: number): Promise<void>;
  /** Timeline lines of kind `domain`, oldest first. */
  lines(): Promise<string[]>;
}

export async function startHostsApp(
  ip: string,
  env: Record<string, string>,
  opts: StartOptions = {},
  admin?: string,
): Promise<HostsApp> {
  const t = await startApp(
    {
      FARSIGHT_DNS_SERVERS: ip,
      FARSIGHT_SERVER_IPS: ip,
      FARSIGHT_HTTPS_LISTEN: `${ip}:443`,
      FARSIGHT_ACME_HTTP_LISTEN: `${ip}:80`,
      ...env,
    },
    {
      hosts: {
        acmeTimeoutMs: 2_000,
        pollMinMs: 50,
        pollMaxMs: 200,
        pollAttempts: 40,
        dnsTimeoutMs: 1_000,
        probeTimeoutMs: 1_000,
      },
      ...opts,
    },
  );
  const hosts = t.app.get(DomainsService);
  await hosts.settled();
  let key = admin;
  if (!key) {
    const { cookie } = await createOwner(t);
    key = await createKey(t, cookie, 'admin');
  }
  const k = key;
  return {
    t,
    admin: k,
    hosts,
    setHosts: async (list) => {
      await t.http.put('/api/v1/status-page').set(bearer(k)).send({ hosts: list }).expect(200);
      await hosts.settled();
    },
    domain: async (host) => {
      const res = await t.http.get('/api/v1/status-page').set(bearer(k)).expect(200);
      const d = (res.body.domains as Record<string, unknown>[]).find((x) => x.host === host);
      if (!d) throw new Error(`no domain ${host} in ${JSON.stringify(res.body.domains)}`);
      return d;
    },
    advance: async (ms) => {
      t.clock.advance(ms);
      await hosts.tick();
    },
    lines: async () => {
      const res = await t.http.get('/api/v1/events?kind=domain&limit=500').set(bearer(k)).expect(200);
      return (res.body.items as { text: string }[]).map((e) => e.text).reverse();
    },
  };
}

export interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  cert: tls.PeerCertificate;
  authorized: boolean;
}

/** An HTTPS request to `ip:443` naming `host` (SNI and Host), trusting only `ca`. */
export function fetchHttps(ip: string, host: string, path: string, ca: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: ip, port: 443, servername: host, ca, rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate(true);
      const authorized = socket.authorized;
      const req = http.request({ createConnection: () => socket, path, headers: { Host: host } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          socket.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, cert, authorized });
        });
      });
      req.on('error', reject);
      req.end();
    });
    socket.on('error', reject);
  });
}

/** A plain HTTP request to `ip:80` with `Host: host`. */
export function fetchHttp(
  ip: string,
  host: string,
  path: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: ip, port: 80, path, headers: { Host: host }, agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

/** A self-signed certificate for `host` expiring at `notAfter`, as if an earlier order had fetched it. */
export function placeCertificate(dataDir: string, host: string, notAfter: number): void {
  const rsa = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(rsa.publicKey);
  cert.serialNumber = '0abc';
  cert.validity.notBefore = new Date(notAfter - 90 * 86_400_000);
  cert.validity.notAfter = new Date(notAfter);
  cert.setSubject([{ name: 'commonName', value: host }]);
  cert.setIssuer([{ name: 'commonName', value: host }]);
  cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 2, value: host }] }]);
  cert.sign(forge.pki.privateKeyFromPem(rsa.privateKey), forge.md.sha256.create());
  const dir = path.join(dataDir, 'certs');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, `${host}.key`), rsa.privateKey, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, `${host}.crt`), forge.pki.certificateToPem(cert), { mode: 0o600 });
}
