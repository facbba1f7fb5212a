/**
 * `farsight agent` as a process (the built dist/main.js; `npm run build` first) against a stand-in
 * of the service's agent routes written from docs/agents.md (support/protocol-server.ts): it learns
 * its monitors and their changes within seconds, batches at most one POST a second, survives kill -9
 * mid-batch without sending an acknowledged result as new, keeps its spool bounded while the service
 * is down, and stops cleanly on SIGTERM.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { AgentProcess } from '../../harness/agent';
import { removeDir, SERVICE_ENTRY, tempDir } from '../../harness/paths';
import { ProtocolServer } from './support/protocol-server';
import { waitFor } from '../support/wait-for';

const TOKEN = 'fsa_0123456789abcdef0123456789abcdef0123456789abcdef';

const tcpMonitor = (id: number, port: number) => ({
  id,
  slug: `tcp-${id}`,
  name: `TCP ${id}`,
  kind: 'tcp',
  interval_s: 1,
  timeout_ms: 2_000,
  retry_interval_s: 1,
  slow_ms: null,
  config: { host: '127.0.0.1', port, send: null, expect_banner: null, ip_version: 'auto' },
});

function spooled(dir: string): number[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('seg-'))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => (JSON.parse(line) as { seq: number }).seq);
}

describe('farsight agent (process)', () => {
  let target: net.Server;
  let port: number;
  let closedPort: number;
  let emulator: ProtocolServer;
  let server: string;
  let spoolDir: string;
  const agents: AgentProcess[] = [];
  const start = (env: Record<string, string> = {}) => {
    const a = new AgentProcess({ server, token: TOKEN, spoolDir, env });
    agents.push(a);
    return a;
  };

  beforeAll(async () => {
    if (!fs.existsSync(SERVICE_ENTRY)) throw new Error(`${SERVICE_ENTRY} is missing: run npm run build first`);
    target = net.createServer((s) => s.end());
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    port = (target.address() as net.AddressInfo).port;
    const other = net.createServer();
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    closedPort = (other.address() as net.AddressInfo).port;
    await new Promise((r) => other.close(r));
  });
  afterAll(() => new Promise((r) => target.close(r)));

  beforeEach(async () => {
    emulator = new ProtocolServer(TOKEN);
    server = await emulator.listen();
    spoolDir = tempDir('agent-spool');
  });
  afterEach(async () => {
    for (const a of agents.splice(0)) await a.stop(5_000);
    await emulator.close();
    removeDir(spoolDir);
  });

  it('learns its monitors and their changes within seconds, and sends every check in order, at most one POST a second', async () => {
    emulator.assign([tcpMonitor(1, port), tcpMonitor(2, port), tcpMonitor(3, port)]);
    const agent = start();
    await agent.waitForLine(/assignment \(revision 2\) for location "emulated": 3 monitors/);
    await waitFor('9 results', () => emulator.stored.size >= 9, 10_000);
    const changedAt = Date.now();
    emulator.assign([tcpMonitor(1, port), tcpMonitor(4, closedPort)]);
    await waitFor('a result of monitor 4', () => [...emulator.stored.values()].some((r) => r.monitor_id === 4), 5_000);
    expect(Date.now() - changedAt).toBeLessThan(3_000);
    const four = [...emulator.stored.values()].find((r) => r.monitor_id === 4);
    expect(four?.result).toMatchObject({ outcome: 'down', error: { code: 'refused' } });
    // Monitors 2 and 3 are no longer checked once the change is in.
    const cut = Math.max(...emulator.stored.keys());
    await new Promise((r) => setTimeout(r, 2_500));
    const after = [...emulator.stored.values()].filter((r) => r.seq > cut + 2);
    expect(after.some((r) => r.monitor_id === 2 || r.monitor_id === 3)).toBe(false);

    const seqs = emulator.posts.flatMap((p) => p.seqs);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    // Only an outcome that changed may go sooner than a second after the previous POST.
    const quick = emulator.posts.slice(1).filter((p, i) => p.at - emulator.posts[i].at < 950);
    expect(quick.length).toBeLessThanOrEqual(1);
    expect(emulator.posts.every((p) => p.version === '0.1.0' && p.blind === false)).toBe(true);
  }, 40_000);

  it('after kill -9 mid-batch, never sends an acknowledged result as new and sends the rest again in order, with their seq', async () => {
    emulator.assign([tcpMonitor(1, port), tcpMonitor(2, port)]);
    const first = start();
    await waitFor('4 results acknowledged', () => emulator.ackedSeq > 0 && emulator.stored.size >= 4, 10_000);
    emulator.mode = 'hold-results';
    await waitFor('a held POST', () => emulator.posts.some((p) => p.acked === null), 5_000);
    const ackedBefore = emulator.ackedSeq;
    const held = emulator.posts.find((p) => p.acked === null)?.seqs ?? [];
    await first.kill9();
    // What reached the disk and was not acknowledged: all of it must reach the service, once.
    const unacked = spooled(spoolDir).filter((s) => s > ackedBefore);
    expect(unacked.length).toBeGreaterThanOrEqual(held.length);
    const postsBefore = emulator.posts.length;
    emulator.mode = 'normal';

    start();
    await waitFor('the spooled results acknowledged', () => emulator.ackedSeq > Math.max(...unacked) + 2, 10_000);
    const resent = emulator.posts.slice(postsBefore).flatMap((p) => p.seqs);
    expect(resent.filter((s) => s <= ackedBefore)).toEqual([]);
    // The held batch and the rest of the spool first, in order, with their seqs; then new results.
    expect(resent.slice(0, unacked.length)).toEqual(unacked);
    expect(resent.slice(0, held.length)).toEqual(held);
    expect(resent).toEqual([...resent].sort((a, b) => a - b));
    expect(new Set(resent).size).toBe(resent.length);
    for (const s of unacked) expect(emulator.stored.has(s)).toBe(true);
  }, 40_000);

  it('keeps its spool within its bound while the service is down, dropping the oldest, then sends what it kept in order', async () => {
    emulator.assign(Array.from({ length: 10 }, (_, i) => tcpMonitor(i + 1, port)));
    const agent = start({ FARSIGHT_AGENT_SPOOL_MAX_RESULTS: '20' });
    await waitFor('10 results', () => emulator.stored.size >= 10, 10_000);
    emulator.mode = 'refuse';
    await agent.waitForLine(/the spool is full: the \d+ oldest unsent results were dropped/, 15_000);
    for (let i = 0; i < 10; i += 1) {
      expect(spooled(spoolDir).length).toBeLessThanOrEqual(20);
      await new Promise((r) => setTimeout(r, 300));
    }
    const lastBefore = emulator.ackedSeq;
    const postsBefore = emulator.posts.length;
    emulator.mode = 'normal';
    await waitFor(
      'a POST after the outage',
      () => emulator.posts.slice(postsBefore).some((p) => p.acked !== null),
      70_000,
    );
    const sent = emulator.posts
      .slice(postsBefore)
      .filter((p) => p.acked !== null)
      .flatMap((p) => p.seqs);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    // The oldest results of the outage were dropped: a gap after the last acknowledged one.
    expect(sent[0]).toBeGreaterThan(lastBefore + 1);
  }, 100_000);

  it('on SIGTERM sends what it holds and exits 0; a refused token is said in words, not in a crash', async () => {
    emulator.assign([tcpMonitor(1, port)]);
    const agent = start();
    await waitFor('2 results', () => emulator.stored.size >= 2, 10_000);
    expect(await agent.stop(10_000)).toBe(0);
    await agent.waitForLine(/stopped \(\d+ results acknowledged since start; 0 kept in the spool/);

    emulator.token = 'fsa_rotated';
    const refused = start();
    await refused.waitForLine(
      /refused the token \(401: sign_in: unknown token\); it was rotated or the location removed/,
    );
    expect(refused.lines.join('\n')).not.toContain(TOKEN);
    expect(await refused.stop(10_000)).toBe(0);
  }, 40_000);

  it.each([
    [
      { FARSIGHT_AGENT_SERVER: 'http://192.0.2.1:8080' },
      /FARSIGHT_AGENT_SERVER: http is only allowed to a loopback address/,
    ],
    [{ FARSIGHT_AGENT_TOKEN: '' }, /FARSIGHT_AGENT_TOKEN is not set/],
    [{ FARSIGHT_AGENT_SPOOL_MAX_BYTES: 'lots' }, /FARSIGHT_AGENT_SPOOL_MAX_BYTES: expected a size/],
  ])('refuses to start with %j: one line naming the variable, exit 2', (env, message) => {
    const run = spawnSync(process.execPath, [SERVICE_ENTRY, 'agent'], {
      env: { PATH: process.env.PATH, FARSIGHT_AGENT_SERVER: server, FARSIGHT_AGENT_TOKEN: TOKEN, ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
