/**
 * The service's own network and its own downtime: blind detection with canaries that never
 * answered (issue 10, item 2) and offline periods after a stop (item 3). Canaries are TCP
 * listeners on 127.0.0.1 that the test opens and closes.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../../src/common/clock';
import { formatWhen } from '../../src/common/time';
import { openDatabase } from '../../src/db/data-source';
import { ENTITIES } from '../../src/entities';
import { Database } from '../../src/db/database';
import { BlindGate } from '../../src/engine/blind/blind-gate';
import { probeCanaries } from '../../src/engine/blind/canaries';
import { EngineService } from '../../src/engine/engine.service';
import { LastAliveService } from '../../src/engine/last-alive/last-alive.service';
import { manualTimers } from '../../src/engine/scheduling/scheduler';
import { BusEvents, EventBus } from '../../src/events/event-bus';
import { EventsService } from '../../src/events/events.service';
import { CheckWriter } from '../../src/history/writer';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

/** A TCP listener on a fixed loopback port that can be switched off (connections refused) and on. */
interface LoopbackCanary {
  port: number;
  up(): Promise<void>;
  down(): Promise<void>;
}

async function loopbackCanary(): Promise<LoopbackCanary> {
  const listen = (s: net.Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
  const close = (s: net.Server) => new Promise<void>((r) => s.close(() => r()));
  const picker = net.createServer();
  await listen(picker, 0);
  const port = (picker.address() as net.AddressInfo).port;
  await close(picker);
  let server: net.Server | null = null;
  return {
    port,
    async up() {
      server = net.createServer((s) => s.destroy());
      await listen(server, port);
    },
    async down() {
      if (server) await close(server);
      server = null;
    },
  };
}

interface Line {
  kind: string;
  actor: string | null;
  text: string;
  data: Record<string, unknown> | null;
}

async function lines(t: TestApp, kind: string): Promise<Line[]> {
  await t.app.get(CheckWriter).flush();
  const rows = await t.db.query<{ kind: string; actor: string | null; text: string; data: string | null }[]>(
    'SELECT kind, actor, text, data FROM events WHERE kind = ? ORDER BY id',
    [kind],
  );
  return rows.map((r) => ({ ...r, data: r.data ? (JSON.parse(r.data) as Record<string, unknown>) : null }));
}

describe('canaries', () => {
  it('counts a refused connection as an answer only for a canary that allows it (the gateway)', async () => {
    const closed = await loopbackCanary();
    const open = await loopbackCanary();
    await open.up();
    try {
      const answers = await probeCanaries([
        { host: '127.0.0.1', port: closed.port },
        { host: '127.0.0.1', port: closed.port, refusedAnswers: true },
        { host: '127.0.0.1', port: open.port },
      ]);
      expect(answers).toEqual([false, true, true]);
    } finally {
      await open.down();
    }
  });
});

describe('blind detection where the canaries never answered', () => {
  let canary: LoopbackCanary;
  let a: SwitchServer;
  let b: SwitchServer;
  let t: TestApp;
  let key: string;
  let engine: EngineService;
  let gate: BlindGate;

  beforeEach(async () => {
    canary = await loopbackCanary(); // down from the start: a LAN without internet
    a = await startSwitchServer();
    b = await startSwitchServer();
    t = await startApp({ FARSIGHT_CANARIES: `127.0.0.1:${canary.port}` });
    const { cookie } = await createOwner(t);
    key = await createKey(t, cookie, 'write');
    engine = t.app.get(EngineService);
    gate = t.app.get(BlindGate);
  });
  afterEach(async () => {
    await t.close();
    await canary.down();
    await a.close();
    await b.close();
  });

  /** Moves the fake clock, runs what is due, and waits for the checks and any canary probe they started. */
  const step = async (ms: number) => {
    t.clock.advance(ms);
    engine.tick();
    await engine.idle();
    await gate.settled();
  };
  const blind = async () => (await t.http.get('/api/v1/summary').set(bearer(key)).expect(200)).body.blind;
  const state = async (id: number) =>
    (await t.http.get(`/api/v1/monitors/${id}`).set(bearer(key)).expect(200)).body.state;
  const create = async (body: object) =>
    (await t.http.post('/api/v1/monitors').set(bearer(key)).send(body).expect(201)).body as { id: number };

  it('lets monitors go Down while no canary has answered, goes blind when the one that answered fails, and ends when it is back', async () => {
    expect(await blind()).toEqual({ active: false, since: null, detection: 'pending' });

    // 1. Canaries down from the start: not blind, detection unavailable, failures count as usual.
    a.status = 500;
    const ma = await create(httpMonitor({ name: 'a', confirm_after: 2, retry_interval_s: 10 }, { url: a.url }));
    await step(0);
    expect(await blind()).toEqual({ active: false, since: null, detection: 'unavailable' });
    await step(10_000);
    expect(await state(ma.id)).toMatchObject({ status: 'down', failing: 2, note: null });
    await step(60_000); // another probe, still nothing answers: no second notice
    const unavailable = await lines(t, 'blind_detection');
    expect(unavailable).toEqual([expect.objectContaining({ actor: 'system', data: { detection: 'unavailable' } })]);
    expect(unavailable[0].text).toMatch(/no canary has answered since start .*FARSIGHT_CANARIES/);
    const warnings = t.logs.filter((l) => l.includes('blind detection cannot work'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/set FARSIGHT_CANARIES to host:port pairs/);
    expect(await lines(t, 'blind')).toEqual([]);

    // 2. The canary answers: detection works (one line says so), still not blind.
    await canary.up();
    await gate.probe();
    expect(await blind()).toEqual({ active: false, since: null, detection: 'ok' });
    expect((await lines(t, 'blind_detection')).map((l) => l.data)).toEqual([
      { detection: 'unavailable' },
      { detection: 'ok' },
    ]);
    const mb = await create(httpMonitor({ name: 'b', confirm_after: 1, retry_interval_s: 10 }, { url: b.url }));
    await step(0);
    expect(await state(mb.id)).toMatchObject({ status: 'up' });

    // 3. The canary that answered fails: blind, failures are kept with a note and not counted.
    await canary.down();
    await gate.probe();
    const since = new Date(t.clock.now()).toISOString();
    expect(await blind()).toEqual({ active: true, since, detection: 'ok' });
    b.status = 500;
    await step(60_000);
    expect(await state(mb.id)).toMatchObject({
      status: 'up',
      failing: 0,
      note: expect.stringMatching(/^not counted: the service itself was offline/),
    });
    const checks = (await t.http.get(`/api/v1/monitors/${mb.id}/checks`).set(bearer(key)).expect(200)).body.items;
    expect(checks[0]).toMatchObject({ outcome: 'down' });
    expect(checks[0].detail).toMatch(/^not counted/);
    expect(await lines(t, 'blind')).toEqual([
      expect.objectContaining({ actor: 'system', data: { active: true, lost: [`127.0.0.1:${canary.port}`] } }),
    ]);

    // 4. It answers again: the blind period ends and failures count again.
    await canary.up();
    await gate.probe();
    expect(await blind()).toEqual({ active: false, since: null, detection: 'ok' });
    expect((await lines(t, 'blind')).map((l) => l.data?.active)).toEqual([true, false]);
    await step(10_000);
    expect(await state(mb.id)).toMatchObject({ status: 'down', note: null });
    expect(await lines(t, 'blind_detection')).toHaveLength(2);
  });
});

describe('blind detection switched off', () => {
  it('says so in the summary, and in one timeline line however often the service restarts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-canaries-off-'));
    try {
      const first = await startApp({ FARSIGHT_CANARIES: 'off' }, { dataDir });
      const { cookie } = await createOwner(first);
      const key = await createKey(first, cookie, 'read');
      expect((await first.http.get('/api/v1/summary').set(bearer(key)).expect(200)).body.blind).toEqual({
        active: false,
        since: null,
        detection: 'off',
      });
      await first.close();
      const second = await startApp({ FARSIGHT_CANARIES: 'off' }, { dataDir });
      const off = await lines(second, 'blind_detection');
      expect(off).toEqual([expect.objectContaining({ data: { detection: 'off' } })]);
      expect(off[0].text).toMatch(/FARSIGHT_CANARIES=off/);
      // The log says it at every start: logs are per run, the timeline is not.
      expect(second.logs.some((l) => /blind detection is off .*set FARSIGHT_CANARIES to host:port pairs/.test(l))).toBe(
        true,
      );
      await second.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('offline periods', () => {
  const START = Date.UTC(2026, 10, 1, 12);
  const HOUR = 3_600_000;
  let dataDir: string;
  let clock: FakeClock;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-offline-'));
    clock = new FakeClock(START);
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('records an unclean stop as an offline line, and a heartbeat gets a fresh window whose note says why', async () => {
    const first = await startApp({}, { dataDir, clock });
    const { cookie } = await createOwner(first);
    const key = await createKey(first, cookie, 'write');
    const hb = (
      await first.http
        .post('/api/v1/monitors')
        .set(bearer(key))
        .send(heartbeatMonitor({ interval_s: 300, heartbeat: { grace_s: 60 } }))
        .expect(201)
    ).body;
    await first.http.get(new URL(hb.heartbeat_url).pathname).expect(200);
    clock.advance(20_000);
    await first.app.get(LastAliveService).mark();
    const lastMark = clock.now();
    clock.advance(10_000);
    // kill -9: the process dies without its shutdown hooks, so only the periodic mark remains.
    jest.spyOn(first.app.get(LastAliveService), 'onApplicationShutdown').mockResolvedValue();
    await first.close();

    clock.advance(HOUR);
    const second = await startApp({}, { dataDir, clock });
    try {
      const now = clock.now();
      const offline = await lines(second, 'offline');
      expect(offline).toEqual([
        {
          kind: 'offline',
          actor: 'system',
          text: expect.stringMatching(/stopped without warning/),
          data: { from: lastMark, to: now, clean: false },
        },
      ]);
      expect(offline[0].text).toContain(`from ${formatWhen(lastMark)} to ${formatWhen(now)}`);

      const state = async () =>
        (await second.http.get(`/api/v1/monitors/${hb.id}`).set(bearer(key)).expect(200)).body.state;
      const note = `waiting for a ping: the service was offline from ${formatWhen(lastMark)} to ${formatWhen(now)}`;
      expect(await state()).toMatchObject({ status: 'up', note });
      // A punctual job needs a whole interval to ping again: the deadline is interval + grace from the start.
      const engine = second.app.get(EngineService);
      expect(engine.dueOf(hb.id)).toBe(now + 360_000);
      clock.advance(359_000);
      engine.tick();
      await engine.idle();
      expect(await state()).toMatchObject({ status: 'up', note });
      await second.http.get(new URL(hb.heartbeat_url).pathname).expect(200);
      expect(await state()).toMatchObject({ status: 'up', note: null });
    } finally {
      await second.close();
    }
  });

  it('records a clean stop as offline time too (clean: true), but not a quick restart', async () => {
    const first = await startApp({}, { dataDir, clock });
    clock.advance(5_000);
    await first.close(); // SIGTERM: the final mark says when and that it was clean
    clock.advance(2 * HOUR);
    const second = await startApp({}, { dataDir, clock });
    expect((await lines(second, 'offline')).map((l) => l.data)).toEqual([
      { from: START + 5_000, to: START + 5_000 + 2 * HOUR, clean: true },
    ]);
    expect((await lines(second, 'offline'))[0].text).toMatch(/\(2 h 0 min, stopped cleanly\)/);
    clock.advance(10_000);
    await second.close();
    clock.advance(30_000); // a restart (systemctl restart, an upgrade) is not an offline period
    const third = await startApp({}, { dataDir, clock });
    expect(await lines(third, 'offline')).toHaveLength(1);
    await third.close();
  });

  it('emits the offline period on the bus for the alerts, once, at start', async () => {
    const db = new Database(await openDatabase(dataDir, ENTITIES));
    try {
      await db.query('INSERT INTO last_alive (id, at, clean) VALUES (1, ?, 0)', [START]);
      clock.advance(HOUR);
      const bus = new EventBus();
      const seen: BusEvents['offline'][] = [];
      bus.on('offline', (p) => seen.push(p));
      const alive = new LastAliveService(db, new EventsService(db, clock), bus, clock);
      const info = await alive.start(manualTimers);
      await alive.start(manualTimers);
      expect(info).toEqual({
        stoppedAt: START,
        offline: { from: START, to: START + HOUR, clean: false },
        restored: null,
      });
      expect(seen).toEqual([{ from: START, to: START + HOUR, clean: false }]);
      await alive.onApplicationShutdown();
      expect(await db.query('SELECT at, clean FROM last_alive')).toEqual([{ at: START + HOUR, clean: 1 }]);
    } finally {
      await db.close();
    }
  });
});
