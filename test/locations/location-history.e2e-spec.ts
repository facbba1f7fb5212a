/**
 * History per probe location (docs/agents.md, "History per location") on the real app with a
 * fake clock: results ingested through the agent route (POST /api/agent/results, as an agent
 * sends them: in batches, some late, some blind, some in a maintenance window) over three days
 * and some hours, from two locations with histories of their own; then every series range, the
 * uptime days and GET /monitors/{id}/stats of each location equal a brute force over what was
 * sent. The brute force restates the documented rule (docs/storage.md, docs/maintenance.md): a
 * result's outcome holds until the location's next result for the monitor, at most interval +
 * timeout; up and slow are up, down is down; unknown and a blind agent's results are neither;
 * a late result counts as its outcome; time in a maintenance window is in neither side.
 */
import { EngineService } from '../../src/engine/engine.service';
import { SettingsService } from '../../src/settings/settings.service';
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { tcpMonitor } from '../support/monitors';

const H = 3_600_000;
const D = 86_400_000;
const CAP = 60_000 + 10_000;
const TZ = 120;
type Outcome = 'up' | 'slow' | 'down' | 'unknown';

interface Sent {
  at: number;
  outcome: Outcome;
  latency: number;
  blind: boolean;
  maint: boolean;
}

function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function result(outcome: Outcome, latency: number): Record<string, unknown> {
  return {
    outcome,
    latency_ms: latency,
    phases: { dns_ms: null, connect_ms: 1, tls_ms: null, ttfb_ms: null },
    status: null,
    error: outcome === 'down' ? { code: 'refused', message: 'connection refused' } : null,
    cert: null,
    detail: null,
  };
}

/** The time kind of a sent result, by the documented rule. */
function kindOf(s: Sent): 'up' | 'down' | 'unknown' | 'maint' {
  if (s.maint) return 'maint';
  if (s.blind || s.outcome === 'unknown') return 'unknown';
  return s.outcome === 'down' ? 'down' : 'up';
}

/** Up, down and maintenance time between `from` and `to`, and uptime as the API rounds it. */
function timeBetween(sent: Sent[], now: number, from: number, to: number) {
  const out = { up: 0, down: 0, maint: 0, unknown: 0 };
  sent.forEach((s, i) => {
    const end = Math.min(i + 1 < sent.length ? sent[i + 1].at : now, s.at + CAP);
    const a = Math.max(s.at, from);
    const b = Math.min(end, to);
    if (b > a) out[kindOf(s)] += b - a;
  });
  const pct = out.up + out.down === 0 ? null : Math.round((out.up / (out.up + out.down)) * 100_000) / 1000;
  return { ...out, pct };
}

const good = (s: Sent) => s.outcome === 'up' || s.outcome === 'slow';
const latencies = (sent: Sent[], from: number, to: number) =>
  sent.filter((s) => s.at >= from && s.at < to && good(s)).map((s) => s.latency);
const avg = (l: number[]) => (l.length ? Math.round(l.reduce((a, b) => a + b, 0) / l.length) : null);

function counts(sent: Sent[], from: number, to: number): number[] {
  const inside = sent.filter((s) => s.at >= from && s.at < to);
  return [
    ...(['up', 'slow', 'down', 'unknown'] as const).map(
      (o) => inside.filter((s) => !s.maint && s.outcome === o).length,
    ),
    inside.filter((s) => s.maint).length,
  ];
}

function nearestRank(values: number[], q: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(1, Math.ceil(q * s.length)) - 1];
}

