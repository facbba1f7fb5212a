/**
 * Series, uptime and stats agree with a brute-force computation over the raw results, for random
 * histories fed through the engine with a fake clock (some results still unwritten when read).
 * The brute force restates the documented rule (docs/storage.md): a check's outcome holds until
 * the next check, at most interval + timeout; up and slow are up, down is down, unknown is neither.
 */
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
import { RollupsService } from '../../src/history/rollups.service';
import { Outcome, NO_PHASES } from '../../src/probes/check-result';
import { SettingsService } from '../../src/settings/settings.service';
import { TestApp, bearer, createKey, createOwner, startApp, createMonitor } from '../support/app';
import { tcpMonitor } from '../support/monitors';

const H = 3_600_000;
const D = 86_400_000;
const CAP = 60_000 + 10_000;

interface Fed {
  at: number;
  outcome: Outcome;
  latency: number;
}

function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function spans(fed: Fed[], now: number): { from: number; to: number; kind: 'up' | 'down' | 'unknown' }[] {
  return fed.map((f, i) => ({
    from: f.at,
    to: Math.min(i + 1 < fed.length ? fed[i + 1].at : now, f.at + CAP),
    kind: f.outcome === 'down' ? 'down' : f.outcome === 'unknown' ? 'unknown' : 'up',
  }));
}

function uptimeBetween(
  fed: Fed[],
  now: number,
  from: number,
  to: number,
): { up: number; down: number; pct: number | null } {
  let up = 0;
  let down = 0;
  for (const s of spans(fed, now)) {
    const a = Math.max(s.from, from);
    const b = Math.min(s.to, to);
    if (b <= a) continue;
    if (s.kind === 'up') up += b - a;
    if (s.kind === 'down') down += b - a;
  }
  return { up, down, pct: up + down === 0 ? null : Math.round((up / (up + down)) * 100_000) / 1000 };
}

function latencies(fed: Fed[], from: number, to: number): number[] {
  return fed
    .filter((f) => f.at >= from && f.at < to && (f.outcome === 'up' || f.outcome === 'slow'))
    .map((f) => f.latency);
}

function nearestRank(values: number[], q: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(1, Math.ceil(q * s.length)) - 1];
}

