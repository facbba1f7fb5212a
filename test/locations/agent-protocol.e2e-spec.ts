/**
 * The agent protocol v1 (docs/agents.md) against the built service, spoken by a test client
 * (harness/agent-client.ts), not by the real agent: the config long poll and its revisions, the
 * token (only on /api/agent/*, nothing else there, rotation and deletion lock it out at once),
 * results acknowledged only once stored, idempotent retries, and hostile batches refused whole
 * with nothing stored.
 */
import * as sqlite3 from 'sqlite3';
import { AgentClient, checkResult } from '../../harness/agent-client';
import { request, requestJson } from '../../harness/http-client';
import { removeDir, tempDir } from '../../harness/paths';
import { KeyPool, Service } from '../../harness/service';

jest.setTimeout(180_000);

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

describe('agent protocol v1 (built service)', () => {
  const dataDir = tempDir('agents');
  let service: Service;
  let keys: KeyPool;
  let vps: { id: number; token: string };
  let other: { id: number; token: string };
  let assigned: number;
  let elsewhere: number;
  let agent: AgentClient;

  const api = (method: string, path: string, body?: unknown) =>
    requestJson<Record<string, unknown>>(method, `${service.url}/api/v1${path}`, { headers: keys.header(), body });
  const stored = async () =>
    (await query<{ n: number }>(service.dbFile, 'SELECT COUNT(*) AS n FROM location_results'))[0].n;
  const now = () => new Date().toISOString();

  beforeAll(async () => {
    service = await Service.start({ dataDir });
    keys = await service.adminKeys(1);
    vps = await service.createLocation('vps');
    other = await service.createLocation('other');
    assigned = (
      await api('POST', '/monitors', {
        name: 'cloud',
        kind: 'http',
        locations: ['local', 'vps'],
        interval_s: 60,
        http: { url: 'http://owner:s3cret-pass@127.0.0.1:9/status' },
      })
    ).id as number;
    elsewhere = (
      await api('POST', '/monitors', {
        name: 'nas',
        kind: 'tcp',
        locations: ['other'],
        tcp: { host: '127.0.0.1', port: 9 },
      })
    ).id as number;
    await api('POST', '/monitors', { name: 'cron', kind: 'heartbeat', heartbeat: {} });
    agent = new AgentClient(service.url, vps.token);
  });

  afterAll(async () => {
    await service.stop();
    removeDir(dataDir);
  });

  it('answers the config of its location only, secrets in clear, then 204 while nothing changes', async () => {
    const first = await agent.config();
    expect(first.status).toBe(200);
    const body = JSON.parse(first.body);
    expect(body).toMatchObject({
      revision: expect.any(String),
      location: { id: vps.id, name: 'vps' },
      server_time: expect.any(String),
      allow_private_targets: expect.any(Boolean),
    });
    expect(body.monitors).toHaveLength(1);
    expect(body.monitors[0]).toMatchObject({ id: assigned, slug: 'cloud', kind: 'http', interval_s: 60 });
    expect(body.monitors[0].config.url).toBe('http://127.0.0.1:9/status');
    expect(body.monitors[0].config.auth).toMatchObject({ username: 'owner', password: 's3cret-pass' });
    // The owner's API answers the same monitor masked.
    expect(JSON.stringify(await api('GET', `/monitors/${assigned}`))).not.toContain('s3cret-pass');
    const same = await agent.config(body.revision, 0);
    expect(same.status).toBe(204);
  });

  it('wakes a waiting poll within a second when a monitor is assigned to the location', async () => {
    const { revision } = JSON.parse((await agent.config()).body);
    const poll = agent.config(revision, 20);
    await new Promise((r) => setTimeout(r, 300));
    const changed = Date.now();
    await api('PATCH', `/monitors/${elsewhere}`, { locations: ['other', 'vps'] });
    const answer = await poll;
    expect(Date.now() - changed).toBeLessThan(1500);
    expect(answer.status).toBe(200);
    const ids = JSON.parse(answer.body).monitors.map((m: { id: number }) => m.id);
    expect(ids).toEqual([assigned, elsewhere]);
    await api('PATCH', `/monitors/${elsewhere}`, { locations: ['other'] });
  });

  it.each<[string, Record<string, string>]>([
    ['no token', {}],
    ['an unknown token', { Authorization: `Bearer fsa_${'0'.repeat(48)}` }],
    ['a malformed token', { Authorization: 'Bearer fsa_short' }],
  ])('refuses %s with 401 in the envelope', async (_, headers) => {
    const a = await request('GET', `${service.url}/api/agent/config?wait_s=0`, { headers });
    expect(a.status).toBe(401);
    expect(JSON.parse(a.body)).toEqual({ error: { code: 'sign_in', message: expect.any(String) } });
  });

  it('takes no API key on the agent routes and no agent token anywhere else', async () => {
    const withKey = await request('GET', `${service.url}/api/agent/config?wait_s=0`, { headers: keys.header() });
    expect(withKey.status).toBe(401);
    const elsewhereRoute = await request('GET', `${service.url}/api/v1/monitors`, {
      headers: { Authorization: `Bearer ${vps.token}` },
    });
    expect(elsewhereRoute.status).toBe(401);
  });

  it('stores results and acknowledges them; a retry of the same batch is ignored', async () => {
    const before = await stored();
    const batch = [
      { seq: 1, monitor_id: assigned, at: now(), result: checkResult('up') },
      { seq: 2, monitor_id: assigned, at: new Date(Date.now() + 5).toISOString(), result: checkResult('up', 20) },
    ];
    const a = await agent.results(batch);
    expect([a.status, JSON.parse(a.body)]).toEqual([200, { acked_seq: 2, stored: 2, ignored: [] }]);
    // Acknowledged means on disk: another reader of the file sees the rows.
    expect(await stored()).toBe(before + 2);
    const again = await agent.results(batch);
    expect(JSON.parse(again.body)).toEqual({ acked_seq: 2, stored: 0, ignored: [] });
    expect(await stored()).toBe(before + 2);
    const loc = (await api('GET', '/locations')).items as {
      name: string;
      state: string;
      version: string;
      address: string;
    }[];
    expect(loc.find((l) => l.name === 'vps')).toMatchObject({
      state: 'online',
      version: '0.0.0-test',
      address: '127.0.0.1',
    });
  });

  it('acknowledges but ignores, with a reason, a result for a monitor not assigned, unknown, or from the future', async () => {
    const before = await stored();
    const a = await agent.results([
      { seq: 10, monitor_id: elsewhere, at: now(), result: checkResult('up') },
      { seq: 11, monitor_id: 999_999, at: now(), result: checkResult('up') },
      { seq: 12, monitor_id: assigned, at: new Date(Date.now() + 3_600_000).toISOString(), result: checkResult('up') },
      { seq: 13, monitor_id: assigned, at: now(), result: { outcome: 'sideways' } },
    ]);
    const body = JSON.parse(a.body);
    expect(body.acked_seq).toBe(13);
    expect(body.stored).toBe(0);
    expect(body.ignored.map((i: { seq: number }) => i.seq)).toEqual([10, 11, 12, 13]);
    expect(body.ignored[0].reason).toContain('not assigned');
    expect(body.ignored[2].reason).toContain('future');
    expect(await stored()).toBe(before);
  });

  it("stores an ancient result as history only, and a blind agent's results are not votes", async () => {
    const ancient = new Date(Date.now() - 3_600_000).toISOString();
    await agent.results([{ seq: 20, monitor_id: assigned, at: ancient, result: checkResult('down') }]);
    await agent.results([{ seq: 21, monitor_id: assigned, at: now(), result: checkResult('down') }], true);
    const rows = await query<{ info: string }>(
      service.dbFile,
      `SELECT info FROM location_results WHERE location_id = ${vps.id} AND outcome = 2 ORDER BY at`,
    );
    expect(rows.map((r) => JSON.parse(r.info).n)).toEqual([
      expect.stringContaining('arrived late'),
      expect.stringContaining('blind'),
    ]);
  });

  it.each<[string, unknown, string]>([
    [
      '501 results',
      {
        agent: { version: '1', blind: false },
        results: Array.from({ length: 501 }, (_, i) => ({
          seq: 100 + i,
          monitor_id: 1,
          at: new Date().toISOString(),
          result: {},
        })),
      },
      'results',
    ],
    [
      'a seq that goes back',
      {
        agent: { version: '1', blind: false },
        results: [
          { seq: 31, monitor_id: 1, at: new Date().toISOString(), result: {} },
          { seq: 30, monitor_id: 1, at: new Date().toISOString(), result: {} },
        ],
      },
      'results[1].seq',
    ],
    [
      'a seq that is not a whole number',
      {
        agent: { version: '1', blind: false },
        results: [{ seq: 30.5, monitor_id: 1, at: new Date().toISOString(), result: {} }],
      },
      'results[0].seq',
    ],
    [
      'a seq of 0',
      {
        agent: { version: '1', blind: false },
        results: [{ seq: 0, monitor_id: 1, at: new Date().toISOString(), result: {} }],
      },
      'results[0].seq',
    ],
    [
      'an at that is no time',
      { agent: { version: '1', blind: false }, results: [{ seq: 40, monitor_id: 1, at: 'yesterday', result: {} }] },
      'results[0].at',
    ],
    ['no agent', { results: [] }, 'agent'],
    ['an array body', [], 'body'],
  ])('refuses a batch with %s, whole, storing nothing', async (_, body, field) => {
    const before = await stored();
    const a = await agent.send(body);
    expect(a.status).toBe(422);
    const err = JSON.parse(a.body).error;
    expect(err.code).toBe('invalid');
    expect(err.fields[0].field).toBe(field);
    expect(await stored()).toBe(before);
  });

  it('refuses a body over 1 MB in the envelope', async () => {
    const a = await agent.send({ agent: { version: '1', blind: false }, results: [], pad: 'x'.repeat(1_100_000) });
    expect(a.status).toBe(400);
    expect(JSON.parse(a.body).error.code).toBe('bad_request');
  });

  it('locks the old token out at once on rotation, and the new one in', async () => {
    const rotated = await api('POST', `/locations/${vps.id}/token`);
    const old = await agent.config(undefined, 0);
    expect(old.status).toBe(401);
    agent.token = rotated.token as string;
    expect((await agent.config(undefined, 0)).status).toBe(200);
  });

  it('ends a waiting poll when its token is rotated, and refuses it after', async () => {
    const { revision } = JSON.parse((await agent.config()).body);
    const poll = agent.config(revision, 20);
    await new Promise((r) => setTimeout(r, 300));
    const rotated = await api('POST', `/locations/${vps.id}/token`);
    const answer = await poll;
    expect(answer.status).toBe(204);
    expect((await agent.config(revision, 0)).status).toBe(401);
    agent.token = rotated.token as string;
  });

  it("refuses a deleted location's token at once", async () => {
    const o = new AgentClient(service.url, other.token);
    expect((await o.config(undefined, 0)).status).toBe(200);
    const del = await request('DELETE', `${service.url}/api/v1/locations/${other.id}`, { headers: keys.header() });
    expect(del.status).toBe(204);
    expect((await o.config(undefined, 0)).status).toBe(401);
  });
});
