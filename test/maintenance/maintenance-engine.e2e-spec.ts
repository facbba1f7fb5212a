/**
 * Maintenance windows in the engine, on the real app with the fake clock (docs/maintenance.md):
 * the window starts and ends at its boundary (not at the next check); while active, checks are
 * stored, a Down opens no incident and sends nothing, an incident already open keeps open with
 * its reminders paused; at the end, what is still Down opens its incident and alerts within a
 * second. Timeline lines and stream announcements are on disk before they are heard. A webhook
 * receiver on 127.0.0.1 (harness/servers/receivers) stands for the channel.
 */
import { DispatcherService } from '../../src/channels/dispatcher.service';
import { EventBus } from '../../src/events/event-bus';
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';
import { Receiver, startReceiver } from '../../harness/servers/receivers';

const MIN = 60_000;

describe('maintenance in the engine', () => {
  let h: EngineHarness;
  let admin: string;
  let hook: Receiver;
  beforeEach(async () => {
    h = await startEngineHarness();
    admin = await createKey(h.t, h.cookie, 'admin', 'admin key');
    hook = await startReceiver();
  });
  afterEach(async () => {
    await h.close();
    await hook.close();
  });

  const api = () => h.t.http;
  const advance = async (ms: number) => {
    await h.advance(ms);
    await h.writer.flush();
    await h.t.app.get(DispatcherService).runDue();
  };
  const channel = async () =>
    (
      await api()
        .post('/api/v1/channels')
        .set(bearer(admin))
        .send({
          kind: 'webhook',
          name: 'Hook',
          config: { url: `${hook.origin}/hook`, secret: 'a-long-signing-secret-0123456789' },
        })
        .expect(201)
    ).body as { id: number };
  const monitor = async (over: Record<string, unknown>) =>
    (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ confirm_after: 1, interval_s: 60, ...over }, { url: h.target.url }))
        .expect(201)
    ).body as { id: number };
  const state = async (id: number) => (await api().get(`/api/v1/monitors/${id}`).set(bearer(admin))).body.state;
  const lines = async (kind: string) =>
    (await api().get(`/api/v1/events?kind=${kind}`).set(bearer(admin))).body.items as {
      text: string;
      at: string;
      data: Record<string, unknown>;
    }[];
  const sentTypes = () =>
    hook.received.flatMap((r) =>
      (JSON.parse(r.body.toString('utf8')) as { events: { type: string }[] }).events.map((e) => e.type),
    );
  const at = (iso: string) => Date.parse(iso);

  it('holds back a Down for the window and opens the incident with its alert at the end, within a second', async () => {
    const c = await channel();
    const nas = await monitor({ name: 'NAS', channels: [c.id] });
    await advance(0);
    // Sunday 2026-11-01 12:00 UTC: a window from 12:10 to 12:40 UTC.
    const w = (
      await api()
        .post('/api/v1/maintenance')
        .set(bearer(h.write))
        .send({
          title: 'Disk swap',
          monitors: [nas.id],
          schedule: { kind: 'once', start: '2026-11-01T12:10:00Z', end: '2026-11-01T12:40:00Z' },
        })
        .expect(201)
    ).body;
    // The boundary, not the next check: the window is active at 12:10:00 exactly.
    await advance(10 * MIN - h.t.clock.now() + at('2026-11-01T12:00:00Z'));
    expect(await state(nas.id)).toMatchObject({
      maintenance: { window_id: w.id, title: 'Disk swap', ends_at: '2026-11-01T12:40:00.000Z' },
    });
    const started = await lines('maintenance.started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      at: '2026-11-01T12:10:00.000Z',
      text: 'maintenance "Disk swap" started for NAS, until 2026-11-01T12:40:00.000Z',
      data: { window_id: w.id, monitors: [nas.id] },
    });
    // Down during the window: checks stored, status Down, no incident, nothing sent.
    h.target.status = 500;
    for (let i = 0; i < 5; i++) await advance(MIN);
    const down = await state(nas.id);
    expect(down).toMatchObject({ status: 'down', incident_id: null });
    const checks = (await api().get(`/api/v1/monitors/${nas.id}/checks`).set(bearer(admin))).body.items;
    expect(checks.filter((x: { outcome: string }) => x.outcome === 'down').length).toBeGreaterThanOrEqual(5);
    expect((await api().get('/api/v1/incidents').set(bearer(admin))).body.items).toEqual([]);
    await advance(25_000);
    expect(sentTypes()).toEqual([]);
    // The end: 12:40:00. The incident opens then, written within a second, and its down alert follows the batch.
    h.t.clock.set(at('2026-11-01T12:40:00Z'));
    await advance(0);
    const after = await state(nas.id);
    expect(after.maintenance).toBeNull();
    expect(after.incident_id).toEqual(expect.any(Number));
    const incident = (await api().get(`/api/v1/incidents/${after.incident_id}`).set(bearer(admin))).body;
    expect(incident).toMatchObject({ monitor_id: nas.id, ended_at: null });
    const ended = await lines('maintenance.ended');
    expect(ended[0]).toMatchObject({ at: '2026-11-01T12:40:00.000Z', text: 'maintenance "Disk swap" ended for NAS' });
    expect((await lines('down'))[0].text).toBe('NAS is still down at the end of maintenance "Disk swap"');
    await advance(20_000);
    expect(sentTypes()).toEqual(['down']);
  });

  it('keeps an incident open before the window open, with its reminders paused, and resumes them after', async () => {
    const c = await channel();
    const hb = (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(
          heartbeatMonitor({
            name: 'Backup',
            interval_s: 60,
            heartbeat: { grace_s: 0 },
            remind_every_min: 5,
            channels: [c.id],
          }),
        )
        .expect(201)
    ).body as { id: number };
    await advance(61_000);
    const open = (await state(hb.id)).incident_id;
    expect(open).toEqual(expect.any(Number));
    await advance(20_000);
    expect(sentTypes()).toEqual(['down']);
    const w = (
      await api()
        .post('/api/v1/maintenance')
        .set(bearer(h.write))
        .send({ title: 'Backup server move', monitors: [hb.id], schedule: { kind: 'manual' } })
        .expect(201)
    ).body;
    await api().post(`/api/v1/maintenance/${w.id}/start`).set(bearer(h.write)).expect(200);
    await advance(0);
    expect(await state(hb.id)).toMatchObject({ incident_id: open, maintenance: { window_id: w.id, ends_at: null } });
    for (let i = 0; i < 12; i++) await advance(MIN);
    expect(sentTypes()).toEqual(['down']);
    await api().post(`/api/v1/maintenance/${w.id}/stop`).set(bearer(h.write)).expect(200);
    await advance(0);
    expect((await state(hb.id)).incident_id).toBe(open);
    await advance(20_000);
    await advance(MIN);
    expect(sentTypes()).toEqual(['down', 'reminder']);
  });

  it('opens the incident of a Down monitor taken out of an active window', async () => {
    const m = await monitor({ name: 'Printer' });
    await advance(0);
    const w = (
      await api()
        .post('/api/v1/maintenance')
        .set(bearer(h.write))
        .send({ title: 'Toner', monitors: [m.id], schedule: { kind: 'manual' } })
        .expect(201)
    ).body;
    await api().post(`/api/v1/maintenance/${w.id}/start`).set(bearer(h.write)).expect(200);
    h.target.status = 500;
    await advance(MIN);
    expect(await state(m.id)).toMatchObject({ status: 'down', incident_id: null });
    await api().patch(`/api/v1/maintenance/${w.id}`).set(bearer(h.write)).send({ monitors: [] }).expect(200);
    await advance(0);
    const after = await state(m.id);
    expect(after).toMatchObject({ status: 'down', maintenance: null, incident_id: expect.any(Number) });
    expect((await lines('down'))[0].text).toBe('Printer is still down at the end of maintenance "Toner"');
  });

  it('announces maintenance.started and .ended on the bus only once their lines are on disk', async () => {
    const m = await monitor({ name: 'Web' });
    await advance(0);
    const heard: Promise<number>[] = [];
    h.t.app.get(EventBus).on('maintenance', (e) => {
      heard.push(
        h.t.db
          .query<{ n: number }[]>('SELECT COUNT(*) AS n FROM events WHERE kind = ? AND at = ?', [
            e.started ? 'maintenance.started' : 'maintenance.ended',
            e.at,
          ])
          .then(([r]) => r.n),
      );
    });
    const w = (
      await api()
        .post('/api/v1/maintenance')
        .set(bearer(h.write))
        .send({ title: 'All', schedule: { kind: 'manual' } })
        .expect(201)
    ).body;
    await api().post(`/api/v1/maintenance/${w.id}/start`).set(bearer(h.write)).expect(200);
    await advance(0);
    expect((await state(m.id)).maintenance).toMatchObject({ window_id: w.id });
    await api().delete(`/api/v1/maintenance/${w.id}`).set(bearer(h.write)).expect(204);
    await advance(0);
    expect((await state(m.id)).maintenance).toBeNull();
    expect(await Promise.all(heard)).toEqual([1, 1]);
    expect((await lines('maintenance.started'))[0].text).toBe(
      'maintenance "All" started for every monitor, until stopped',
    );
  });

  it('follows a weekly window over the Berlin spring-forward night: a 02:30 start begins at 03:00', async () => {
    await monitor({ name: 'Router' });
    h.t.clock.set(at('2026-03-28T12:00:00Z'));
    await advance(0);
    await api()
      .post('/api/v1/maintenance')
      .set(bearer(h.write))
      .send({
        title: 'Sunday night',
        schedule: { kind: 'weekly', days: ['sun'], start_time: '02:30', duration_min: 30, tz: 'Europe/Berlin' },
      })
      .expect(201);
    // 00:59:59 UTC is 01:59:59 CET: not yet; 01:00:00 UTC is 03:00 CEST: active.
    h.t.clock.set(at('2026-03-29T00:59:59Z'));
    await advance(0);
    expect(await lines('maintenance.started')).toHaveLength(0);
    await advance(1000);
    expect((await lines('maintenance.started'))[0].at).toBe('2026-03-29T01:00:00.000Z');
    h.t.clock.set(at('2026-03-29T01:30:00Z'));
    await advance(0);
    expect((await lines('maintenance.ended'))[0].at).toBe('2026-03-29T01:30:00.000Z');
  });
});