describe.each([1, 2, 3])('stats agree with brute force (seed %i)', (seed) => {
  let t: TestApp;
  let key: string;
  let id: number;
  let fed: Fed[];
  const TZ = 120;

  beforeAll(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    key = await createKey(t, cookie, 'read');
    const writeKey = await createKey(t, cookie, 'write');
    await t.db.tx((m) => t.app.get(SettingsService).setIn(m, { tz_offset_min: TZ }));
    id = (await createMonitor(t, writeKey, tcpMonitor({ interval_s: 60, timeout_ms: 10_000 }))).id;
    const engine = t.app.get(EngineService);
    const writer = t.app.get(CheckWriter);
    const rand = rng(seed);
    fed = [];
    const start = t.clock.now();
    let at = start + 1000;
    const end = start + 3 * D + 5 * H;
    while (at < end) {
      const r = rand();
      const outcome: Outcome = r < 0.75 ? 'up' : r < 0.82 ? 'slow' : r < 0.95 ? 'down' : 'unknown';
      const latency = 5 + Math.floor(rand() * 400);
      t.clock.set(at);
      engine.record(
        id,
        {
          at_ms: at,
          outcome,
          latency_ms: latency,
          phases: { ...NO_PHASES },
          status: null,
          error: outcome === 'down' ? { code: 'refused', message: 'refused' } : null,
          cert: null,
          detail: null,
        },
        { kind: 'manual' },
      );
      fed.push({ at, outcome, latency });
      if (rand() < 0.05) await writer.flush();
      const g = rand();
      at += g < 0.8 ? 60_000 : g < 0.95 ? 10_000 : 20 * 60_000 + Math.floor(rand() * 3 * H);
    }
    t.clock.set(end + 30_000);
  });
  afterAll(async () => t.close());

  it('matches uptime_24h, uptime_7d, uptime_30d, p50 and p95 of the stats', async () => {
    const now = t.clock.now();
    const m = (await t.http.get(`/api/v1/monitors/${id}`).set(bearer(key)).expect(200)).body;
    const hourNow = Math.floor(now / H);
    expect(m.stats.uptime_24h).toBe(uptimeBetween(fed, now, (hourNow - 23) * H, now).pct);
    const today = Math.floor((now + TZ * 60_000) / D);
    const dayStart = (d: number) => d * D - TZ * 60_000;
    expect(m.stats.uptime_7d).toBe(uptimeBetween(fed, now, dayStart(today - 6), now).pct);
    expect(m.stats.uptime_30d).toBe(uptimeBetween(fed, now, dayStart(today - 29), now).pct);
    const lat = latencies(fed, (hourNow - 23) * H, now + 1);
    for (const [q, got] of [
      [0.5, m.stats.p50_ms_24h],
      [0.95, m.stats.p95_ms_24h],
    ] as const) {
      const exact = nearestRank(lat, q) as number;
      // Percentiles come from 4 % log buckets: never below the exact value, at most 4 % (and a ms) above.
      expect(got).toBeGreaterThanOrEqual(exact);
      expect(got).toBeLessThanOrEqual(Math.ceil(exact * 1.04) + 1);
    }
    expect(m.stats.spark).toHaveLength(24);
    for (const p of m.stats.spark) {
      const inHour = fed.filter((f) => f.at >= p.t_ms && f.at < p.t_ms + H);
      const l = latencies(fed, p.t_ms, p.t_ms + H);
      expect(p.avg_ms).toBe(l.length ? Math.round(l.reduce((a, b) => a + b, 0) / l.length) : null);
      const worst = inHour.some((f) => f.outcome === 'down')
        ? 'down'
        : inHour.some((f) => f.outcome === 'slow')
          ? 'slow'
          : inHour.some((f) => f.outcome === 'up')
            ? 'up'
            : inHour.length
              ? 'unknown'
              : null;
      expect(p.worst).toBe(worst);
    }
  });

  it('matches the raw 24h series point for point', async () => {
    const now = t.clock.now();
    const s = (await t.http.get(`/api/v1/monitors/${id}/series?range=24h`).set(bearer(key)).expect(200)).body;
    expect(s.resolution).toBe('raw');
    const expected = fed.filter((f) => f.at >= now - 24 * H);
    expect(
      s.points.map((p: { t_ms: number; outcome: string; latency_ms: number }) => [p.t_ms, p.outcome, p.latency_ms]),
    ).toEqual(expected.map((f) => [f.at, f.outcome, f.latency]));
  });

  it('matches the hourly 7d series: counts, uptime, avg, min and max per hour', async () => {
    const now = t.clock.now();
    const s = (await t.http.get(`/api/v1/monitors/${id}/series?range=7d`).set(bearer(key)).expect(200)).body;
    expect(s.resolution).toBe('hour');
    expect(s.points).toHaveLength(168);
    for (const p of s.points) {
      const inHour = fed.filter((f) => f.at >= p.t_ms && f.at < p.t_ms + H);
      const l = latencies(fed, p.t_ms, p.t_ms + H);
      expect([p.up, p.slow, p.down, p.unknown]).toEqual(
        ['up', 'slow', 'down', 'unknown'].map((o) => inHour.filter((f) => f.outcome === o).length),
      );
      expect(p.uptime).toBe(uptimeBetween(fed, now, p.t_ms, p.t_ms + H).pct);
      expect([p.min_ms, p.max_ms]).toEqual(l.length ? [Math.min(...l), Math.max(...l)] : [null, null]);
      expect(p.avg_ms).toBe(l.length ? Math.round(l.reduce((a, b) => a + b, 0) / l.length) : null);
    }
  });

  it('matches the uptime days (local days of the configured zone) and the daily 90d series', async () => {
    const now = t.clock.now();
    const u = (await t.http.get(`/api/v1/monitors/${id}/uptime?days=10`).set(bearer(key)).expect(200)).body;
    expect(u.days).toHaveLength(10);
    const today = Math.floor((now + TZ * 60_000) / D);
    u.days.forEach((d: { date: string; uptime: number | null; down_ms: number; checks: number }, i: number) => {
      const day = today - 9 + i;
      const from = day * D - TZ * 60_000;
      expect(d.date).toBe(new Date(day * D).toISOString().slice(0, 10));
      const b = uptimeBetween(fed, now, from, from + D);
      expect([d.uptime, d.down_ms, d.checks]).toEqual([
        b.pct,
        b.down,
        fed.filter((f) => f.at >= from && f.at < from + D).length,
      ]);
    });
    expect(u.uptime).toBe(uptimeBetween(fed, now, (today - 9) * D - TZ * 60_000, now).pct);
    const s = (await t.http.get(`/api/v1/monitors/${id}/series?range=90d`).set(bearer(key)).expect(200)).body;
    expect(s.resolution).toBe('day');
    expect(s.points).toHaveLength(90);
    expect(s.points.slice(-10).map((p: { uptime: number | null }) => p.uptime)).toEqual(
      u.days.map((d: { uptime: number | null }) => d.uptime),
    );
  });

  it("gives a status page's tallies (readTallies) as read() gives them: rows, results in memory and the open span", async () => {
    const now = t.clock.now();
    const rollups = t.app.get(RollupsService);
    const hourNow = Math.floor(now / H);
    const today = Math.floor((now + TZ * 60_000) / D);
    // Some of the history is in the tables, some only in memory (the folds write about hourly).
    const [written] = await t.db.read<{ n: number }[]>('SELECT count(*) AS n FROM rollup_hour WHERE monitor_id = ?', [
      id,
    ]);
    expect(written.n).toBeGreaterThan(0);
    const ranges = [
      ['rollup_hour', hourNow - 90, hourNow],
      ['rollup_hour', hourNow - 2, hourNow - 1],
      ['rollup_day', today - 4, today],
      ['rollup_day', today, today],
    ] as const;
    let keys = 0;
    for (const [table, from, to] of ranges) {
      const whole = (await rollups.read(table, [id], from, to, now)).get(id)!;
      const expected = new Map([...whole].map(([k, a]) => [k, [a.up_ms, a.down_ms, a.maint_ms, a.lat_n, a.lat_sum]]));
      const got = new Map<number, number[]>();
      await rollups.readTallies(table, [id, id + 1000], from, to, now, (monitor, k, r) => {
        expect({ monitor, k }).toEqual({ monitor: id, k: expect.any(Number) });
        const add = [r.up_ms, r.down_ms, r.maint_ms, r.lat_n, r.lat_sum];
        got.set(
          k,
          (got.get(k) ?? [0, 0, 0, 0, 0]).map((v, i) => v + add[i]),
        );
      });
      expect({ table, from, to, got }).toEqual({ table, from, to, got: expected });
      keys += got.size;
    }
    expect(keys).toBeGreaterThan(20);
  });
});