describe('history per location agrees with a brute force over the results sent', () => {
  let t: TestApp;
  let read: string;
  let id: number;
  const sent: Record<string, Sent[]> = { vps: [], pi: [] };
  let window: { start: number; end: number };

  beforeAll(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    read = await createKey(t, cookie, 'read');
    const write = await createKey(t, cookie, 'write');
    await t.db.tx((m) => t.app.get(SettingsService).setIn(m, { tz_offset_min: TZ }));
    const session = { Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' };
    const tokens: Record<string, string> = {};
    for (const name of ['vps', 'pi'])
      tokens[name] = (await t.http.post('/api/v1/locations').set(session).send({ name }).expect(201)).body.token;
    // Checked from the two agents only: the service runs no check of its own for it.
    id = (
      await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(tcpMonitor({ locations: ['vps', 'pi'], interval_s: 60, timeout_ms: 10_000, retry_interval_s: 60 }))
        .expect(201)
    ).body.id;
    const start = t.clock.now();
    window = { start: start + D + 10 * H + 7 * 60_000, end: start + D + 12 * H + 7 * 60_000 };
    await t.http
      .post('/api/v1/maintenance')
      .set(bearer(write))
      .send({
        title: 'Router swap',
        monitors: [id],
        schedule: {
          kind: 'once',
          start: new Date(window.start).toISOString(),
          end: new Date(window.end).toISOString(),
        },
      })
      .expect(201);
    const engine = t.app.get(EngineService);

    // Both locations' results, in time order, each batch sent when its last result is 0.5 s old.
    const rand = rng(41);
    const plan: { name: string; at: number; outcome: Outcome; latency: number }[] = [];
    for (const name of ['vps', 'pi']) {
      let at = start + 1000 + (name === 'pi' ? 7_000 : 0);
      const end = start + 3 * D + 5 * H;
      while (at < end) {
        const r = rand();
        const outcome: Outcome = r < 0.72 ? 'up' : r < 0.8 ? 'slow' : r < 0.95 ? 'down' : 'unknown';
        plan.push({ name, at, outcome, latency: 5 + Math.floor(rand() * 400) });
        const g = rand();
        at += g < 0.84 ? 60_000 : g < 0.99 ? 10_000 : 20 * 60_000 + Math.floor(rand() * 3 * H);
      }
    }
    plan.sort((a, b) => a.at - b.at);
    const seq: Record<string, number> = { vps: 0, pi: 0 };
    const waiting: Record<string, typeof plan> = { vps: [], pi: [] };
    const send = async (name: string, blind: boolean) => {
      const batch = waiting[name];
      waiting[name] = [];
      const now = Math.max(t.clock.now(), batch[batch.length - 1].at + 500);
      t.clock.set(now);
      engine.maintenance.tick();
      const inWindowNow = now >= window.start && now < window.end;
      const body = {
        agent: { version: '0.1.0', blind },
        results: batch.map((p) => ({
          seq: ++seq[name],
          monitor_id: id,
          at: new Date(p.at).toISOString(),
          result: result(p.outcome, p.latency),
        })),
      };
      const answer = await t.http.post('/api/agent/results').set(bearer(tokens[name])).send(body).expect(200);
      expect(answer.body).toMatchObject({ stored: batch.length, ignored: [] });
      for (const p of batch) {
        // A fresh result is marked with the window holding the monitor when it is stored; a late
        // one (older than two intervals) with the window whose schedule held its time.
        const late = now - p.at > 120_000;
        const maint = late ? p.at >= window.start && p.at < window.end : inWindowNow;
        sent[name].push({ at: p.at, outcome: p.outcome, latency: p.latency, blind, maint });
      }
    };
    for (const p of plan) {
      waiting[p.name].push(p);
      // Most batches carry one result; some carry up to 12 (an agent catching up: late ones).
      if (rand() < 0.85 || waiting[p.name].length >= 12) await send(p.name, rand() < 0.04);
    }
    for (const name of ['vps', 'pi']) if (waiting[name].length) await send(name, false);
    t.clock.set(start + 3 * D + 5 * H + 30_000);
  }, 120_000);
  afterAll(async () => t.close());

  const get = async (path: string) =>
    (await t.http.get(`/api/v1/monitors/${id}${path}`).set(bearer(read)).expect(200)).body;

  it('sent late, blind and maintenance results, so the rules are each exercised', () => {
    for (const name of ['vps', 'pi']) {
      expect(sent[name].filter((s) => s.blind).length).toBeGreaterThan(3);
      expect(sent[name].filter((s) => s.maint).length).toBeGreaterThan(3);
      expect(sent[name].length).toBeGreaterThan(1500);
    }
  });

  it.each(['vps', 'pi'])('stats of %s: uptime 24 h, 7 d, 30 d, p50, p95 and the spark', async (name) => {
    const now = t.clock.now();
    const s = await get(`/stats?location=${name}`);
    expect(s.location).toBe(name);
    const fed = sent[name];
    const hourNow = Math.floor(now / H);
    const today = Math.floor((now + TZ * 60_000) / D);
    const dayStart = (d: number) => d * D - TZ * 60_000;
    expect(s.uptime_24h).toBe(timeBetween(fed, now, (hourNow - 23) * H, now).pct);
    expect(s.uptime_7d).toBe(timeBetween(fed, now, dayStart(today - 6), now).pct);
    expect(s.uptime_30d).toBe(timeBetween(fed, now, dayStart(today - 29), now).pct);
    const lat = latencies(fed, (hourNow - 23) * H, now + 1);
    for (const [q, got] of [
      [0.5, s.p50_ms_24h],
      [0.95, s.p95_ms_24h],
    ] as const) {
      const exact = nearestRank(lat, q) as number;
      // Percentiles come from 4 % log buckets: never below the exact value, at most 4 % (and a ms) above.
      expect(got).toBeGreaterThanOrEqual(exact);
      expect(got).toBeLessThanOrEqual(Math.ceil(exact * 1.04) + 1);
    }
    expect(s.spark).toHaveLength(24);
    for (const p of s.spark) expect(p.avg_ms).toBe(avg(latencies(fed, p.t_ms, p.t_ms + H)));
  });

  it.each([
    ['vps', '1h'],
    ['vps', '24h'],
    ['pi', '24h'],
  ])('raw series of %s over %s, point for point', async (name, range) => {
    const now = t.clock.now();
    const s = await get(`/series?range=${range}&location=${name}`);
    expect(s.resolution).toBe('raw');
    const expected = sent[name].filter((f) => f.at >= now - (range === '1h' ? H : 24 * H));
    expect(s.points.map((p: Record<string, unknown>) => [p.t_ms, p.outcome, p.latency_ms, p.maintenance])).toEqual(
      expected.map((f) => [f.at, f.outcome, f.latency, f.maint]),
    );
  });

  it.each([
    ['vps', '7d', 168],
    ['pi', '7d', 168],
    ['vps', '30d', 720],
  ])('hourly series of %s over %s: counts, maintenance, uptime, avg, min and max per hour', async (name, range, n) => {
    const now = t.clock.now();
    const s = await get(`/series?range=${range}&location=${name}`);
    expect(s.resolution).toBe('hour');
    expect(s.points).toHaveLength(n);
    const fed = sent[name];
    for (const p of s.points) {
      const l = latencies(fed, p.t_ms, p.t_ms + H);
      const time = timeBetween(fed, now, p.t_ms, p.t_ms + H);
      expect([p.up, p.slow, p.down, p.unknown, p.maintenance]).toEqual(counts(fed, p.t_ms, p.t_ms + H));
      expect([p.uptime, p.maintenance_ms]).toEqual([time.pct, time.maint]);
      expect([p.min_ms, p.max_ms, p.avg_ms]).toEqual(
        l.length ? [Math.min(...l), Math.max(...l), avg(l)] : [null, null, null],
      );
    }
  });

  it.each(['vps', 'pi'])('uptime days and the daily 90d series of %s (local days of the zone)', async (name) => {
    const now = t.clock.now();
    const fed = sent[name];
    const u = await get(`/uptime?days=10&location=${name}`);
    const today = Math.floor((now + TZ * 60_000) / D);
    u.days.forEach(
      (
        d: { date: string; uptime: number | null; down_ms: number; maintenance_ms: number; checks: number },
        i: number,
      ) => {
        const from = (today - 9 + i) * D - TZ * 60_000;
        const time = timeBetween(fed, now, from, from + D);
        expect([d.uptime, d.down_ms, d.maintenance_ms, d.checks]).toEqual([
          time.pct,
          time.down,
          time.maint,
          fed.filter((f) => f.at >= from && f.at < from + D).length,
        ]);
      },
    );
    expect(u.uptime).toBe(timeBetween(fed, now, (today - 9) * D - TZ * 60_000, now).pct);
    const s = await get(`/series?range=90d&location=${name}`);
    expect(s.resolution).toBe('day');
    expect(s.points).toHaveLength(90);
    for (const p of s.points) {
      expect([p.up, p.slow, p.down, p.unknown, p.maintenance]).toEqual(counts(fed, p.t_ms, p.t_ms + D));
      expect(p.uptime).toBe(timeBetween(fed, now, p.t_ms, p.t_ms + D).pct);
    }
  });

  it("answers `local` (any case) and no location alike: the service's own checks, none here", async () => {
    const none = await get('/stats');
    expect(none).toMatchObject({ location: 'local', uptime_24h: null, uptime_30d: null });
    expect(await get('/stats?location=LOCAL')).toEqual(none);
    expect((await get('/series?range=7d&location=local')).points.every((p: { up: number }) => p.up === 0)).toBe(true);
  });
});
