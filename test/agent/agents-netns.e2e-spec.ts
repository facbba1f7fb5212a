/**
 * An agent cut off for real (docs/agents.md): the built service on 127.0.0.1 with two `farsight
 * agent` processes, `near` on loopback and `far` inside a network namespace of its own (made by
 * test/faults/support/netns.ts: the agent's box `svc` and "the internet" `net`, one veth pair
 * between them). Far reaches the service as a remote agent does, https to 198.51.100.2 across the
 * veth, where a relay (support/ns-relay.ts) ends TLS with a certificate of the test CA
 * (FARSIGHT_AGENT_CA_FILE) and pipes on through a unix socket to the service (support/link.ts,
 * which reads the results' seqs going by). Its target, the test's HTTP server, far reaches through
 * a relay inside its own namespace: the cut parts it from the service only, so what it checks and
 * spools meanwhile is what the test makes the target answer.
 *
 * Monitors (interval 10 s, confirm and recover after 1): `all3` on [local, near, far] with quorum
 * 3, `pair` on [local, far] with the default quorum (a majority of those online), `solo` on [far].
 * 1. Far sees all3 fail and local sees pair fail: both stay up (the views do not agree).
 * 2. The veth goes down. For 60 s far is still online and its last votes hold (pair stays up);
 *    then it is offline (GET /locations, a `location` line, a notice) and they stop counting: pair
 *    goes Down on local's word alone, and all3, failing now at local and near too, stays up and
 *    says that only 2 of 3 locations are online where 3 must agree.
 * 3. The veth comes back: far is online again (a line, a notice), the results it spooled reach the
 *    service in seq order, and those older than 2 intervals are stored as history only: far saw
 *    all3 and solo fail early in the cut, and neither goes Down nor alerts on it.
 *
 * Needs root for the namespaces (CI runs as root); without it the suite is skipped and says why.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentProcess } from '../../harness/agent';
import { requestJson } from '../../harness/http-client';
import { removeDir, tempDir } from '../../harness/paths';
import { farmCerts, farmLeafFor } from '../../harness/servers/certs';
import { Receiver, startReceiver } from '../../harness/servers/receivers';
import { KeyPool, Service } from '../../harness/service';
import { query } from '../faults/support/db-invariants';
import { makeNamespaces, NET_ADDR, Namespaces, unavailable } from '../faults/support/netns';
import { NsProcess, startScriptInNamespace } from '../faults/support/ns-process';
import { waitFor } from '../support/wait-for';
import { startTappedLink, TappedLink } from './support/link';
import type { Relay } from './support/ns-relay';
import { spooled } from './support/spool-files';

const INTERVAL_S = 10;
/** docs/agents.md, "Contact": max(60 s, 3 intervals). */
const OFFLINE_MS = 60_000;
/** docs/agents.md: a result older than 2 intervals at receipt is history only. */
const STALE_MS = 2 * INTERVAL_S * 1000;
const DOWN = 2; // OUTCOME_CODE.down of src/history/check-row.ts

const why = unavailable();
if (why) process.stdout.write(`agents-netns tests skipped: ${why}\n`);
const maybe = why ? describe.skip : describe;

type Via = 'loopback' | 'far';
type Name = 'all3' | 'pair' | 'solo';

interface Answer {
  state: { status: string; note: string | null; locations: { name: string; status: string }[] };
}

