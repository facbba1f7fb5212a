import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
import { FakeClock } from '../../src/common/clock';
import { TestApp, bearer, createKey, createOwner, startApp, createMonitor } from '../support/app';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

describe('check engine', () => {
  let t: TestApp;
  let target: SwitchServer;
  let write: string;
  let engine: EngineService;

  beforeEach(async () => {
    target = await startSwitchServer();
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
    engine = t.app.get(EngineService);
  });
  afterEach(async () => {
    await t.close();
    await target.close();
  });

  /** Moves the fake clock, runs what is due and waits for it. */
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    engine.tick();
    await engine.idle();
  };
  const state = async (id: number) =>
    (await t.http.get(`/api/v1/monitors/${id}`).set(bearer(write)).expect(200)).body.state;

  it('drives a monitor up → failing → down → up with exact counts and timeline lines', async () => {
    const m = await createMonitor(
      t,
      write,
      httpMonitor({ confirm_after: 3, recover_after: 2, interval_s: 60, retry_interval_s: 10 }, { url: target.url }),
    );
    await advance(0);
    expect(await state(m.id)).toMatchObject({ status: 'up', failing: 0 });
    expect(target.hits).toBe(1);

    target.status = 500;
    await advance(60_000);
    expect(await state(m.id)).toMatchObject({ status: 'up', failing: 1, error: { code: 'status' } });
    expect(engine.dueOf(m.id)).toBe(t.clock.now() + 10_000); // the re-check comes after retry_interval_s
    await advance(10_000);
    expect(await state(m.id)).toMatchObject({ status: 'up', failing: 2 });
    await advance(10_000);
    const down = await state(m.id);
    expect(down).toMatchObject({ status: 'down', failing: 3, since: new Date(t.clock.now()).toISOString() });

    target.status = 200;
    await advance(10_000);
    expect(await state(m.id)).toMatchObject({ status: 'down' });
    await advance(60_000);
    expect(await state(m.id)).toMatchObject({ status: 'up', failing: 0, error: null });
    // Six checks, plus the second opinion taken before the third failure confirmed Down.
    expect(target.hits).toBe(7);

    const checks = await t.http.get(`/api/v1/monitors/${m.id}/checks`).set(bearer(write)).expect(200);
    expect(checks.body.items.map((c: { outcome: string }) => c.outcome)).toEqual([
      'up',
      'up',
      'down',
      'down',
      'down',
      'up',
    ]);
    await t.app.get(CheckWriter).flush();
    const lines = await t.db.query<{ kind: string }[]>(
      "SELECT kind FROM events WHERE monitor_id = ? AND actor = 'system' ORDER BY id",
      [m.id],
    );
    expect(lines.map((l) => l.kind).filter((k) => k !== 'alert')).toEqual(['first_up', 'failing', 'down', 'up']);
    // No channel takes the down: its incident says so (docs/alerts.md), in the write that took it.
    expect(lines.filter((l) => l.kind === 'alert')).toHaveLength(1);
  });

  it('never checks a paused monitor, and a resumed one restarts from unknown', async () => {
    const m = await createMonitor(t, write, httpMonitor({}, { url: target.url }));
    await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(bearer(write)).expect(200);
    await advance(3_600_000);
    expect(target.hits).toBe(0);
    const resumed = await t.http.post(`/api/v1/monitors/${m.id}/resume`).set(bearer(write)).expect(200);
    expect(resumed.body.state.status).toBe('unknown');
    await advance(0);
    expect(target.hits).toBe(1);
    expect(await state(m.id)).toMatchObject({ status: 'up' });
  });

  it('feeds check-now into the state machine', async () => {
    const m = await createMonitor(t, write, httpMonitor({ confirm_after: 1 }, { url: target.url }));
    target.status = 503;
    await t.http.post(`/api/v1/monitors/${m.id}/check`).set(bearer(write)).expect(200);
    expect(await state(m.id)).toMatchObject({ status: 'down', failing: 1 });
  });

  it('takes an edit at once: a new interval reschedules the next check', async () => {
    const m = await createMonitor(t, write, httpMonitor({ interval_s: 3600 }, { url: target.url }));
    await advance(0);
    expect(engine.dueOf(m.id)).toBe(t.clock.now() + 3_600_000);
    await t.http
      .patch(`/api/v1/monitors/${m.id}`)
      .set(bearer(write))
      .send({ interval_s: 60, timeout_ms: 5000 })
      .expect(200);
    expect(engine.dueOf(m.id)).toBe(t.clock.now() + 60_000);
  });

  it('keeps a running check through an edit of its name or interval, and drops it for a new target', async () => {
    const m = await createMonitor(t, write, httpMonitor({ interval_s: 60 }, { url: target.url }));
    await advance(0);
    const checks = async () =>
      (await t.http.get(`/api/v1/monitors/${m.id}/checks`).set(bearer(write)).expect(200)).body.items.length as number;
    expect(await checks()).toBe(1);
    // The next check is held at the target; the monitor is edited meanwhile.
    const during = async (edit: Record<string, unknown>) => {
      const hits = target.hits;
      target.delayMs = 400;
      t.clock.advance(engine.dueOf(m.id)! - t.clock.now());
      engine.tick();
      while (target.hits === hits) await new Promise((r) => setTimeout(r, 10));
      await t.http.patch(`/api/v1/monitors/${m.id}`).set(bearer(write)).send(edit).expect(200);
      await engine.idle();
      target.delayMs = 0;
    };
    await during({ description: 'the NAS in the cupboard', interval_s: 120 });
    // Its result counts, and the next check comes an interval later (the new one), not at once.
    expect(target.hits).toBe(2);
    expect(await checks()).toBe(2);
    expect(engine.dueOf(m.id)).toBe(t.clock.now() + 120_000);
    const other = await startSwitchServer();
    try {
      await during({ http: { url: other.url } });
      // The old target's result is dropped, and the new target is checked at once (its one result).
      expect(target.hits).toBe(3);
      expect(other.hits).toBe(1);
      expect(await checks()).toBe(3);
      expect(engine.dueOf(m.id)).toBe(t.clock.now() + 120_000);
    } finally {
      await other.close();
    }
  });

  it('shows results before they are written, and GET /checks pages across monitors', async () => {
    const a = await createMonitor(t, write, httpMonitor({ name: 'a' }, { url: target.url }));
    const b = await createMonitor(t, write, httpMonitor({ name: 'b' }, { url: target.url }));
    for (let i = 0; i < 3; i++) await advance(60_000);
    expect(t.app.get(CheckWriter).pending().length).toBeGreaterThan(0);
    const all = await t.http.get('/api/v1/checks?limit=4').set(bearer(write)).expect(200);
    expect(all.body.items).toHaveLength(4);
    expect(all.body.items.map((c: { monitor_id: number }) => c.monitor_id)).toEqual([b.id, a.id, b.id, a.id]);
    await t.app.get(CheckWriter).flush();
    const rest = await t.http
      .get(`/api/v1/checks?limit=4&before=${all.body.next_cursor}`)
      .set(bearer(write))
      .expect(200);
    // Three checks each (at +60, +120 and +180 s): six in all.
    expect(rest.body.items).toHaveLength(2);
    expect(rest.body.next_cursor).toBeNull();
    const ids = [...all.body.items, ...rest.body.items].map(
      (c: { monitor_id: number; at_ms: number }) => `${c.monitor_id}:${c.at_ms}`,
    );
    expect(new Set(ids).size).toBe(6);
  });

  it.each([
    ['outcome=up without monitor_id', 'outcome=up', 'outcome'],
    ['a malformed cursor', 'before=123', 'before'],
    ['limit=0', 'limit=0', 'limit'],
    ['an unknown monitor', 'monitor_id=9999', 'monitor_id'],
  ])('refuses GET /checks with %s', async (_, q, field) => {
    const res = await t.http.get(`/api/v1/checks?${q}`).set(bearer(write)).expect(422);
    expect(res.body.error.field).toBe(field);
  });

  it('shows stats as soon as a new monitor has its first result, with no 30 s wait', async () => {
    const m = await createMonitor(t, write, httpMonitor({}, { url: target.url }));
    expect(m.stats.uptime_24h).toBeNull();
    const listed = async () =>
      (await t.http.get('/api/v1/monitors').set(bearer(write)).expect(200)).body.items[0].stats;
    expect((await listed()).uptime_24h).toBeNull();
    await advance(0);
    t.clock.advance(1_000);
    const one = (await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200)).body.stats;
    expect(one.uptime_24h).toBe(100);
    expect(one.spark[23].worst).toBe('up');
    expect((await listed()).uptime_24h).toBe(100);
  });

  it('counts results per minute in the summary', async () => {
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(httpMonitor({ interval_s: 30 }, { url: target.url }))
      .expect(201);
    await advance(0);
    await advance(30_000);
    await advance(30_000);
    // Checks at +0, +30 and +60 s; the last minute (excluding its first instant) holds two.
    const s = await t.http.get('/api/v1/summary').set(bearer(write)).expect(200);
    expect(s.body.checks_per_min).toBe(2);
    expect(s.body.counts).toMatchObject({ total: 1, up: 1 });
  });
});

