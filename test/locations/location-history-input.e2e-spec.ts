/**
 * History per probe location (docs/agents.md, "History per location"), its edges on the real app
 * with a fake clock: hostile `?location=` values on every history route (a 422 on `location`,
 * nothing else), a location not assigned to the monitor (its history, possibly empty), the
 * rollups removed with their location and with their monitor, kept by retention as long as the
 * monitor's, and a restart in the middle of a location's history (the open span is read back from
 * the stored results, not lost and not counted twice).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../../src/common/clock';
import { RetentionService } from '../../src/history/retention.service';
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { tcpMonitor } from '../support/monitors';

const MIN = 60_000;
const D = 86_400_000;

function result(outcome: 'up' | 'down', latency = 20): Record<string, unknown> {
  return {
    outcome,
    latency_ms: latency,
    phases: null,
    status: null,
    error: outcome === 'down' ? { code: 'refused', message: 'connection refused' } : null,
    cert: null,
    detail: null,
  };
}

interface Lab {
  t: TestApp;
  read: string;
  write: string;
  admin: string;
  id: number;
  tokens: Record<string, string>;
  locationIds: Record<string, number>;
  seq: Record<string, number>;
}

async function lab(dataDir?: string, clock?: FakeClock): Promise<Lab> {
  const t = await startApp({}, { dataDir, clock });
  const { cookie } = await createOwner(t);
  const read = await createKey(t, cookie, 'read');
  const write = await createKey(t, cookie, 'write');
  const admin = await createKey(t, cookie, 'admin');
  const session = { Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' };
  const tokens: Record<string, string> = {};
  const locationIds: Record<string, number> = {};
  for (const name of ['vps', 'pi', 'other']) {
    const loc = (await t.http.post('/api/v1/locations').set(session).send({ name }).expect(201)).body;
    tokens[name] = loc.token;
    locationIds[name] = loc.id;
  }
  const id = (
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(tcpMonitor({ locations: ['vps', 'pi'], interval_s: 60, timeout_ms: 10_000 }))
      .expect(201)
  ).body.id;
  return { t, read, write, admin, id, tokens, locationIds, seq: { vps: 0, pi: 0, other: 0 } };
}

/** Sends one result per minute from `name` for `minutes` minutes, the clock following. */
async function feed(l: Lab, name: string, minutes: number, outcome: 'up' | 'down' = 'up'): Promise<void> {
  for (let i = 0; i < minutes; i++) {
    l.t.clock.advance(MIN);
    await l.t.http
      .post('/api/agent/results')
      .set(bearer(l.tokens[name]))
      .send({
        agent: { version: '0.1.0', blind: false },
        results: [
          {
            seq: ++l.seq[name],
            monitor_id: l.id,
            at: new Date(l.t.clock.now() - 500).toISOString(),
            result: result(outcome),
          },
        ],
      })
      .expect(200);
  }
}

const rollupRows = async (l: Lab, where: string) =>
  (
    await l.t.db.query<{ n: number }[]>(
      `SELECT (SELECT COUNT(*) FROM location_rollup_hour WHERE ${where}) + (SELECT COUNT(*) FROM location_rollup_day WHERE ${where}) AS n`,
    )
  )[0].n;

describe('?location= on the history routes', () => {
  let l: Lab;
  beforeAll(async () => {
    l = await lab();
    await feed(l, 'vps', 5);
  });
  afterAll(async () => l.t.close());

  const routes = [
    '/checks',
    '/series?range=1h',
    '/series?range=24h',
    '/series?range=7d',
    '/series?range=30d',
    '/series?range=90d',
    '/uptime?days=3',
    '/stats',
  ];
  const hostile = [
    'location=nowhere',
    'location=vps&location=pi',
    'location=null',
    'location=0',
    `location=${encodeURIComponent('🛰️')}`,
    `location=${'x'.repeat(300)}`,
    'location=%00',
    `location=${encodeURIComponent("vps' OR '1'='1")}`,
    'location=__proto__',
    'location=constructor',
    `location=${encodeURIComponent('vps\u202E')}`,
    'location=%20vps',
    'location=%E0%A4%A',
  ];
  const cases = routes.flatMap((r) => hostile.map((q): [string, string] => [r, q]));

  it.each(cases)('%s refuses %s with 422 on location, in the envelope', async (route, q) => {
    const sep = route.includes('?') ? '&' : '?';
    const res = await l.t.http.get(`/api/v1/monitors/${l.id}${route}${sep}${q}`).set(bearer(l.read));
    // A query string the parser cannot read at all is a 400 of its own; anything it reads is judged.
    if (res.status === 400) {
      expect(res.body.error.code).toBe('bad_request');
      return;
    }
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', fields: [{ field: 'location' }] });
    expect(JSON.stringify(res.body)).not.toContain('SQLITE');
  });

  it('answers a location by its name in any case, with its own name', async () => {
    const s = await l.t.http.get(`/api/v1/monitors/${l.id}/stats?location=VPS`).set(bearer(l.read)).expect(200);
    expect(s.body.location).toBe('vps');
    expect(s.body.uptime_24h).toBe(100);
  });

  it('answers a location that is not assigned to the monitor with what it stored: nothing here, not an error', async () => {
    const get = (p: string) => l.t.http.get(`/api/v1/monitors/${l.id}${p}`).set(bearer(l.read)).expect(200);
    const s = (await get('/stats?location=other')).body;
    expect(s).toMatchObject({
      location: 'other',
      uptime_24h: null,
      uptime_7d: null,
      uptime_30d: null,
      p50_ms_24h: null,
    });
    expect((await get('/series?range=1h&location=other')).body.points).toEqual([]);
    expect(
      (await get('/series?range=7d&location=other')).body.points.every((p: { uptime: null }) => p.uptime === null),
    ).toBe(true);
    expect((await get('/uptime?days=3&location=other')).body.uptime).toBeNull();
  });

  it('keeps answering a location taken off the monitor with the history it made while it was on', async () => {
    await l.t.http
      .patch(`/api/v1/monitors/${l.id}`)
      .set(bearer(l.write))
      .send({ locations: ['pi'] })
      .expect(200);
    const s = await l.t.http
      .get(`/api/v1/monitors/${l.id}/series?range=1h&location=vps`)
      .set(bearer(l.read))
      .expect(200);
    expect(s.body.points).toHaveLength(5);
    await l.t.http
      .patch(`/api/v1/monitors/${l.id}`)
      .set(bearer(l.write))
      .send({ locations: ['vps', 'pi'] })
      .expect(200);
  });
});

