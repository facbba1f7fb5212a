/**
 * GET /stream end to end: the app listening on 127.0.0.1, real streaming clients
 * (harness/sse.ts), real checks against a local target, blind detection against a loopback
 * canary, real SQLite. The stream's periods and limits are shortened through the app's stream
 * options (a keep-alive every 300 ms, a ring of 1,000 events, 256 KiB per client), so nothing
 * here waits 25 s. Incidents come from real outages of a local target, as the engine opens and
 * ends them.
 */
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionsService } from '../../src/auth/sessions/sessions.service';
import { VERSION } from '../../src/common/version';
import { BlindGate } from '../../src/engine/blind/blind-gate';
import { EngineService } from '../../src/engine/engine.service';
import { BURST_WINDOW_MS } from '../../src/engine/scheduling/scheduler';
import { EventBus } from '../../src/events/event-bus';
import { CheckWriter } from '../../src/history/writer';
import { StreamHub } from '../../src/stream/stream.hub';
import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { httpMonitor } from '../support/monitors';
import { SseClient, StalledClient } from '../../harness/sse';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

const OPTIONS = {
  keepAliveMs: 300,
  retryMs: 1500,
  monitorsWindowMs: 100,
  ringEvents: 1000,
  clientQueueBytes: 256 * 1024,
};
const SECRET = 'hunter2-never-on-the-wire';

type CheckData = {
  monitor_id: number;
  at_ms: number;
  outcome: string;
  latency_ms: number | null;
  status: number | null;
  error: unknown;
};
type StateData = { monitor_id: number; state: { status: string } & Record<string, unknown> };

/** Resolves with `p`, or fails the test with `what` after `ms` (instead of jest's silent timeout). */
function within<T>(p: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms);
    }),
  ]);
}

/** A TCP listener on a fixed loopback port, for blind detection: open, or closed (connections refused). */
async function loopbackCanary(): Promise<{ port: number; up(): Promise<void>; down(): Promise<void> }> {
  let server: net.Server | null = null;
  const listen = (port: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer((c) => c.destroy());
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve(s));
    });
  server = await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    async up() {
      server ??= await listen(port);
    },
    async down() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