describe('heartbeats', () => {
  let t: TestApp;
  let write: string;
  let engine: EngineService;
  beforeEach(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
    engine = t.app.get(EngineService);
  });
  afterEach(async () => t.close());

  const state = async (id: number) =>
    (await t.http.get(`/api/v1/monitors/${id}`).set(bearer(write)).expect(200)).body.state;

  it('goes up on a ping, down when nothing arrives within interval + grace, and up again', async () => {
    const m = await createMonitor(t, write, heartbeatMonitor({ interval_s: 300, heartbeat: { grace_s: 60 } }));
    const url = new URL(m.heartbeat_url).pathname;
    const ping = await t.http.get(url).expect(200);
    expect(ping.text).toBe('OK\n');
    expect(ping.headers['content-type']).toContain('text/plain');
    expect(await state(m.id)).toMatchObject({ status: 'up' });
    t.clock.advance(359_000);
    engine.tick();
    expect(await state(m.id)).toMatchObject({ status: 'up' });
    t.clock.advance(1_000);
    engine.tick();
    await engine.idle();
    expect(await state(m.id)).toMatchObject({ status: 'down', error: { code: 'heartbeat' } });
    await t.http.post(url).set('Content-Type', 'text/plain').send('backup done in 42 s').expect(200);
    expect(await state(m.id)).toMatchObject({ status: 'up' });
    await t.http.head(url).expect(200);
  });

  it('counts the deadline from the last ping, across deadlines set by earlier pings', async () => {
    const m = await createMonitor(t, write, heartbeatMonitor({ interval_s: 300, heartbeat: { grace_s: 60 } }));
    const url = new URL(m.heartbeat_url).pathname;
    const tickAt = async (ms: number) => {
      t.clock.advance(ms);
      engine.tick();
      await engine.idle();
    };
    await t.http.get(url).expect(200);
    await tickAt(200_000);
    await t.http.get(url).expect(200);
    await tickAt(100_000);
    await t.http.get(url).expect(200);
    // The first ping's deadline (360 s) and the second's (560 s) pass: the third ping's (660 s) counts.
    await tickAt(60_000);
    await tickAt(200_000);
    expect(await state(m.id)).toMatchObject({ status: 'up' });
    await tickAt(99_000);
    expect(await state(m.id)).toMatchObject({ status: 'up' });
    await tickAt(1_000);
    expect(await state(m.id)).toMatchObject({ status: 'down', error: { code: 'heartbeat' } });
    // A failure report after a ping: down at once, and the next deadline runs from the report.
    await t.http.get(url).expect(200);
    await tickAt(100_000);
    await t.http.post(`${url}/fail`).expect(200);
    expect(await state(m.id)).toMatchObject({ status: 'down' });
  });

  it('goes down at once on a failure report and keeps its text', async () => {
    const m = (await t.http.post('/api/v1/monitors').set(bearer(write)).send(heartbeatMonitor()).expect(201)).body;
    const url = new URL(m.heartbeat_url).pathname;
    await t.http
      .post(`${url}/fail`)
      .set('Content-Type', 'text/plain')
      .send('disk full\n' + 'x'.repeat(5000))
      .expect(200);
    const s = await state(m.id);
    expect(s).toMatchObject({ status: 'down', error: { code: 'heartbeat' } });
    expect(s.error.message).toMatch(/^failure reported: disk full x+$/);
    expect(s.error.message.length).toBeLessThanOrEqual(1100);
  });

  it('answers 404 for unknown or rotated URLs, and ignores pings while paused', async () => {
    const m = (await t.http.post('/api/v1/monitors').set(bearer(write)).send(heartbeatMonitor()).expect(201)).body;
    const url = new URL(m.heartbeat_url).pathname;
    await t.http.get('/hb/not-a-real-token-at-all').expect(404);
    await t.http.get('/hb/x').expect(404);
    await t.http.get(url).expect(200);
    await t.http.post(`/api/v1/monitors/${m.id}/heartbeat-token`).set(bearer(write)).expect(200);
    await t.http.get(url).expect(404);
    const fresh = (await t.http.post(`/api/v1/monitors/${m.id}/heartbeat-token`).set(bearer(write)).expect(200)).body
      .heartbeat_url;
    await t.http.post(`/api/v1/monitors/${m.id}/pause`).set(bearer(write)).expect(200);
    const paused = await t.http.get(new URL(fresh).pathname).expect(200);
    expect(paused.text).toContain('paused');
    expect(await state(m.id)).toMatchObject({ status: 'paused' });
  });

  it('limits unknown URLs per address', async () => {
    for (let i = 0; i < 60; i++) await t.http.get(`/hb/unknown-token-number-${String(i).padStart(4, '0')}`).expect(404);
    const res = await t.http.get('/hb/unknown-token-number-9999').expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('restarts and blind periods', () => {
  it('loses no result and keeps every state across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-restart-'));
    const clock = new FakeClock(Date.UTC(2026, 10, 1, 12));
    const target = await startSwitchServer();
    try {
      const a = await startApp({}, { dataDir, clock });
      const { cookie } = await createOwner(a);
      const key = await createKey(a, cookie, 'write');
      const m = (
        await a.http
          .post('/api/v1/monitors')
          .set(bearer(key))
          .send(httpMonitor({ confirm_after: 1 }, { url: target.url }))
          .expect(201)
      ).body;
      const engine = a.app.get(EngineService);
      for (let i = 0; i < 5; i++) {
        if (i === 3) target.status = 500;
        engine.tick();
        await engine.idle();
        clock.advance(60_000);
      }
      expect(a.app.get(CheckWriter).pending().length).toBeGreaterThan(0); // still buffered at shutdown
      await a.close();

      const b = await startApp({}, { dataDir, clock });
      const rows = await b.db.query<{ outcome: number }[]>(
        'SELECT outcome FROM checks WHERE monitor_id = ? ORDER BY at',
        [m.id],
      );
      expect(rows.map((r) => r.outcome)).toEqual([0, 0, 0, 2, 2]);
      const s = (await b.http.get(`/api/v1/monitors/${m.id}`).set(bearer(key)).expect(200)).body.state;
      expect(s).toMatchObject({ status: 'down', failing: 2, error: { code: 'status' } });
      await b.close();
    } finally {
      await target.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('does not count failures while no canary is reachable, and records the blind period', async () => {
    const canary = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    const port = (canary.address() as net.AddressInfo).port;
    const target = await startSwitchServer();
    const t = await startApp({ FARSIGHT_CANARIES: `127.0.0.1:${port}` });
    try {
      const { cookie } = await createOwner(t);
      const key = await createKey(t, cookie, 'write');
      const m = await createMonitor(t, key, httpMonitor({ confirm_after: 1 }, { url: target.url }));
      const gate = t.app.get(EngineService);
      const { BlindGate } = await import('../../src/engine/blind/blind-gate');
      // Only a canary that has answered can make the service blind when it fails.
      await t.app.get(BlindGate).probe();
      await new Promise<void>((r) => canary.close(() => r()));
      await t.app.get(BlindGate).probe();
      target.status = 500;
      t.clock.advance(1000);
      gate.tick();
      await gate.idle();
      const s = (await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(key)).expect(200)).body.state;
      expect(s.status).toBe('unknown');
      expect(s.note).toMatch(/offline/);
      const summary = (await t.http.get('/api/v1/summary').set(bearer(key)).expect(200)).body;
      expect(summary.blind).toEqual({ active: true, since: expect.any(String), detection: 'ok' });
      const lines = await t.db.query<{ kind: string }[]>("SELECT kind FROM events WHERE kind = 'blind'");
      expect(lines).toHaveLength(1);
    } finally {
      await t.close();
      await target.close();
    }
  });
});
