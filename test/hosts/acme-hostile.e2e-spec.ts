/**
 * Certificate orders against a broken or hostile ACME server (a small local server that answers
 * 500s, never answers, answers garbage, or rate-limits with Retry-After), and the back-off on
 * a fake clock: 5 minutes after the first two failed orders, then 1 h, 2 h, ... remembered across
 * a restart and a removal and re-adding of the host. The DNS farm serves the zone on 127.0.53.2:53.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DnsFarm } from '../../harness/servers/dns-farm';
import { bearer } from '../support/app';
import { baseZone, HostsApp, placeCertificate, startHostsApp, startZone, Zone } from './support';

const IP = '127.0.53.2';
const MIN = 60_000;
const HOUR = 60 * MIN;

type Mode = '500' | 'timeout' | 'garbage' | 'ratelimit';

interface HostileCa {
  directory: string;
  mode: Mode;
  requests: number;
  close(): Promise<void>;
}

async function startHostileCa(): Promise<HostileCa> {
  const hanging = new Set<http.ServerResponse>();
  const ca: HostileCa = { directory: '', mode: '500', requests: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    ca.requests += 1;
    const base = ca.directory.replace(/\/dir$/, '');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Replay-Nonce': `n${ca.requests}`, ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      if (ca.mode === 'timeout') return void hanging.add(res);
      if (ca.mode === '500') return json(500, { type: 'urn:ietf:params:acme:error:serverInternal', detail: 'boom' });
      if (ca.mode === 'garbage') return json(200, '{"newNonce": [garbage\u0000\u001b[31m');
      // ratelimit: a real-looking directory and account, then a rate limit on the new order.
      if (req.url === '/dir')
        return json(200, { newNonce: `${base}/nonce`, newAccount: `${base}/account`, newOrder: `${base}/order` });
      if (req.url === '/nonce') return json(200, '');
      if (req.url === '/account') return json(201, { status: 'valid' }, { Location: `${base}/account/1` });
      return json(
        429,
        { type: 'urn:ietf:params:acme:error:rateLimited', detail: 'too many new orders recently' },
        { 'Retry-After': '10800' },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, IP, resolve));
  ca.directory = `http://${IP}:${(server.address() as AddressInfo).port}/dir`;
  ca.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return ca;
}

describe('custom hosts: a broken CA and the back-off', () => {
  let zone: Zone;
  let dns: DnsFarm;
  let ca: HostileCa;
  let a: HostsApp;
  let env: Record<string, string>;
  let dataDir: string | null = null;
  const iso = (ms: number) => new Date(ms).toISOString();
  const restart = async () => {
    dataDir = a.t.dataDir;
    const { clock } = a.t;
    await a.t.app.close();
    await a.t.db.close();
    a = await startHostsApp(
      IP,
      env,
      { dataDir, clock, hosts: { acmeTimeoutMs: 500, dnsTimeoutMs: 1_000, probeTimeoutMs: 1_000 } },
      a.admin,
    );
  };

  beforeAll(async () => {
    zone = {
      ...baseZone(IP),
      'a.example.test': [{ type: 'A', address: IP }],
      'b.example.test': [{ type: 'A', address: IP }],
      'c.example.test': [{ type: 'A', address: IP }],
    };
    dns = await startZone(IP, zone);
    ca = await startHostileCa();
    env = { FARSIGHT_ACME_DIRECTORY: ca.directory };
    a = await startHostsApp(IP, env, { hosts: { acmeTimeoutMs: 500, dnsTimeoutMs: 1_000, probeTimeoutMs: 1_000 } });
  });

  afterAll(async () => {
    await a?.t.close();
    await ca?.close();
    await dns?.close();
    if (dataDir) (await import('node:fs')).rmSync(dataDir, { recursive: true, force: true });
  });

  it('a CA answering 500 fails the order with words; the waits are 5 min, 5 min, then 1 h, then 2 h', async () => {
    const start = a.t.clock.now();
    await a.setHosts(['a.example.test']);
    let d = await a.domain('a.example.test');
    expect(d.state).toBe('failed');
    expect(d.detail).toBe(
      `certificate order failed: the ACME server at ${ca.directory} did not answer with an ACME directory (Attempting to read ACME directory returned error 500: ${ca.directory}); 1 failed order in a row; next try ${iso(start + 5 * MIN)}`,
    );
    await a.advance(5 * MIN);
    expect((await a.domain('a.example.test')).detail).toContain(
      `2 failed orders in a row; next try ${iso(start + 10 * MIN)}`,
    );
    await a.advance(5 * MIN);
    expect((await a.domain('a.example.test')).detail).toContain(
      `3 failed orders in a row; next try ${iso(start + 10 * MIN + HOUR)}`,
    );
    const asked = ca.requests;
    await a.advance(59 * MIN);
    d = await a.domain('a.example.test');
    expect(ca.requests).toBe(asked);
    expect(d.state).toBe('failed');
    await a.advance(MIN);
    expect(ca.requests).toBe(asked + 1);
    expect((await a.domain('a.example.test')).detail).toContain(
      `4 failed orders in a row; next try ${iso(start + 10 * MIN + 3 * HOUR)}`,
    );
  });

  it('remembers the wait across a restart and a removal and re-adding of the host', async () => {
    const asked = ca.requests;
    const until = iso(a.t.clock.now() + 2 * HOUR);
    await restart();
    let d = await a.domain('a.example.test');
    expect(d.state).toBe('failed');
    expect(d.detail).toContain(`a certificate is ordered again ${until}, after 4 failed orders in a row`);
    await a.setHosts([]);
    await a.setHosts(['a.example.test']);
    d = await a.domain('a.example.test');
    expect(d.state).toBe('failed');
    expect(ca.requests).toBe(asked);
    const lines = await a.lines();
    expect(lines).toEqual(
      expect.arrayContaining([
        'custom host a.example.test removed from the status page',
        'custom host a.example.test: checking (added by key:admin key)',
      ]),
    );
    await a.advance(2 * HOUR);
    expect(ca.requests).toBe(asked + 1);
    expect((await a.domain('a.example.test')).detail).toContain('5 failed orders in a row');
  });

  it('a CA that never answers, or answers garbage, fails the order readably and the service carries on', async () => {
    ca.mode = 'timeout';
    await a.advance(4 * HOUR);
    let d = await a.domain('a.example.test');
    expect(d.state).toBe('failed');
    expect(d.detail).toContain(`the ACME server at ${ca.directory} did not answer within 0.5 s`);
    ca.mode = 'garbage';
    await a.advance(8 * HOUR);
    d = await a.domain('a.example.test');
    expect(d.detail).toContain(`the ACME server at ${ca.directory} did not answer with an ACME directory`);
    expect(d.detail).not.toMatch(/[\u0000-\u001f]/);
    expect(d.detail).toContain('7 failed orders in a row');
    await a.t.http.get('/api/health').expect(200);
  });

  it("waits out a rate limit's Retry-After when it is longer than the back-off", async () => {
    ca.mode = 'ratelimit';
    const now = a.t.clock.now();
    await a.setHosts(['a.example.test', 'b.example.test']);
    const d = await a.domain('b.example.test');
    expect(d.state).toBe('failed');
    expect(d.detail).toContain('refused the order: too many new orders recently');
    expect(d.detail).toContain(`1 failed order in a row; next try ${iso(now + 3 * HOUR)} (the CA asked to wait)`);
  });

  it('a live certificate that fails to renew stays served, and the owner gets a notice', async () => {
    ca.mode = '500';
    const hook = await a.t.http
      .post('/api/v1/channels')
      .set(bearer(a.admin))
      .send({
        kind: 'webhook',
        name: 'Hook',
        config: { url: `http://${IP}:9/hook`, secret: 'a-secret-of-enough-length', headers: [] },
        events: ['notice'],
      })
      .expect(201);
    placeCertificate(a.t.dataDir, 'c.example.test', a.t.clock.now() + 10 * 86_400_000);
    await a.setHosts(['a.example.test', 'b.example.test', 'c.example.test']);
    const d = await a.domain('c.example.test');
    expect(d.state).toBe('live');
    expect(d.detail).toContain('renewal failed: the ACME server');
    expect(d.detail).toContain('the current certificate is served until it expires');
    expect(await a.lines()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^custom host c\.example\.test: live \(certificate renewal failed: /),
      ]),
    );
    const events = await a.t.db.query<{ event: string }[]>(
      'SELECT e.event FROM outbox_events e JOIN outbox o ON o.id = e.outbox_id WHERE o.channel_id = ?',
      [hook.body.id],
    );
    expect(events.map((e) => JSON.parse(e.event) as { type: string; message: string })).toEqual([
      expect.objectContaining({
        type: 'notice',
        message: expect.stringContaining('The certificate of c.example.test (status page) could not be renewed'),
      }),
    ]);
  });
});
