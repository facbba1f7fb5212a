/**
 * Several `farsight agent` processes (the built dist/main.js) against one built service on
 * loopback, through a link the test can cut (support/link.ts): each agent checks only its
 * location's monitors and the service stores their results per location; a change reaches an agent
 * within seconds; kill -9 of an agent mid-batch loses nothing that reached its spool; its spool
 * keeps its bound while the service is unreachable and is sent when it is back; an agent cut off
 * goes offline at the service (a notice) and online again; rotating a token locks the running
 * agent out at once. North's link is cut after the first test and its offline checked last, so
 * its 60 s of silence overlap the other tests.
 */
import * as net from 'node:net';
import * as sqlite3 from 'sqlite3';
import { AgentProcess } from '../../harness/agent';
import { requestJson } from '../../harness/http-client';
import { removeDir, tempDir } from '../../harness/paths';
import { KeyPool, Service } from '../../harness/service';
import { waitFor } from '../support/wait-for';
import { Link, startLink } from './support/link';
import { spooled } from './support/spool-files';

jest.setTimeout(240_000);

function query<T>(file: string, sql: string): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      db.all(sql, (e, rows) => {
        db.close();
        if (e) reject(e);
        else resolve(rows as T[]);
      });
    });
  });
}

/** waitFor at an API client's pace: the service's rate limit is 600 requests a minute. */
async function slowly(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('agents against the built service', () => {
  const dataDir = tempDir('agents-svc');
  const spools = { east: tempDir('agent-east'), west: tempDir('agent-west'), north: tempDir('agent-north') };
  let service: Service;
  let keys: KeyPool;
  let link: Link;
  /** North's own link: cut after the first test, so its 60 s of silence pass while the others run. */
  let northLink: Link;
  let northCutAt = 0;
  let target: net.Server;
  let port: number;
  const loc: Record<'east' | 'west' | 'north', { id: number; token: string }> = {} as never;
  const ids: Record<string, number> = {};
  const agents: Partial<Record<'east' | 'west' | 'north', AgentProcess>> = {};

  const api = <T = Record<string, unknown>>(method: string, p: string, body?: unknown) =>
    requestJson<T>(method, `${service.url}/api/v1${p}`, { headers: keys.header(), body });
  const rows = (where: string) =>
    query<{ monitor_id: number; location_id: number; at: number; outcome: number }>(
      service.dbFile,
      `SELECT monitor_id, location_id, at, outcome FROM location_results WHERE ${where}`,
    );
  const startAgent = (name: 'east' | 'west' | 'north', env: Record<string, string> = {}) => {
    const url = name === 'north' ? northLink.url : link.url;
    agents[name] = new AgentProcess({ server: url, token: loc[name].token, spoolDir: spools[name], env });
    return agents[name];
  };

  beforeAll(async () => {
    target = net.createServer((s) => s.end());
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    port = (target.address() as net.AddressInfo).port;
    service = await Service.start({ dataDir, env: { FARSIGHT_CANARIES: 'off' } });
    keys = await service.adminKeys(1);
    link = await startLink(Number(new URL(service.url).port));
    northLink = await startLink(Number(new URL(service.url).port));
    loc.east = await service.createLocation('east');
    loc.west = await service.createLocation('west');
    loc.north = await service.createLocation('north');
    const make = async (name: string, locations: string[]) => {
      const m = await api<{ id: number }>('POST', '/monitors', {
        name,
        kind: 'tcp',
        locations,
        interval_s: 10,
        timeout_ms: 2_000,
        tcp: { host: '127.0.0.1', port },
      });
      ids[name] = m.id;
    };
    await make('only-east', ['local', 'east']);
    await make('both', ['east', 'west']);
    await make('only-west', ['west']);
    await make('only-north', ['north']);
    // Enough monitors on east for results every second or so (interval_s is at least 10).
    for (let i = 0; i < 12; i += 1) await make(`east-${i}`, ['east']);
  });

  afterAll(async () => {
    for (const a of Object.values(agents)) await a?.stop(5_000);
    await link?.close();
    await northLink?.close();
    await service?.stop();
    await new Promise((r) => target.close(r));
    for (const d of [dataDir, ...Object.values(spools)]) removeDir(d);
  });

  it("checks each location's monitors from its agent, and only those; the locations show online", async () => {
    startAgent('east');
    startAgent('west');
    startAgent('north');
    const want = [
      ['only-east', 'east'],
      ['both', 'east'],
      ['both', 'west'],
      ['only-west', 'west'],
      ['only-north', 'north'],
    ] as const;
    for (const [m, l] of want)
      await waitFor(`a result of ${m} from ${l}`, async () =>
        (await rows(`monitor_id = ${ids[m]} AND location_id = ${loc[l].id}`)).length > 0 ? true : null,
      );
    expect(await rows(`monitor_id = ${ids['only-east']} AND location_id = ${loc.west.id}`)).toEqual([]);
    expect(await rows(`monitor_id = ${ids['only-west']} AND location_id = ${loc.east.id}`)).toEqual([]);
    const list = await api<{ items: { name: string; state: string; version: string | null }[] }>('GET', '/locations');
    expect(list.items.map((l) => [l.name, l.state, l.version])).toEqual([
      ['east', 'online', '0.1.0'],
      ['west', 'online', '0.1.0'],
      ['north', 'online', '0.1.0'],
    ]);
    // North's uplink dies now; the last test sees it go offline (its 60 s pass during the others).
    northLink.cut();
    northCutAt = Date.now();
  });

  it('hears a reassignment within seconds and checks the monitor at once', async () => {
    const west = agents.west as AgentProcess;
    const since = Date.now();
    await api('PATCH', `/monitors/${ids['only-east']}`, { locations: ['local', 'east', 'west'] });
    await west.waitForLine(/new assignment \(revision \S+\) for location "west": 3 monitors \(1 added/, 5_000);
    await waitFor(
      'a result of only-east from west',
      async () =>
        (await rows(`monitor_id = ${ids['only-east']} AND location_id = ${loc.west.id}`)).length ? true : null,
      5_000,
    );
    expect(Date.now() - since).toBeLessThan(5_000);
  });

  it('after kill -9 of an agent mid-batch, sends everything its spool held once it is back', async () => {
    const east = agents.east as AgentProcess;
    await waitFor('a few east results', async () =>
      (await rows(`location_id = ${loc.east.id}`)).length >= 10 ? true : null,
    );
    // Cut, so results pile up in the spool and a POST is cut short, then kill while it retries.
    link.cut();
    try {
      await waitFor('results in the spool', () => spooled(spools.east).length >= 4, 20_000);
    } catch (err) {
      // Mended before failing: the tests after this one need the link.
      link.mend();
      throw new Error(`${(err as Error).message}; east's last lines:\n${east.child.tail()}`);
    }
    await east.kill9();
    const left = spooled(spools.east);
    expect(left.map((r) => r.seq)).toEqual([...left.map((r) => r.seq)].sort((x, y) => x - y));
    link.mend();
    startAgent('east');
    await waitFor(
      'the spool stored',
      async () => {
        for (const r of left)
          if ((await rows(`monitor_id = ${r.monitor} AND location_id = ${loc.east.id} AND at = ${r.at}`)).length === 0)
            return null;
        return true;
      },
      20_000,
    );
    const acked = await query<{ acked_seq: number }>(
      service.dbFile,
      `SELECT acked_seq FROM locations WHERE id = ${loc.east.id}`,
    );
    expect(acked[0].acked_seq).toBeGreaterThanOrEqual(left[left.length - 1].seq);
  });

  it('keeps its spool within its bound while the service is unreachable, then sends what it kept', async () => {
    await (agents.east as AgentProcess).stop(5_000);
    const east = startAgent('east', { FARSIGHT_AGENT_SPOOL_MAX_RESULTS: '12' });
    await east.waitForLine(/assignment \(revision/);
    link.cut();
    await east.waitForLine(/the spool is full: the \d+ oldest unsent results were dropped/, 60_000);
    for (let i = 0; i < 5; i += 1) {
      expect(spooled(spools.east).length).toBeLessThanOrEqual(12);
      await new Promise((r) => setTimeout(r, 400));
    }
    // Stopped while cut off: what it holds stays in the spool for the next start.
    expect(await east.stop(15_000)).toBe(0);
    const kept = spooled(spools.east);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(12);
    link.mend();
    startAgent('east', { FARSIGHT_AGENT_SPOOL_MAX_RESULTS: '12' });
    await waitFor(
      'the kept results stored',
      async () => {
        for (const r of kept)
          if ((await rows(`monitor_id = ${r.monitor} AND location_id = ${loc.east.id} AND at = ${r.at}`)).length === 0)
            return null;
        return true;
      },
      20_000,
    );
  });

  it('locks the running agent out at once when its token is rotated; the new token lets it back in', async () => {
    const west = agents.west as AgentProcess;
    // West went through the short cuts above too: it is back once a fresh result of it is stored.
    const from = Date.now();
    await waitFor(
      'west back after the cuts',
      async () => ((await rows(`location_id = ${loc.west.id} AND at > ${from}`)).length ? true : null),
      70_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; west's last lines:\n${west.child.tail()}`);
    });
    const rotated = await api<{ token: string }>('POST', `/locations/${loc.west.id}/token`);
    const at = Date.now();
    await west.waitForLine(/the service refused the token \(401/, 5_000);
    expect(Date.now() - at).toBeLessThan(3_000);
    expect(west.lines.join('\n')).not.toContain(loc.west.token);
    expect(await west.stop(10_000)).toBe(0);
    loc.west.token = rotated.token;
    const again = startAgent('west');
    await again.waitForLine(/assignment \(revision/, 10_000);
  });

  it('goes offline at the service after 60 s without contact (a notice), and online again when the link is back', async () => {
    const location = async (name: string) =>
      (
        await api<{ items: { name: string; state: string; last_seen_at: string | null }[] }>('GET', '/locations')
      ).items.find((l) => l.name === name);
    const state = async (name: string) => (await location(name))?.state;
    try {
      let offline: { at: number; lastSeen: number } | null = null;
      await slowly(
        'north offline',
        async () => {
          const l = await location('north');
          if (l?.state === 'offline') offline = { at: Date.now(), lastSeen: Date.parse(l.last_seen_at ?? '') };
          return offline !== null;
        },
        90_000,
      );
      // The 60 s of docs/agents.md (3 intervals of 10 s is less), counted from the last contact the
      // service heard, which came before the cut. Not from the cut: north's last request may have
      // come seconds before it (its results go every 10 s, its long poll is held open).
      const { at, lastSeen } = offline!;
      expect(lastSeen).toBeLessThanOrEqual(northCutAt);
      expect(at - lastSeen).toBeGreaterThanOrEqual(60_000);
      // The timeline line comes with the service's next sweep (every 5 s).
      await slowly(
        'the offline line of north',
        async () =>
          (await api<{ items: { text: string }[] }>('GET', '/events?kind=location&limit=10')).items.some((l) =>
            /^Location "north" is offline: no contact from its agent since/.test(l.text),
          ),
        10_000,
      );
    } finally {
      northLink.mend();
    }
    await slowly('north online again', async () => (await state('north')) === 'online', 70_000);
  }, 200_000);
});
