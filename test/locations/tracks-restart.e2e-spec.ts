/**
 * Each location's track survives a restart of the built service (docs/agents.md, "Quorum", rule 8):
 * rebuilt at start from the last results the location stored (the service's own checks for
 * `local`), so `state.locations` shows where each stood and a quorum that was met is met again without waiting for the agent's next
 * results. The agent is a test client of the protocol (it sends nothing after the restart); the
 * local target is a real server on 127.0.0.1 the test turns bad.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentClient, checkResult } from '../../harness/agent-client';
import { requestJson } from '../../harness/http-client';
import { removeDir, tempDir } from '../../harness/paths';
import { KeyPool, Service } from '../../harness/service';

jest.setTimeout(180_000);

interface Answer {
  state: {
    status: string;
    note: string | null;
    incident_id: number | null;
    locations: { name: string; status: string; latency_ms: number | null; at: string | null; error: unknown }[];
  };
}

describe("locations' tracks after a restart (built service)", () => {
  const dataDir = tempDir('tracks-restart');
  let service: Service;
  let keys: KeyPool;
  let target: http.Server;
  let healthy = true;
  let url: string;
  let killToken: string;

  const api = <T>(method: string, path: string, body?: unknown) =>
    requestJson<T>(method, `${service.url}/api/v1${path}`, { headers: keys.header(), body });
  const monitor = (id: number) => api<Answer>('GET', `/monitors/${id}`);

  beforeAll(async () => {
    target = http.createServer((_, res) => {
      res.statusCode = healthy ? 200 : 503;
      res.end(healthy ? 'ok' : 'down');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    service = await Service.start({ dataDir });
    keys = await service.adminKeys(1);
    // Locations are made with the owner's session, which a restarted service's harness has not.
    killToken = (await service.createLocation('vps-kill')).token;
  });

  afterAll(async () => {
    await service?.stop();
    removeDir(dataDir);
    await new Promise((resolve) => target.close(resolve));
  });

  it("shows each agent's view after the restart, and the quorum it made is met again on the next local check", async () => {
    const vps = await service.createLocation('vps');
    const edge = await service.createLocation('edge');
    const create = (name: string, locations: string[], confirm: number) =>
      api<{ id: number }>('POST', '/monitors', {
        name,
        kind: 'http',
        locations,
        interval_s: 300,
        confirm_after: confirm,
        recover_after: 1,
        http: { url },
      });
    // Local plus one agent, a majority of two: the agent's Down waits for the service's own.
    const pair = (await create('pair', ['local', 'vps'], 1)).id;
    // Two agents, confirm_after 2: vps has one failure of two (Up still), edge two (Down).
    const agents = (await create('agents', ['vps', 'edge'], 2)).id;
    let seq = 0;
    const at = (ago: number) => new Date(Date.now() - ago).toISOString();
    const vpsAgent = new AgentClient(service.url, vps.token);
    const edgeAgent = new AgentClient(service.url, edge.token);
    await api('POST', `/monitors/${pair}/check`);
    expect(
      (
        await vpsAgent.results([
          { seq: ++seq, monitor_id: agents, at: at(3000), result: checkResult('up', 20) },
          { seq: ++seq, monitor_id: agents, at: at(2000), result: checkResult('down', 21) },
          { seq: ++seq, monitor_id: pair, at: at(1000), result: checkResult('down', 33) },
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await edgeAgent.results([
          { seq: 1, monitor_id: agents, at: at(2500), result: checkResult('down', 40) },
          { seq: 2, monitor_id: agents, at: at(1500), result: checkResult('down', 41) },
        ])
      ).status,
    ).toBe(200);
    const before = { pair: await monitor(pair), agents: await monitor(agents) };
    expect(before.pair.state.status).toBe('up');
    expect(before.pair.state.locations.map((l) => [l.name, l.status])).toEqual([
      ['local', 'up'],
      ['vps', 'down'],
    ]);
    expect(before.agents.state.locations.map((l) => [l.name, l.status])).toEqual([
      ['vps', 'up'],
      ['edge', 'down'],
    ]);

    await service.stop();
    service = await Service.start({ dataDir });

    // Every row stands as it stood (status, latency, time, error), the service's own too, not unknown.
    const after = { pair: await monitor(pair), agents: await monitor(agents) };
    expect(after.agents.state.locations).toEqual(before.agents.state.locations);
    expect(after.pair.state.locations).toEqual(before.pair.state.locations);
    expect(after.pair.state.status).toBe('up');

    // vps's one failure of two was counted before the stop: one more makes it Down (confirm_after 2).
    const vpsAgain = new AgentClient(service.url, vps.token);
    await vpsAgain.results([{ seq: ++seq, monitor_id: agents, at: at(500), result: checkResult('down', 22) }]);
    const agentsDown = await monitor(agents);
    expect(agentsDown.state.locations.map((l) => l.status)).toEqual(['down', 'down']);
    expect(agentsDown.state.status).toBe('down');

    // The service's own check now fails too: with vps's Down from before the stop, the majority is met.
    healthy = false;
    await api('POST', `/monitors/${pair}/check`);
    const pairDown = await monitor(pair);
    expect(pairDown.state.locations.map((l) => l.status)).toEqual(['down', 'down']);
    expect(pairDown.state.status).toBe('down');
    expect(pairDown.state.incident_id).not.toBeNull();
  });

  it("after a kill -9, the service's own results still in the log rebuild its track", async () => {
    const vps = new AgentClient(service.url, killToken);
    healthy = true;
    const id = (
      await api<{ id: number }>('POST', '/monitors', {
        name: 'killed',
        kind: 'http',
        locations: ['local', 'vps-kill'],
        interval_s: 300,
        confirm_after: 2,
        recover_after: 1,
        http: { url },
      })
    ).id;
    const at = (ago: number) => new Date(Date.now() - ago).toISOString();
    await vps.results([
      { seq: 1, monitor_id: id, at: at(2000), result: checkResult('down') },
      { seq: 2, monitor_id: id, at: at(1000), result: checkResult('down') },
    ]);
    // The service's first check of a new monitor (Up), then one failure of the two that confirm:
    // its own view is not Down yet.
    for (let i = 0; i < 100 && (await monitor(id)).state.locations[0].at === null; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    healthy = false;
    await api('POST', `/monitors/${id}/check`);
    const before = await monitor(id);
    expect(before.state.locations.map((l) => l.status)).toEqual(['up', 'down']);
    expect(before.state.status).not.toBe('down');
    // Its row changed, so the commit that carries it comes within a second; then the kill.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    process.kill(service.pid, 'SIGKILL');
    await service.child.exited;
    service = await Service.start({ dataDir });

    const after = await monitor(id);
    expect(after.state.locations).toEqual(before.state.locations);
    // The second failure confirms the service's own Down: with vps's, the majority is met.
    await api('POST', `/monitors/${id}/check`);
    const down = await monitor(id);
    expect(down.state.locations.map((l) => l.status)).toEqual(['down', 'down']);
    expect(down.state.status).toBe('down');
  });
});
