/**
 * The quorum rule end to end, on the built service (docs/agents.md, "Quorum"): a monitor checked
 * from `local` and one agent (a test client speaking the protocol) needs both to say Down with the
 * default quorum (a majority of the two online); with quorum 1 either one is enough. The local
 * target is a real server on 127.0.0.1 the test turns bad; `state.locations` shows each view.
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
    incident_id: number | null;
    note: string | null;
    locations: { name: string; status: string }[];
  };
}

describe('quorum (built service)', () => {
  const dataDir = tempDir('quorum');
  let service: Service;
  let keys: KeyPool;
  let target: http.Server;
  let healthy = true;
  let url: string;
  let agent: AgentClient;
  let seq = 0;

  const api = <T>(method: string, path: string, body?: unknown) =>
    requestJson<T>(method, `${service.url}/api/v1${path}`, { headers: keys.header(), body });
  const monitor = (id: number) => api<Answer>('GET', `/monitors/${id}`);
  const checkNow = (id: number) => api('POST', `/monitors/${id}/check`);
  const vote = (id: number, outcome: 'up' | 'down') =>
    agent.results([{ seq: ++seq, monitor_id: id, at: new Date().toISOString(), result: checkResult(outcome) }]);
  const views = (a: Answer) => Object.fromEntries(a.state.locations.map((l) => [l.name, l.status]));

  beforeAll(async () => {
    target = http.createServer((_, res) => {
      res.statusCode = healthy ? 200 : 503;
      res.end(healthy ? 'ok' : 'down');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    service = await Service.start({ dataDir });
    keys = await service.adminKeys(1);
    const vps = await service.createLocation('vps');
    agent = new AgentClient(service.url, vps.token);
    // First contact: the location is online from now.
    expect((await agent.config(undefined, 0)).status).toBe(200);
  });

  afterAll(async () => {
    await service.stop();
    removeDir(dataDir);
    await new Promise((resolve) => target.close(resolve));
  });

  beforeEach(() => {
    healthy = true;
  });

  const create = async (name: string, quorum: number | null) =>
    (
      await api<{ id: number }>('POST', '/monitors', {
        name,
        kind: 'http',
        locations: ['local', 'vps'],
        quorum,
        interval_s: 300,
        confirm_after: 1,
        recover_after: 1,
        http: { url },
      })
    ).id;

  it('with a majority of two, one Down view keeps the monitor Up and says so; both make it Down', async () => {
    const id = await create('majority', null);
    await checkNow(id);
    await vote(id, 'up');
    expect((await monitor(id)).state.status).toBe('up');
    expect(views(await monitor(id))).toEqual({ local: 'up', vps: 'up' });

    await vote(id, 'down');
    const split = await monitor(id);
    expect(views(split)).toEqual({ local: 'up', vps: 'down' });
    expect(split.state.status).toBe('up');
    expect(split.state.note).toContain('must agree');

    healthy = false;
    await checkNow(id);
    const down = await monitor(id);
    expect(views(down)).toEqual({ local: 'down', vps: 'down' });
    expect(down.state.status).toBe('down');
    expect(down.state.incident_id).not.toBeNull();

    healthy = true;
    await checkNow(id);
    await vote(id, 'up');
    expect((await monitor(id)).state.status).toBe('up');
  });

  it('with quorum 1, the agent alone makes it Down while the service sees it Up', async () => {
    const id = await create('any-one', 1);
    await checkNow(id);
    await vote(id, 'down');
    const a = await monitor(id);
    expect(views(a)).toEqual({ local: 'up', vps: 'down' });
    expect(a.state.status).toBe('down');
  });

  it('a blind agent is no Down vote', async () => {
    const id = await create('blind', 1);
    await checkNow(id);
    await agent.results(
      [{ seq: ++seq, monitor_id: id, at: new Date().toISOString(), result: checkResult('down') }],
      true,
    );
    const a = await monitor(id);
    expect(a.state.status).toBe('up');
    expect(views(a).vps).toBe('unknown');
  });

  it('a monitor checked only from the agent is not checked by the service', async () => {
    const only = (
      await api<{ id: number }>('POST', '/monitors', {
        name: 'remote-only',
        kind: 'http',
        locations: ['vps'],
        interval_s: 300,
        confirm_after: 1,
        http: { url },
      })
    ).id;
    await vote(only, 'up');
    const a = await monitor(only);
    expect(a.state.status).toBe('up');
    expect(a.state.locations.map((l) => l.name)).toEqual(['vps']);
  });
});