describe('GET /stream', () => {
  let t: TestApp;
  let target: SwitchServer;
  let canary: Awaited<ReturnType<typeof loopbackCanary>>;
  let cookie: string;
  let read: string;
  let write: string;
  let base: string;
  let hub: StreamHub;
  let engine: EngineService;
  const opened: SseClient[] = [];

  beforeAll(async () => {
    target = await startSwitchServer();
    canary = await loopbackCanary();
    t = await startApp({ FARSIGHT_CANARIES: `127.0.0.1:${canary.port}` }, { stream: OPTIONS });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ cookie } = await createOwner(t));
    read = await createKey(t, cookie, 'read');
    write = await createKey(t, cookie, 'write');
    hub = t.app.get(StreamHub);
    engine = t.app.get(EngineService);
  });
  afterEach(() => {
    for (const c of opened.splice(0)) c.close();
  });
  afterAll(async () => {
    await t.close();
    await target.close();
    await canary.down();
  });

  const stream = async (headers: Record<string, string>) => {
    const c = await SseClient.open(`${base}/api/v1/stream`, headers);
    opened.push(c);
    return c;
  };
  const helloed = async (headers: Record<string, string>) => {
    const c = await stream(headers);
    expect(c.status).toBe(200);
    await c.until(() => c.events.length > 0, 'hello');
    return c;
  };
  /**
   * One create on its own, as a person makes them: the app is shared by the tests here, and creates
   * from several tests at one instant of the fake clock would be a burst, whose checks the engine
   * spreads (engine/scheduling/scheduler.ts BurstGauge) instead of keeping the cadence these tests count on.
   */
  const create = async (body: object) => {
    t.clock.advance(BURST_WINDOW_MS);
    return (await t.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(201)).body as { id: number };
  };
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    engine.tick();
    await engine.idle();
  };
  /** Commits what the engine holds: transitions and path problems reach the bus (and the stream) after this. */
  const commit = () => t.app.get(CheckWriter).flush();
  const checksOf = (c: SseClient, id: number) => c.of<CheckData>('check').filter((e) => e.data.monitor_id === id);
  const statesOf = (c: SseClient, id: number) => c.of<StateData>('state').filter((e) => e.data.monitor_id === id);
  /** The owner's session, as the dashboard sends it on a change. */
  const session = () => ({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' });
  const newKey = async (body: object) =>
    (await t.http.post('/api/v1/keys').set(session()).send(body).expect(201)).body as { id: number; key: string };
  /** Check events on the real bus, as the engine emits them: volume without thousands of real checks. */
  const flood = (n: number, messageBytes = 40) => {
    const bus = t.app.get(EventBus);
    for (let i = 0; i < n; i++) {
      bus.emit('check', {
        id: 999_999,
        at: t.clock.now(),
        outcome: 'down',
        latency_ms: 1,
        status: 500,
        error: { code: 'status', message: 'x'.repeat(messageBytes) },
      });
    }
  };
  const seqOf = (id: string) => Number(id.split('-')[1]);

  it('answers 401 in the error envelope without credentials or with an unknown key', async () => {
    for (const headers of [{}, bearer(`fs_${'0'.repeat(48)}`)]) {
      const c = await stream(headers);
      await c.closed;
      expect(c.status).toBe(401);
      expect(JSON.parse(c.body)).toEqual({ error: { code: 'sign_in', message: expect.any(String) } });
    }
  });

  it('opens with hello {version} and retry for read, write and admin keys and for the session cookie (no Origin needed)', async () => {
    const admin = await createKey(t, cookie, 'admin');
    for (const headers of [bearer(read), bearer(write), bearer(admin), { Cookie: cookie }]) {
      const c = await helloed(headers);
      expect(c.res.headers).toMatchObject({
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        connection: 'close',
      });
      expect(c.res.headers['transfer-encoding']).toBeUndefined();
      expect(c.res.headers['x-content-type-options']).toBe('nosniff');
      expect(c.events[0]).toEqual({ event: 'hello', id: hub.lastEventId, data: JSON.stringify({ version: VERSION }) });
      expect(c.lastEventId).toMatch(new RegExp(`^${hub.boot}-\\d+$`));
      expect(c.retry).toBe(1500);
    }
  });

  it('sends a comment line at the keep-alive period', async () => {
    const c = await helloed(bearer(read));
    await c.until(() => c.comments.includes('keep-alive'), 'a keep-alive comment');
  });

  it('sends each check result at once, as GET /checks shows it before it is written', async () => {
    const c = await helloed(bearer(read));
    const m = await create(httpMonitor({ name: 'checked' }, { url: target.url }));
    await advance(0);
    target.status = 503;
    await advance(60_000);
    target.status = 200;
    await c.until(() => checksOf(c, m.id).length === 2, 'two check events');
    const stored = (await t.http.get(`/api/v1/monitors/${m.id}/checks`).set(bearer(read)).expect(200)).body
      .items as Record<string, unknown>[];
    const pick = (r: Record<string, unknown>) => ({
      monitor_id: m.id,
      at_ms: r.at_ms,
      outcome: r.outcome,
      latency_ms: r.latency_ms,
      status: r.status,
      error: r.error,
      location: r.location,
    });
    expect(checksOf(c, m.id).map((e) => e.data)).toEqual([pick(stored[1]), pick(stored[0])]);
    expect(checksOf(c, m.id)[1].data).toMatchObject({
      outcome: 'down',
      status: 503,
      error: { code: 'status', message: expect.any(String) },
    });
    expect(Number.isInteger(checksOf(c, m.id)[0].data.latency_ms)).toBe(true);
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
  });

  it('sends the state as the monitors API shows it after each committed change: up, down, up (and no secret)', async () => {
    const c = await helloed(bearer(read));
    const m = await create(
      httpMonitor(
        { name: 'flaky', confirm_after: 1 },
        {
          url: target.url,
          auth: { type: 'basic', username: 'u', password: SECRET },
          headers: [{ name: 'X-Token', value: SECRET }],
        },
      ),
    );
    const apiState = async () =>
      (await t.http.get(`/api/v1/monitors/${m.id}`).set(bearer(read)).expect(200)).body.state;
    const statuses = () =>
      statesOf(c, m.id)
        .map((e) => e.data.state.status)
        .filter((s, i, all) => i === 0 || s !== all[i - 1]);

    await advance(0);
    await commit();
    await c.until(() => statuses().length === 1, 'state up');
    target.status = 500;
    await advance(60_000);
    await commit();
    await c.until(() => statuses().length === 2, 'state down');
    expect(statesOf(c, m.id).at(-1)?.data.state).toEqual(await apiState());
    target.status = 200;
    await advance(10_000);
    await commit();
    await c.until(() => statuses().length === 3, 'state up again');
    expect(statuses()).toEqual(['up', 'down', 'up']);
    expect(statesOf(c, m.id).at(-1)?.data.state).toEqual(await apiState());
    expect(c.raw).not.toContain(SECRET);
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
  });

  it('sends a path event when a second check contradicts a failure', async () => {
    const c = await helloed(bearer(read));
    const m = await create(httpMonitor({ name: 'path', confirm_after: 1 }, { url: target.url }));
    target.failNext = 1;
    await advance(0);
    await commit();
    const ev = await c.next<{ host: string; at: string }>('path');
    const failed = (await t.http.get(`/api/v1/monitors/${m.id}/checks`).set(bearer(read)).expect(200)).body.items.find(
      (r: { outcome: string }) => r.outcome === 'down',
    );
    expect(ev.data).toEqual({ host: new URL(target.url).host, at: failed.at });
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
  });

  it('sends blind when the canary that answered fails, and again when it answers', async () => {
    const gate = t.app.get(BlindGate);
    const c = await helloed(bearer(read));
    await gate.probe();
    await canary.down();
    await gate.probe();
    const since = new Date(t.clock.now()).toISOString();
    expect((await c.next('blind')).data).toEqual({ active: true, since });
    await canary.up();
    t.clock.advance(5_000);
    await gate.probe();
    expect((await c.next('blind')).data).toEqual({ active: false, since });
  });

  it('sends each incident as the incidents API shows it: opened, acknowledged, recovered, and ended by a deletion', async () => {
    const c = await helloed(bearer(read));
    const incidentsOf = () => c.of<Record<string, unknown>>('incident').map((e) => e.data);
    const m = await create(httpMonitor({ name: 'incident', confirm_after: 1 }, { url: target.url }));
    await advance(0);
    target.status = 500;
    await advance(60_000);
    await commit();
    await c.until(() => incidentsOf().length === 1, 'incident opened');
    const [opened] = incidentsOf();
    const api = async (id: unknown) => {
      // `affected` is the incident routes' (docs/incidents.md): the stream's incident events leave it out.
      const {
        checks: _checks,
        timeline: _timeline,
        affected: _affected,
        ...rest
      } = (await t.http.get(`/api/v1/incidents/${id}`).set(bearer(read)).expect(200)).body;
      return rest;
    };
    expect(opened).toEqual(await api(opened.id));
    expect(opened).toMatchObject({ monitor_id: m.id, ended_at: null, end_reason: null, cause: { code: 'status' } });

    await t.http.patch(`/api/v1/incidents/${opened.id}`).set(bearer(write)).send({ acknowledged: true }).expect(200);
    await c.until(() => incidentsOf().length === 2, 'incident acknowledged');
    expect(incidentsOf()[1].acknowledged_at).toEqual(new Date(t.clock.now()).toISOString());

    target.status = 200;
    await advance(10_000);
    await commit();
    await c.until(() => incidentsOf().length === 3, 'incident recovered');
    expect(incidentsOf()[2]).toEqual(await api(opened.id));
    expect(incidentsOf()[2]).toMatchObject({ end_reason: 'recovered' });

    // Down again, then deleted: the stream reports the end.
    target.status = 500;
    await advance(60_000);
    await commit();
    await c.until(() => incidentsOf().length === 4, 'second incident');
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
    await c.until(() => incidentsOf().length === 5, 'incident ended by the deletion');
    expect(incidentsOf()[4]).toMatchObject({
      id: incidentsOf()[3].id,
      end_reason: 'deleted',
      monitor_name: 'incident',
    });
    target.status = 200;
  });

  it('gathers monitor changes into one monitors event per window: one create, a bulk of 50, a delete', async () => {
    const c = await helloed(bearer(read));
    type Changes = { changed: number[]; deleted: number[] };
    // Earlier tests' deletions may still be in a window: look only at the events that name ours.
    const about = (ids: number[]) =>
      c.of<Changes>('monitors').filter((e) => [...e.data.changed, ...e.data.deleted].some((id) => ids.includes(id)));
    const eventAbout = async (ids: number[], n: number) => {
      await c.until(() => about(ids).length >= n, `monitors event ${n} about ${ids.length} monitors`);
      return about(ids)[n - 1].data;
    };

    const solo = await create(httpMonitor({ name: 'solo', paused: true }, { url: target.url }));
    expect((await eventAbout([solo.id], 1)).changed).toEqual([solo.id]);

    const items = Array.from({ length: 50 }, (_, i) =>
      httpMonitor({ name: `bulk ${i}`, slug: `bulk-${i}`, paused: true }, { url: target.url }),
    );
    await t.http.post('/api/v1/monitors/bulk').set(bearer(write)).send({ monitors: items }).expect(200);
    const listed = (await t.http.get('/api/v1/monitors?limit=500').set(bearer(read)).expect(200)).body.items as {
      id: number;
      slug: string;
    }[];
    const bulkIds = listed
      .filter((m) => m.slug.startsWith('bulk-'))
      .map((m) => m.id)
      .sort((a, b) => a - b);
    expect(bulkIds).toHaveLength(50);
    expect((await eventAbout(bulkIds, 1)).changed).toEqual(bulkIds);

    await t.http.delete(`/api/v1/monitors/${solo.id}`).set(bearer(write)).expect(200);
    expect(await eventAbout([solo.id], 2)).toEqual({ changed: [], deleted: [solo.id] });
    expect(about([solo.id, ...bulkIds])).toHaveLength(3);
  });

  it('replays exactly the missed events to a client that comes back with Last-Event-ID', async () => {
    const away = await helloed(bearer(read));
    const stayed = await helloed(bearer(read));
    const held = away.lastEventId;
    away.close();
    await away.closed;

    const m = await create(httpMonitor({ name: 'missed' }, { url: target.url }));
    await advance(0);
    await advance(60_000);
    await commit();
    await stayed.until(
      () => checksOf(stayed, m.id).length === 2 && statesOf(stayed, m.id).length === 1,
      'the events to be missed',
    );
    const upTo = stayed.lastEventId;
    const missed = stayed.events.filter(
      (e) => e.event !== 'hello' && seqOf(e.id) > seqOf(held) && seqOf(e.id) <= seqOf(upTo),
    );
    expect(missed.map((e) => e.event)).toEqual(expect.arrayContaining(['check', 'state']));

    const back = await helloed({ ...bearer(read), 'Last-Event-ID': held });
    await back.until(() => seqOf(back.lastEventId) >= seqOf(upTo), 'the replay');
    expect(back.events[0]).toMatchObject({ event: 'hello', id: held });
    expect(back.events.slice(1).filter((e) => seqOf(e.id) <= seqOf(upTo))).toEqual(missed);
    expect(back.of('reset')).toEqual([]);
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
  });

  it('replays the check events made while no client was connected', async () => {
    const away = await helloed(bearer(read));
    const held = away.lastEventId;
    away.close();
    await away.closed;
    // The service sees the close a moment after the client: polled, not slept.
    for (let i = 0; i < 400 && hub.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(hub.size).toBe(0);

    const m = await create(httpMonitor({ name: 'alone' }, { url: target.url }));
    await advance(0);
    target.status = 503;
    await advance(60_000);
    target.status = 200;
    await commit();

    const back = await helloed({ ...bearer(read), 'Last-Event-ID': held });
    await back.until(() => checksOf(back, m.id).length === 2, 'the replayed checks');
    expect(back.of('reset')).toEqual([]);
    const seqs = back.events.slice(1).map((e) => seqOf(e.id));
    expect(seqs).toEqual(seqs.map((_, i) => seqOf(held) + 1 + i));
    const stored = (await t.http.get(`/api/v1/monitors/${m.id}/checks`).set(bearer(read)).expect(200)).body
      .items as Record<string, unknown>[];
    const pick = (r: Record<string, unknown>) => ({
      monitor_id: m.id,
      at_ms: r.at_ms,
      outcome: r.outcome,
      latency_ms: r.latency_ms,
      status: r.status,
      error: r.error,
      location: r.location,
    });
    expect(checksOf(back, m.id).map((e) => e.data)).toEqual([pick(stored[1]), pick(stored[0])]);
    expect(checksOf(back, m.id)[1].data).toMatchObject({ outcome: 'down', status: 503, error: { code: 'status' } });
    await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
  });

  it('tells a client to reload (reset) when its Last-Event-ID cannot be resumed exactly', async () => {
    flood(1100);
    const last = seqOf(hub.lastEventId);
    const cases: [string, string][] = [
      ['not-an-id', 'unknown_id'],
      ['deadbeef-12', 'restarted'],
      [`${hub.boot}-${last + 1000}`, 'unknown_id'],
      [`${hub.boot}-${last - 1050}`, 'gone'],
      [`${hub.boot}-${last - 900}`, 'too_far_behind'],
    ];
    for (const [sent, reason] of cases) {
      // Other events may be published meanwhile (timers of the service run for real): hello and
      // reset carry the newest id at the moment the stream opened.
      const before = seqOf(hub.lastEventId);
      const c = await stream({ ...bearer(read), 'Last-Event-ID': sent });
      await c.until(() => c.events.length >= 2, `hello and reset for ${sent}`);
      const [hello, reset] = c.events;
      expect([hello.event, reset.event]).toEqual(['hello', 'reset']);
      expect(reset.id).toBe(hello.id);
      expect(seqOf(hello.id)).toBeGreaterThanOrEqual(before);
      expect(seqOf(hello.id)).toBeLessThanOrEqual(seqOf(hub.lastEventId));
      expect(c.of('reset')[0].data).toEqual({ reason });
    }
    const near = await stream({ ...bearer(read), 'Last-Event-ID': `${hub.boot}-${last - 10}` });
    await near.until(() => near.events.length >= 11, 'a short replay');
    expect(near.of('reset')).toEqual([]);
    // Exactly the missed events, in order, right after hello.
    expect(near.events.slice(1, 11).map((e) => seqOf(e.id))).toEqual(
      Array.from({ length: 10 }, (_, i) => last - 9 + i),
    );
  });

  it('cuts off a client that stops reading, while a client that reads gets every event', async () => {
    const reading = await helloed(bearer(read));
    const stalled = await StalledClient.open(`${base}/api/v1/stream`, bearer(read));
    const dropped = hub.dropped;
    const first = seqOf(hub.lastEventId) + 1;
    // 64 KB a round, each round once the reading client has caught up: the kernel's socket
    // buffers take a few MB before the service holds anything for the stalled client.
    for (let round = 0; hub.dropped === dropped; round++) {
      if (round === 400) throw new Error('the stalled client was not cut off after 25 MB');
      flood(64, 1000);
      const last = hub.lastEventId;
      await reading.until(() => reading.lastEventId === last, 'the reading client to catch up');
    }
    expect(hub.dropped).toBe(dropped + 1);
    expect(
      t.logs.some((l) =>
        /stream of key \d+ "read key" from \S+ cut off: it left \d+ bytes unread \(limit 262144\)/.test(l),
      ),
    ).toBe(true);

    flood(1);
    const last = hub.lastEventId;
    await reading.until(() => reading.lastEventId === last, 'the next event after the cut');
    const seqs = reading.events.filter((e) => seqOf(e.id) >= first).map((e) => seqOf(e.id));
    expect(seqs).toEqual(Array.from({ length: seqOf(last) - first + 1 }, (_, i) => first + i));
    expect(reading.ended).toBe(false);
    const after = await stalled.resume(10_000);
    expect(after.cut).toBe(true);
    expect(after.bytes).toBeLessThan(reading.raw.length);
  });

  it('delivers every check to 200 concurrent clients while checks run', async () => {
    const many = await createKey(t, cookie, 'read', 'two hundred');
    const clients = await Promise.all(Array.from({ length: 200 }, () => stream(bearer(many))));
    await Promise.all(clients.map((c) => c.until(() => c.events.length > 0, 'hello')));
    expect(hub.size).toBeGreaterThanOrEqual(200);
    const monitors = await Promise.all(
      Array.from({ length: 5 }, (_, i) => create(httpMonitor({ name: `busy ${i}` }, { url: target.url }))),
    );
    const ids = new Set(monitors.map((m) => m.id));
    await advance(0);
    await advance(60_000);
    await advance(60_000);
    const seen = (c: SseClient) => c.of<CheckData>('check').filter((e) => ids.has(e.data.monitor_id)).length;
    await Promise.all(clients.map((c) => c.until(() => seen(c) === 15, '15 checks at every client', 20_000)));
    const reference = clients[0].of('check').filter((e) => ids.has((e.data as CheckData).monitor_id));
    for (const c of clients)
      expect(c.of('check').filter((e) => ids.has((e.data as CheckData).monitor_id))).toEqual(reference);
    for (const m of monitors) await t.http.delete(`/api/v1/monitors/${m.id}`).set(bearer(write)).expect(200);
  }, 30_000);

  it('closes the streams of a revoked key at once; another key keeps its stream, the revoked one cannot reopen', async () => {
    const doomed = await newKey({ name: 'doomed', scope: 'read' });
    const other = await newKey({ name: 'other', scope: 'read' });
    const a = await helloed(bearer(doomed.key));
    const a2 = await helloed(bearer(doomed.key));
    const b = await helloed(bearer(other.key));
    await t.http.delete(`/api/v1/keys/${doomed.id}`).set(session()).expect(200);
    await within(Promise.all([a.closed, a2.closed]), "the revoked key's streams to close");
    flood(1);
    const last = hub.lastEventId;
    await b.until(() => b.lastEventId === last, "an event on the other key's stream");
    const again = await stream(bearer(doomed.key));
    await again.closed;
    expect(again.status).toBe(401);
  });

  it("closes a session's stream when it signs out; other sessions keep theirs", async () => {
    const { token } = await t.app.get(SessionsService).create('password', '127.0.0.1', null);
    const mine = `service_session=${token}`;
    const s = await helloed({ Cookie: mine });
    const owner = await helloed({ Cookie: cookie });
    await t.http
      .post('/api/v1/auth/logout')
      .set({ Cookie: mine, Origin: ORIGIN, 'Content-Type': 'application/json' })
      .expect(200);
    await within(s.closed, "the signed-out session's stream to close");
    expect(owner.ended).toBe(false);
  });

  it('closes the stream of a key once it has expired (the periodic sweep)', async () => {
    const expiring = await newKey({
      name: 'expiring',
      scope: 'read',
      expires_at: new Date(t.clock.now() + 3_600_000).toISOString(),
    });
    const s = await helloed(bearer(expiring.key));
    const keeps = await helloed(bearer(read));
    await hub.sweep();
    expect(s.ended).toBe(false);
    t.clock.advance(2 * 3_600_000);
    await hub.sweep();
    await within(s.closed, "the expired key's stream to close");
    expect(keeps.ended).toBe(false);
  });
});

describe('GET /stream across a restart', () => {
  it('ends open streams when the service stops, and a client from the old run gets a reset', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-stream-'));
    const listen = async (t: TestApp) => {
      const server = t.app.getHttpServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/stream`;
    };
    try {
      const first = await startApp({}, { stream: OPTIONS, dataDir });
      const { cookie } = await createOwner(first);
      const c = await SseClient.open(await listen(first), { Cookie: cookie });
      await c.until(() => c.events.length > 0, 'hello');
      await within(first.close(), 'the app to close with a stream open');
      await within(c.closed, 'the stream to end');

      const second = await startApp({}, { stream: OPTIONS, dataDir });
      try {
        const back = await SseClient.open(await listen(second), { Cookie: cookie, 'Last-Event-ID': c.lastEventId });
        await back.until(() => back.events.length >= 2, 'hello and reset');
        expect(back.of('reset')[0].data).toEqual({ reason: 'restarted' });
        back.close();
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