describe('series and uptime input', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    key = await createKey(t, cookie, 'write');
    await t.http.post('/api/v1/monitors').set(bearer(key)).send(tcpMonitor()).expect(201);
  });
  afterAll(async () => t.close());

  it.each([
    ['/api/v1/monitors/1/series?range=2h', 'range'],
    ['/api/v1/monitors/1/uptime?days=401', 'days'],
    ['/api/v1/monitors/1/uptime?days=0', 'days'],
  ])('refuses %s with 422', async (path, field) => {
    const res = await t.http.get(path).set(bearer(key)).expect(422);
    expect(res.body.error.field).toBe(field);
  });

  it('answers empty series and uptime for a monitor without checks', async () => {
    const u = (await t.http.get('/api/v1/monitors/1/uptime').set(bearer(key)).expect(200)).body;
    expect(u.uptime).toBeNull();
    expect(u.days).toHaveLength(90);
    expect(u.days[0]).toEqual({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      uptime: null,
      down_ms: 0,
      maintenance_ms: 0,
      checks: 0,
    });
    const s = (await t.http.get('/api/v1/monitors/1/series?range=1h').set(bearer(key)).expect(200)).body;
    expect(s).toEqual({ range: '1h', resolution: 'raw', points: [] });
    await t.http.get('/api/v1/monitors/999/series').set(bearer(key)).expect(404);
  });
});
