/**
 * A window's end meets dependencies (docs/maintenance.md, docs/dependencies.md), on the real app
 * with the fake clock, real http targets on 127.0.0.1 and a real webhook receiver
 * (harness/servers/receivers): a Down child the window lets go while a monitor it depends on is
 * Down joins that outage (affected, "also affected" on the parent's channels), never an incident
 * and a down alert of its own; a parent let go by the same window opens its incident first and
 * its child joins it, in one message. The pure rule is releasedOrder
 * (src/engine/dependencies/dependency-rules.ts, table-tested beside it).
 */
import { DispatcherService } from '../../src/channels/dispatcher.service';
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';
import { Receiver, startReceiver } from '../../harness/servers/receivers';

const MIN = 60_000;

interface WireEvent {
  type: string;
  monitor: { name: string } | null;
  message: string;
  affected?: { count: number; names: string[]; also: boolean };
}

describe('maintenance and dependencies: what a window lets go joins its cause', () => {
  let h: EngineHarness;
  let hook: Receiver;
  let nasTarget: SwitchServer;
  let admin: string;

  beforeEach(async () => {
    h = await startEngineHarness();
    hook = await startReceiver();
    nasTarget = await startSwitchServer();
    admin = await createKey(h.t, h.cookie, 'admin', 'admin key');
    await h.t.http
      .post('/api/v1/channels')
      .set(bearer(admin))
      .send({
        kind: 'webhook',
        name: 'Hook',
        config: { url: `${hook.origin}/hook`, secret: 'a-long-signing-secret-0123456789', headers: [] },
      })
      .expect(201);
  });
  afterEach(async () => {
    await h.close();
    await hook.close();
    await nasTarget.close();
  });

  const api = () => h.t.http;
  const advance = async (ms: number) => {
    await h.advance(ms);
    await h.writer.flush();
    await h.t.app.get(DispatcherService).runDue();
  };
  const stateOf = async (id: number) =>
    (await api().get(`/api/v1/monitors/${id}`).set(bearer(admin)).expect(200)).body.state;
  const incidents = async () =>
    (await api().get('/api/v1/incidents?state=all').set(bearer(admin)).expect(200)).body.items as {
      id: number;
      monitor_name: string;
      ended_at: string | null;
      affected: { monitor_id: number; name: string; until: string | null }[];
    }[];
  const sent = () => hook.received.map((r) => (JSON.parse(r.body.toString('utf8')) as { events: WireEvent[] }).events);
  const downLines = async () =>
    ((await api().get('/api/v1/events?kind=down').set(bearer(admin))).body.items as { text: string }[]).map(
      (l) => l.text,
    );

  /** router (h.target) and nas depending on it, both confirming Down at the first failed check. */
  async function lab() {
    const create = async (name: string, url: string, over: Record<string, unknown> = {}) =>
      (
        await api()
          .post('/api/v1/monitors')
          .set(bearer(h.write))
          .send(httpMonitor({ name, interval_s: 60, confirm_after: 1, ...over }, { url }))
          .expect(201)
      ).body as { id: number };
    const router = await create('router', h.target.url);
    const nas = await create('nas', nasTarget.url, { depends_on: [router.id] });
    await advance(MIN);
    return { router, nas };
  }

  /** A once window over these monitors from now for `minutes`. */
  async function windowOver(monitors: number[], minutes: number): Promise<{ id: number }> {
    const now = h.t.clock.now();
    const iso = (t: number) => new Date(t).toISOString();
    return (
      await api()
        .post('/api/v1/maintenance')
        .set(bearer(h.write))
        .send({
          title: 'Rack move',
          monitors,
          schedule: { kind: 'once', start: iso(now), end: iso(now + minutes * MIN) },
        })
        .expect(201)
    ).body;
  }

  it('a child held while its parent went down joins the parent’s incident at the window’s end: "also affected", no alert of its own', async () => {
    const { router, nas } = await lab();
    await windowOver([nas.id], 10);
    await advance(0);
    h.target.status = 500;
    nasTarget.status = 500;
    await advance(MIN); // router: Down, incident, alert; nas: Down, held by the window
    await advance(25_000); // the router's down alert goes out
    expect(
      sent()
        .flat()
        .map((e) => [e.type, e.monitor?.name]),
    ).toEqual([['down', 'router']]);
    expect(await stateOf(nas.id)).toMatchObject({ status: 'down', incident_id: null, cause: null });

    await advance(10 * MIN); // the window ends with the router still Down
    await advance(25_000);
    const all = await incidents();
    expect(all.map((i) => i.monitor_name)).toEqual(['router']);
    expect(all[0].affected.map((a) => [a.name, a.until])).toEqual([['nas', null]]);
    expect(await stateOf(nas.id)).toMatchObject({
      status: 'down',
      incident_id: null,
      maintenance: null,
      cause: { monitor_id: router.id, incident_id: all[0].id },
    });
    expect(await downLines()).toContain(
      'nas is still down at the end of maintenance "Rack move", affected by the outage of router (no incident of its own)',
    );
    // The router's next message names it as also affected; nas never gets a down alert of its own.
    const later = sent().slice(1).flat();
    expect(later).toEqual([
      expect.objectContaining({
        type: 'down',
        monitor: expect.objectContaining({ name: 'router' }),
        message: 'also affected by the outage of router: 1 monitor (nas)',
        affected: { count: 1, names: ['nas'], also: true },
      }),
    ]);

    // When the router recovers, nas (still down) gets its own incident and alert at once.
    h.target.status = 200;
    await advance(MIN);
    await advance(25_000);
    expect((await incidents()).map((i) => [i.monitor_name, i.ended_at === null])).toEqual([
      ['nas', true],
      ['router', false],
    ]);
    expect(
      sent()
        .slice(2)
        .flat()
        .map((e) => [e.type, e.monitor?.name]),
    ).toEqual([
      ['up', 'router'],
      ['down', 'nas'],
    ]);
  });

  it('a parent and its child in the same window end together: one incident, the parent’s, naming the child', async () => {
    const { router, nas } = await lab();
    await windowOver([router.id, nas.id], 10);
    await advance(0);
    h.target.status = 500;
    nasTarget.status = 500;
    await advance(MIN);
    await advance(25_000);
    expect(sent()).toEqual([]);
    expect(await incidents()).toEqual([]);

    await advance(10 * MIN);
    await advance(25_000);
    const all = await incidents();
    expect(all.map((i) => [i.monitor_name, i.affected.map((a) => a.name)])).toEqual([['router', ['nas']]]);
    expect(await stateOf(router.id)).toMatchObject({ status: 'down', incident_id: all[0].id, cause: null });
    expect(await stateOf(nas.id)).toMatchObject({
      incident_id: null,
      cause: { monitor_id: router.id, incident_id: all[0].id },
    });
    // One message: the router's down, with nas folded in as affected.
    expect(sent()).toHaveLength(1);
    const [down] = sent()[0];
    expect(down).toMatchObject({ type: 'down', monitor: { name: 'router' }, affected: { count: 1, also: false } });
    expect(down.message).toMatch(/^router is down.*; affected: 1 monitor \(nas\)$/);
  });

  it('a child whose parent is up when the window ends opens its own incident and alerts', async () => {
    const { nas } = await lab();
    await windowOver([nas.id], 10);
    await advance(0);
    nasTarget.status = 500;
    await advance(MIN);
    await advance(10 * MIN);
    await advance(25_000);
    expect((await incidents()).map((i) => [i.monitor_name, i.affected])).toEqual([['nas', []]]);
    expect(await stateOf(nas.id)).toMatchObject({ cause: null, incident_id: expect.any(Number) });
    expect(
      sent()
        .flat()
        .map((e) => [e.type, e.monitor?.name]),
    ).toEqual([['down', 'nas']]);
  });
});