interface Alert {
  type: string;
  monitor: { id: number } | null;
  message: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** waitFor at an API client's pace (600 requests a minute per key). */
async function slowly(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

maybe('an agent cut off by a network namespace', () => {
  // Made in beforeAll: a skipped suite still runs this body.
  let dir = '';
  let dataDir = '';
  const spools = { near: '', far: '' };
  let ns: Namespaces;
  const relays: NsProcess[] = [];
  let service: Service;
  let keys: KeyPool;
  let tap: TappedLink;
  let receiver: Receiver;
  const targets: http.Server[] = [];
  let targetPort = 0;
  /** `<monitor>@<via>` the target answers 500 to; and how many 500s it gave far per monitor. */
  const failing = new Set<string>();
  const failedFar: Record<string, number> = {};
  const ids = {} as Record<Name, number>;
  const loc = {} as Record<'near' | 'far', { id: number; token: string }>;
  const agents: Partial<Record<'near' | 'far', AgentProcess>> = {};
  let started = 0;
  let cutAt = 0;
  let healedAt = 0;
  const timings: Record<string, number> = {};

  const api = <T = Record<string, unknown>>(method: string, p: string, body?: unknown) =>
    requestJson<T>(method, `${service.url}/api/v1${p}`, { headers: keys.header(), body });
  const monitor = (name: Name) => api<Answer>('GET', `/monitors/${ids[name]}`);
  const views = (a: Answer) => Object.fromEntries(a.state.locations.map((l) => [l.name, l.status]));
  const farState = async () =>
    (await api<{ items: { name: string; state: string }[] }>('GET', '/locations')).items.find((l) => l.name === 'far')
      ?.state;
  const locationLines = async () =>
    (await api<{ items: { text: string }[] }>('GET', '/events?kind=location&limit=20')).items.map((l) => l.text);
  const downs = async (name: Name) =>
    query<{ at: number }>(service.dbFile, "SELECT at FROM events WHERE kind = 'down' AND monitor_id = ?", [ids[name]]);
  const alerts = (): Alert[] =>
    receiver.received.flatMap((r) => {
      try {
        return (JSON.parse(r.body.toString('utf8')) as { events: Alert[] }).events;
      } catch {
        return [];
      }
    });

  beforeAll(async () => {
    started = Date.now();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-agents-netns-'));
    dataDir = tempDir('agents-netns-svc');
    spools.near = tempDir('agent-near');
    spools.far = tempDir('agent-far');
    ns = makeNamespaces(`a${process.pid % 100000}`);
    // The relay at the service's "public" address: TLS with a leaf for 198.51.100.2 from the test CA.
    const leaf = farmLeafFor({ dns: [], ips: [NET_ADDR] });
    const pem = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const tls = { key: pem('relay.key', leaf.key), cert: pem('relay.crt', leaf.cert) };
    pem('ca.pem', farmCerts().ca);

    const serve = (via: Via) =>
      http.createServer((req, res) => {
        const name = /^\/t\/(\w+)$/.exec(req.url ?? '')?.[1] ?? '';
        const bad = failing.has(`${name}@${via}`);
        if (bad && via === 'far') failedFar[name] = (failedFar[name] ?? 0) + 1;
        res.writeHead(bad ? 500 : 200, { 'Content-Type': 'text/plain' }).end(bad ? 'failing on purpose' : 'ok');
      });
    const loopback = serve('loopback');
    await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
    targetPort = (loopback.address() as AddressInfo).port;
    const far = serve('far');
    await new Promise<void>((r) => far.listen(path.join(dir, 'target.sock'), r));
    targets.push(loopback, far);

    service = await Service.start({ dataDir });
    keys = await service.adminKeys(2);
    tap = await startTappedLink(path.join(dir, 'service.sock'), Number(new URL(service.url).port));
    const script = path.join(__dirname, 'support', 'ns-relay.ts');
    const toService: Relay[] = [{ host: NET_ADDR, port: 443, to: path.join(dir, 'service.sock'), tls }];
    relays.push(await startScriptInNamespace(ns.net, script, toService, dir));
    const toTarget: Relay[] = [{ host: '127.0.0.1', port: targetPort, to: path.join(dir, 'target.sock') }];
    relays.push(await startScriptInNamespace(ns.svc, script, toTarget, dir));

    receiver = await startReceiver();
    await api('POST', '/channels', {
      kind: 'webhook',
      name: 'owner',
      config: { url: `${receiver.origin}/hook`, secret: 'agents-netns-webhook-secret-42', headers: [] },
    });
    loc.near = await service.createLocation('near');
    loc.far = await service.createLocation('far');
    const make = async (name: Name, locations: string[], quorum: number | null) => {
      const m = await api<{ id: number }>('POST', '/monitors', {
        name,
        kind: 'http',
        locations,
        quorum,
        interval_s: INTERVAL_S,
        retry_interval_s: 5,
        timeout_ms: 2_000,
        confirm_after: 1,
        recover_after: 1,
        http: { url: `http://127.0.0.1:${targetPort}/t/${name}` },
      });
      ids[name] = m.id;
    };
    await make('all3', ['local', 'near', 'far'], 3);
    await make('pair', ['local', 'far'], null);
    await make('solo', ['far'], null);
  }, 120_000);

  afterAll(async () => {
    for (const a of Object.values(agents)) await a?.stop(5_000);
    await Promise.all(relays.map((r) => r.stop()));
    ns?.remove();
    await tap?.close();
    await service?.stop();
    await receiver?.close();
    for (const t of targets) {
      t.closeAllConnections();
      await new Promise((r) => t.close(r));
    }
    for (const d of [dir, dataDir, ...Object.values(spools)]) if (d) removeDir(d);
    process.stdout.write(`agents-netns: ${JSON.stringify({ ...timings, wallMs: Date.now() - started })}\n`);
  });

  it('far checks across its own network over TLS; views that disagree keep the monitors up', async () => {
    agents.near = new AgentProcess({ server: service.url, token: loc.near.token, spoolDir: spools.near });
    agents.far = new AgentProcess({
      server: `https://${NET_ADDR}`,
      token: loc.far.token,
      spoolDir: spools.far,
      env: { FARSIGHT_AGENT_CA_FILE: path.join(dir, 'ca.pem') },
      prefix: ['ip', 'netns', 'exec', ns.svc],
    });
    const all = (v: Record<string, string>, want: string) => Object.values(v).every((s) => s === want);
    await slowly(
      'every view of every monitor up',
      async () => {
        const a = await Promise.all((['all3', 'pair', 'solo'] as const).map(monitor));
        return a.every((m) => m.state.status === 'up' && all(views(m), 'up'));
      },
      40_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; far's last lines:\n${agents.far?.child.tail()}`);
    });
    expect(views(await monitor('all3'))).toEqual({ local: 'up', near: 'up', far: 'up' });

    failing.add('all3@far');
    failing.add('pair@loopback');
    await slowly(
      "far's down view of all3 and local's of pair",
      async () => views(await monitor('all3')).far === 'down' && views(await monitor('pair')).local === 'down',
      30_000,
    );
    for (const name of ['all3', 'pair'] as const) {
      const m = await monitor(name);
      expect(m.state.status).toBe('up');
      expect(m.state.note).toMatch(/^kept: the locations online do not agree yet \(\d must agree\)$/);
    }
  }, 120_000);

  it('cut off, far keeps its last votes for 60 s, then is offline (a line, a notice) and they stop counting', async () => {
    cutAt = Date.now();
    ns.cut();
    failing.add('solo@far');
    // Far sees all3 and solo well again 25 s into the cut: the failures it spooled before are
    // stale (older than 2 intervals) by the time it is back, and the rest is all up.
    await sleep(25_000);
    healedAt = Date.now();
    failing.delete('all3@far');
    failing.delete('solo@far');
    expect(failedFar.solo).toBeGreaterThanOrEqual(2);
    // Not offline yet, so its last word still counts: local alone does not make pair Down.
    expect(await farState()).toBe('online');
    expect((await monitor('pair')).state.status).toBe('up');

    await slowly('far offline', async () => (await farState()) === 'offline', OFFLINE_MS);
    timings.offlineAfterMs = Date.now() - cutAt;
    // Counted from its last contact, which came a few seconds before the cut at most (a result
    // or a long poll's answer).
    expect(timings.offlineAfterMs).toBeGreaterThanOrEqual(OFFLINE_MS - 5_000);
    await slowly(
      'the offline line',
      async () =>
        (await locationLines()).some((t) => /^Location "far" is offline: no contact from its agent since/.test(t)),
      10_000,
    );
    failing.add('all3@loopback');

    // Pair: far's up no longer counts, and local's down is a majority of the one online.
    await slowly('pair down on local alone', async () => (await monitor('pair')).state.status === 'down', 30_000);
    // The line is written with the writer's next commit (durable before announced).
    const [down] = await waitFor("pair's down line on disk", async () => {
      const lines = await downs('pair');
      return lines.length ? lines : null;
    });
    timings.pairDownAfterMs = down.at - cutAt;
    expect(timings.pairDownAfterMs).toBeGreaterThanOrEqual(OFFLINE_MS - 5_000);

    // All3: local and near down, far's down left out: 2 of 3 online cannot make the quorum of 3.
    await slowly(
      'all3 down at local and near, far offline',
      async () => JSON.stringify(views(await monitor('all3'))) === '{"local":"down","near":"down","far":"offline"}',
      30_000,
    );
    await sleep(6_000); // another round of local's retries (5 s) and near's results
    const all3 = await monitor('all3');
    expect(all3.state.status).toBe('up');
    expect(all3.state.note).toBe('kept: only 2 of 3 locations online (offline: far), and 3 must agree');
    expect(await downs('all3')).toEqual([]);

    // The notice and pair's down alert reach the owner's channel (batched for 20 s).
    await slowly(
      "the offline notice and pair's down alert",
      async () =>
        alerts().some((a) => a.type === 'notice' && a.message.includes('Location "far" is offline')) &&
        alerts().some((a) => a.type === 'down' && a.monitor?.id === ids.pair),
      40_000,
    );
  }, 240_000);

  it('back, far is online again (a line, a notice); its spool arrives in order, the stale part as history only', async () => {
    const kept = spooled(spools.far);
    expect(kept.length).toBeGreaterThan(0);
    // Far kept checking during the cut: its spool holds solo's failures from before healedAt.
    expect(kept.filter((r) => r.monitor === ids.solo && r.at > cutAt && r.at < healedAt).length).toBeGreaterThan(0);
    const restoredAt = Date.now();
    ns.restore();
    await slowly('far online again', async () => (await farState()) === 'online', 90_000).catch((err: Error) => {
      throw new Error(`${err.message}; far's last lines:\n${agents.far?.child.tail()}`);
    });
    timings.backAfterMs = Date.now() - restoredAt;
    timings.cutMs = restoredAt - cutAt;
    await slowly(
      'the back line',
      async () => (await locationLines()).some((t) => t === 'Location "far" is back online: its results count again'),
      10_000,
    );

    // Every spooled result is stored, and acknowledged.
    const stored = () =>
      query<{ monitor_id: number; at: number; outcome: number; info: string | null }>(
        service.dbFile,
        'SELECT monitor_id, at, outcome, info FROM location_results WHERE location_id = ? AND at >= ?',
        [loc.far.id, kept[0].at],
      );
    await waitFor(
      'the spool stored',
      async () => {
        const have = new Set((await stored()).map((r) => `${r.monitor_id}@${r.at}`));
        return kept.every((r) => have.has(`${r.monitor}@${r.at}`));
      },
      30_000,
    );
    const [{ acked_seq }] = await query<{ acked_seq: number }>(
      service.dbFile,
      'SELECT acked_seq FROM locations WHERE id = ?',
      [loc.far.id],
    );
    expect(acked_seq).toBeGreaterThanOrEqual(kept[kept.length - 1].seq);
    // In order: the seqs reached the service oldest first (a retried batch repeats, never goes back).
    const keptSeqs = new Set(kept.map((r) => r.seq));
    const arrived = [...new Set(tap.seqs)].filter((s) => keptSeqs.has(s));
    expect(arrived).toEqual(kept.map((r) => r.seq));

    // What far checked early in the cut arrived late: stored as history, not counted.
    const rows = await stored();
    const early = rows.filter((r) => r.at > cutAt && r.at < healedAt);
    expect(early.filter((r) => r.monitor_id === ids.solo && r.outcome === DOWN).length).toBeGreaterThan(0);
    expect(early.filter((r) => r.monitor_id === ids.all3 && r.outcome === DOWN).length).toBeGreaterThan(0);
    for (const r of early) expect(r.info).toContain('not counted: it arrived late');
    expect(Date.now() - healedAt).toBeGreaterThan(STALE_MS);
    // So no state moved on them: solo never went Down, nor all3 (whose far view was down then,
    // with local and near down now: counted, it would have made the quorum of 3).
    expect(await downs('solo')).toEqual([]);
    expect(await downs('all3')).toEqual([]);
    expect((await monitor('solo')).state.status).toBe('up');
    // Far votes again on its fresh results only (its view from before the cut was forgotten).
    await slowly('a fresh up of all3 from far', async () => views(await monitor('all3')).far === 'up', 30_000);
    expect((await monitor('all3')).state.status).toBe('up');
    expect((await monitor('pair')).state.status).toBe('down');
    expect(agents.far?.lines.some((l) => /results reach the service again/.test(l))).toBe(true);

    await slowly(
      'the back notice',
      async () => alerts().some((a) => a.type === 'notice' && a.message.includes('Location "far" is back online')),
      40_000,
    );
    const alerted = alerts().filter((a) => a.type === 'down' || a.type === 'up');
    expect(alerted.map((a) => [a.type, a.monitor?.id])).toEqual([['down', ids.pair]]);
  }, 240_000);
});
