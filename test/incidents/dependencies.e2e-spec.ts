/**
 * Dependencies on the real app (issue 36, docs/dependencies.md): real http targets on 127.0.0.1
 * switched down and up, the fake clock, a real webhook receiver. One broken router makes one
 * incident: its dependants join it as affected (no incident, no alert of their own), its down
 * alert names them, and when it recovers what is still down gets an incident and an alert of its
 * own at once.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DispatcherService } from '../../src/channels/dispatcher.service';
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

interface WireEvent {
  type: string;
  monitor: { name: string } | null;
  message: string;
  affected?: { count: number; names: string[]; also: boolean };
}

async function receiver(): Promise<{ url: string; got: WireEvent[][]; close(): Promise<void> }> {
  const got: WireEvent[][] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: WireEvent[] }).events);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('dependencies: one cause, one incident', () => {
  let h: EngineHarness;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let targets: Record<string, SwitchServer>;

  beforeEach(async () => {
    h = await startEngineHarness();
    hook = await receiver();
    targets = { router: h.target, nas: await startSwitchServer(), plex: await startSwitchServer() };
    const admin = await createKey(h.t, h.cookie, 'admin', 'admin key');
    await h.t.http
      .post('/api/v1/channels')
      .set(bearer(admin))
      .send({
        kind: 'webhook',
        name: 'Hook',
        config: { url: hook.url, secret: 'a-long-signing-secret-0123456789', headers: [] },
      })
      .expect(201);
  });
  afterEach(async () => {
    await h.close();
    await hook.close();
    await targets.nas.close();
    await targets.plex.close();
  });

  const api = () => h.t.http;
  const create = async (name: string, over: Record<string, unknown> = {}) =>
    (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ name, interval_s: 60, retry_interval_s: 10, ...over }, { url: targets[name].url }))
        .expect(201)
    ).body as { id: number };
  const advance = async (ms: number) => {
    await h.advance(ms);
    await h.writer.flush();
    await h.t.app.get(DispatcherService).runDue();
  };
  const stateOf = async (id: number) =>
    (await api().get(`/api/v1/monitors/${id}`).set(bearer(h.write)).expect(200)).body.state;
  const incidents = async () =>
    (await api().get('/api/v1/incidents?state=all').set(bearer(h.write)).expect(200)).body.items as {
      id: number;
      monitor_name: string;
      ended_at: string | null;
      affected: { monitor_id: number; name: string; until: string | null }[];
    }[];

  /** router; nas and plex depend on it and confirm after two failed checks (the router after one). */
  async function lab() {
    const router = await create('router', { confirm_after: 1 });
    const nas = await create('nas', { confirm_after: 2, depends_on: [router.id] });
    const plex = await create('plex', { confirm_after: 2, depends_on: ['slug:router'] });
    await advance(60_000);
    return { router, nas, plex };
  }

  it('the router goes down, then its dependants: one incident naming them, one message on the channel', async () => {
    const { router, nas, plex } = await lab();
    for (const t of Object.values(targets)) t.status = 500;
    await advance(60_000); // router down (incident, alert queued); nas and plex failing
    await advance(10_000); // nas and plex confirm down: they join
    await advance(20_000); // the batch is due
    const all = await incidents();
    expect(all).toHaveLength(1);
    expect(all[0].monitor_name).toBe('router');
    expect(all[0].affected.map((a) => a.name).sort()).toEqual(['nas', 'plex']);
    expect((await stateOf(nas.id)).cause).toEqual({ monitor_id: router.id, incident_id: all[0].id });
    expect(await stateOf(nas.id)).toMatchObject({ status: 'down', incident_id: null });
    expect((await stateOf(router.id)).cause).toBeNull();
    expect(hook.got).toHaveLength(1);
    expect(hook.got[0]).toHaveLength(1);
    const [down] = hook.got[0];
    expect(down).toMatchObject({ type: 'down', monitor: { name: 'router' }, affected: { count: 2, also: false } });
    expect(down.message).toMatch(/^router is down.*; affected: 2 monitors \((nas, plex|plex, nas)\)$/);

    // plex recovers on its own while the router is still down: it leaves, without an alert.
    targets.plex.status = 200;
    await advance(60_000);
    expect(await stateOf(plex.id)).toMatchObject({ status: 'up', cause: null });
    expect(hook.got).toHaveLength(1);

    // The router recovers; nas is still down: an incident of its own at once, and its alert.
    targets.router.status = 200;
    await advance(60_000);
    await advance(20_000);
    const after = await incidents();
    expect(after.map((i) => [i.monitor_name, i.ended_at === null])).toEqual([
      ['nas', true],
      ['router', false],
    ]);
    expect(after[1].affected.every((a) => a.until !== null)).toBe(true);
    expect(await stateOf(nas.id)).toMatchObject({ status: 'down', cause: null, incident_id: after[0].id });
    const sent = hook.got.slice(1).flat();
    expect(sent.map((e) => [e.type, e.monitor?.name])).toEqual([
      ['up', 'router'],
      ['down', 'nas'],
    ]);
  });

  it('a dependant that joins after the cause alerted is sent as "also affected" on the cause’s channels', async () => {
    const { router, nas } = await lab();
    targets.router.status = 500;
    await advance(60_000);
    await advance(20_000);
    expect(hook.got.flat().map((e) => e.monitor?.name)).toEqual(['router']);
    targets.nas.status = 500;
    await advance(60_000);
    await advance(10_000);
    await advance(20_000);
    expect(hook.got).toHaveLength(2);
    expect(hook.got[1]).toEqual([
      expect.objectContaining({
        type: 'down',
        monitor: expect.objectContaining({ name: 'router' }),
        message: 'also affected by the outage of router: 1 monitor (nas)',
        affected: { count: 1, names: ['nas'], also: true },
      }),
    ]);
    expect((await stateOf(nas.id)).cause?.monitor_id).toBe(router.id);
  });

  it('the cause’s reminders name the monitors still affected', async () => {
    const router = await create('router', { confirm_after: 1, remind_every_min: 5 });
    await create('nas', { confirm_after: 2, depends_on: [router.id] });
    await create('plex', { confirm_after: 2, depends_on: [router.id] });
    await advance(60_000);
    for (const t of Object.values(targets)) t.status = 500;
    await advance(60_000);
    await advance(10_000);
    await advance(20_000);
    targets.plex.status = 200; // plex recovers: the reminder names only the nas
    for (let i = 0; i < 5; i++) await advance(60_000);
    await advance(20_000);
    const reminders = hook.got.flat().filter((e) => e.type === 'reminder');
    expect(reminders.length).toBeGreaterThan(0);
    expect(reminders[0]).toMatchObject({ monitor: { name: 'router' }, affected: { count: 1, names: ['nas'] } });
    expect(reminders[0].message).toMatch(/^router is still down after .*; affected: 1 monitor \(nas\)$/);
  });

  it('a dependant down before its parent keeps its own incident; the parent opens its own', async () => {
    const { nas } = await lab();
    targets.nas.status = 500;
    await advance(60_000);
    await advance(10_000);
    targets.router.status = 500;
    await advance(50_000);
    const all = await incidents();
    expect(all.map((i) => i.monitor_name).sort()).toEqual(['nas', 'router']);
    expect(all.every((i) => i.affected.length === 0)).toBe(true);
    expect((await stateOf(nas.id)).cause).toBeNull();
  });

  it('a paused parent is not down: its dependant opens its own incident', async () => {
    const { router, nas } = await lab();
    await api().post(`/api/v1/monitors/${router.id}/pause`).set(bearer(h.write)).expect(200);
    targets.nas.status = 500;
    await advance(60_000);
    await advance(10_000);
    const all = await incidents();
    expect(all.map((i) => i.monitor_name)).toEqual(['nas']);
    expect((await stateOf(nas.id)).cause).toBeNull();
  });

  it('an affected monitor that is deleted leaves the incident', async () => {
    const { nas } = await lab();
    for (const t of Object.values(targets)) t.status = 500;
    await advance(60_000);
    await advance(10_000);
    await api().delete(`/api/v1/monitors/${nas.id}`).set(bearer(h.write)).expect(200);
    await advance(1_000);
    const [incident] = await incidents();
    expect(incident.affected.map((a) => [a.name, a.until !== null])).toEqual([
      ['nas', true],
      ['plex', false],
    ]);
  });

  it('a depends_on set by PATCH counts at once (the engine follows the change)', async () => {
    const router = await create('router', { confirm_after: 1 });
    const nas = await create('nas', { confirm_after: 2 });
    await advance(60_000);
    await api()
      .patch(`/api/v1/monitors/${nas.id}`)
      .set(bearer(h.write))
      .send({ depends_on: [router.id] })
      .expect(200);
    targets.router.status = 500;
    targets.nas.status = 500;
    await advance(60_000);
    await advance(10_000);
    expect((await incidents()).map((i) => i.monitor_name)).toEqual(['router']);
    expect((await stateOf(nas.id)).cause?.monitor_id).toBe(router.id);
  });
});
