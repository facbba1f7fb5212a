/**
 * The private-target guard against DNS rebinding, with the real resolver path: the built service
 * runs in a network namespace whose /etc/resolv.conf names a DNS server that answers a name with
 * a public address, then with 127.0.0.1, in turn (ns-farm.ts). On the service's own host,
 * 127.0.0.1:8081 is a private service (ns-bridge.ts) that counts every request. With
 * allow_private_targets false, http and tcp checks, the unsaved-monitor test and webhook test
 * messages aimed at that name reach the public address or are refused as `private_target`:
 * the private service never sees a request. Needs root (skipped with the reason otherwise).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { write } from '../faults/support/db-invariants';
import { Api } from '../faults/support/api';
import { makeNamespaces, NET_ADDR, NET_PREFIX, Namespaces, unavailable } from '../faults/support/netns';
import type { FarmState } from '../faults/support/ns-farm';
import { control, NsProcess, startInNamespace } from '../faults/support/ns-process';
import { bearer, logPath, ownerSecrets, readLog, secretsIn, ServiceProcess } from '../faults/support/service-process';

const PORT = 8080;
const PRIVATE_PORT = 8081;
const PUBLIC = `${NET_PREFIX}.40`;
const NAME = 'rebind.test';

const why = unavailable();
if (why) process.stdout.write(`DNS rebinding test skipped: ${why}\n`);
const maybe = why ? describe.skip : describe;

interface CheckAnswer {
  outcome: string;
  error: { code: string; message: string } | null;
}

maybe('the private-target guard against DNS rebinding', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-security-rebind-'));
  const log = logPath(dir, 'service');
  const farmSocket = path.join(dir, 'farm.sock');
  const bridgeSocket = path.join(dir, 'bridge.sock');
  const apiSocket = path.join(dir, 'api.sock');
  let ns: Namespaces;
  let farm: NsProcess;
  let bridge: NsProcess;
  let service: ServiceProcess | null = null;

  beforeAll(async () => {
    ns = makeNamespaces(`r${process.pid % 100000}`);
    farm = await startInNamespace(
      ns.net,
      'ns-farm',
      {
        control: farmSocket,
        dnsHost: NET_ADDR,
        dns: { [NAME]: [PUBLIC, '127.0.0.1'] },
        canaries: [],
        targets: [`${PUBLIC}:${PRIVATE_PORT}`],
        receiver: `${NET_PREFIX}.30:80`,
      },
      dir,
    );
    bridge = await startInNamespace(
      ns.svc,
      'ns-bridge',
      { api: apiSocket, servicePort: PORT, control: bridgeSocket, privatePort: PRIVATE_PORT },
      dir,
    );
  });
  afterAll(async () => {
    if (service) await service.kill();
    await Promise.all([farm?.stop(), bridge?.stop()]);
    ns?.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never lets a check or an alert reach a private address, whatever the DNS answers', async () => {
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    const start = () =>
      ServiceProcess.start({
        dataDir,
        logFile: log,
        netns: ns.svc,
        port: PORT,
        api: (port) => Api.unix(apiSocket, `127.0.0.1:${port}`),
      });
    service = await start();
    const owner = await service.owner(['admin']);
    // allow_private_targets = false (only an owner session may change it; here, with the service stopped).
    await service.stop();
    await write(
      path.join(dataDir, 'farsight.db'),
      "INSERT INTO settings (key, value) VALUES ('allow_private_targets', 'false') ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
    service = await start();
    const api = service.api;
    const auth = bearer(owner.keys.admin);

    // The sanity check: the same private service by its literal address is refused, not reached.
    const literal = await api.json<CheckAnswer>('POST', '/api/v1/monitors/test', {
      headers: auth,
      body: { name: 'x', kind: 'http', http: { url: `http://127.0.0.1:${PRIVATE_PORT}/` } },
    });
    expect(literal.error?.code).toBe('private_target');

    const outcomes: string[] = [];
    const note = (a: CheckAnswer) => outcomes.push(a.error ? a.error.code : a.outcome);
    for (let i = 0; i < 6; i++) {
      note(
        await api.json<CheckAnswer>('POST', '/api/v1/monitors/test', {
          headers: auth,
          body: { name: 'x', kind: 'http', http: { url: `http://${NAME}:${PRIVATE_PORT}/t/1` } },
        }),
      );
    }
    const saved = await api.json<{ id: number }>('POST', '/api/v1/monitors', {
      headers: auth,
      body: { name: 'rebound', kind: 'tcp', interval_s: 3600, tcp: { host: NAME, port: PRIVATE_PORT } },
    });
    for (let i = 0; i < 4; i++)
      note(await api.json<CheckAnswer>('POST', `/api/v1/monitors/${saved.id}/check`, { headers: auth }));
    const channel = await api.json<{ id: number }>('POST', '/api/v1/channels', {
      headers: auth,
      body: {
        kind: 'webhook',
        name: 'rebound hook',
        config: { url: `http://${NAME}:${PRIVATE_PORT}/hook`, secret: 'rebinding-test-signing-secret', headers: [] },
      },
    });
    const sends: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await api.json<{ ok: boolean; error: string | null }>('POST', `/api/v1/channels/${channel.id}/test`, {
        headers: auth,
      });
      sends.push(a.ok ? 'sent' : String(a.error));
    }

    const privateHits = (await control<{ privateHits: number }>(bridgeSocket, 'GET', '/state')).privateHits;
    const state = await control<FarmState>(farmSocket, 'GET', '/state');
    const publicHits = Object.entries(state.hits)
      .filter(([k]) => k.startsWith(`${PUBLIC}:`))
      .reduce((n, [, v]) => n + v, 0);
    process.stdout.write(
      `rebinding: ${JSON.stringify({ outcomes, sends, queries: state.queries[NAME], publicHits, privateHits })}\n`,
    );

    expect(privateHits).toBe(0);
    // Both answers were really given, and each was acted on as it should be.
    expect(state.queries[NAME]).toBeGreaterThanOrEqual(14);
    expect(outcomes.filter((o) => o === 'private_target').length).toBeGreaterThanOrEqual(4);
    expect(outcomes.filter((o) => o === 'up').length).toBeGreaterThanOrEqual(4);
    expect(outcomes.every((o) => o === 'up' || o === 'private_target')).toBe(true);
    expect(sends.filter((s) => s === 'sent').length).toBeGreaterThanOrEqual(1);
    expect(sends.filter((s) => /private/.test(s)).length).toBeGreaterThanOrEqual(1);
    expect(publicHits).toBeGreaterThanOrEqual(5);

    await service.stop();
    service = null;
    expect(secretsIn(readLog(log), [...ownerSecrets(owner), 'rebinding-test-signing-secret'])).toEqual([]);
  }, 180_000);
});