describe("a location's rollups", () => {
  let l: Lab;
  afterEach(async () => l.t.close());

  it('are written with the results they come from, and deleted with their location (the other location keeps its own)', async () => {
    l = await lab();
    await feed(l, 'vps', 3);
    await feed(l, 'pi', 3);
    expect(await rollupRows(l, `location_id = ${l.locationIds.vps}`)).toBe(2);
    expect(await rollupRows(l, `location_id = ${l.locationIds.pi}`)).toBe(2);
    await l.t.http.delete(`/api/v1/locations/${l.locationIds.vps}`).set(bearer(l.admin)).expect(204);
    expect(await rollupRows(l, `location_id = ${l.locationIds.vps}`)).toBe(0);
    expect(await rollupRows(l, `location_id = ${l.locationIds.pi}`)).toBe(2);
    const left = await l.t.db.query<{ n: number }[]>(
      'SELECT COUNT(*) AS n FROM location_results WHERE location_id = ?',
      [l.locationIds.vps],
    );
    expect(left[0].n).toBe(0);
  });

  it('are deleted with their monitor', async () => {
    l = await lab();
    await feed(l, 'vps', 3);
    await feed(l, 'pi', 3);
    expect(await rollupRows(l, `monitor_id = ${l.id}`)).toBe(4);
    await l.t.http.delete(`/api/v1/monitors/${l.id}`).set(bearer(l.write)).expect(200);
    expect(await rollupRows(l, `monitor_id = ${l.id}`)).toBe(0);
    const left = await l.t.db.query<{ n: number }[]>(
      'SELECT COUNT(*) AS n FROM location_results WHERE monitor_id = ?',
      [l.id],
    );
    expect(left[0].n).toBe(0);
  });

  it("are pruned as the monitor's are: hours after retention.hourly_days, days after 400", async () => {
    l = await lab();
    await feed(l, 'vps', 2);
    const hours = () => l.t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM location_rollup_hour');
    const days = () => l.t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM location_rollup_day');
    l.t.clock.advance(36 * D);
    await feed(l, 'vps', 1);
    await l.t.app.get(RetentionService).run();
    // The first hour went (35 days); the new hour, and both days, stay.
    expect([(await hours())[0].n, (await days())[0].n]).toEqual([1, 2]);
    l.t.clock.advance(401 * D);
    await l.t.app.get(RetentionService).run();
    expect([(await hours())[0].n, (await days())[0].n]).toEqual([0, 0]);
  });

  it('survive a restart: the span open at the stop is closed by the first result after it, once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-loc-restart-'));
    const clock = new FakeClock(Date.UTC(2026, 10, 1, 12, 0, 0));
    l = await lab(dataDir, clock);
    await feed(l, 'vps', 10);
    const before = await l.t.http.get(`/api/v1/monitors/${l.id}/series?range=7d&location=vps`).set(bearer(l.read));
    await l.t.close();
    // The same data: the owner, keys and locations are there already, so only the app restarts.
    const t = await startApp({}, { dataDir, clock });
    l = { ...l, t };
    await feed(l, 'vps', 10);
    const after = await t.http
      .get(`/api/v1/monitors/${l.id}/series?range=7d&location=vps`)
      .set(bearer(l.read))
      .expect(200);
    const sum = (body: { points: { up: number }[] }) => body.points.reduce((a, p) => a + p.up, 0);
    expect([sum(before.body), sum(after.body)]).toEqual([10, 20]);
    // 20 results a minute apart: 19 closed minutes and the open one (up to now, 0.5 s) of up time.
    const stats = await t.http.get(`/api/v1/monitors/${l.id}/stats?location=vps`).set(bearer(l.read)).expect(200);
    expect(stats.body.uptime_24h).toBe(100);
    const hourRows = await t.db.query<{ up_ms: number }[]>(
      'SELECT SUM(up_ms) AS up_ms FROM location_rollup_hour WHERE monitor_id = ? AND location_id = ?',
      [l.id, l.locationIds.vps],
    );
    expect(hourRows[0].up_ms).toBe(19 * MIN);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
