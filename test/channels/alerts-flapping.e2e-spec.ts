/**
 * Alerts held while a monitor flaps are delivered when it settles (issue 42): a monitor that
 * flaps and then stays Down gets its down alert, one that settles Up after a down went out gets
 * its up, and over a long random run every incident has its down alert or a line saying why not.
 * Real webhook receiver on 127.0.0.1, the fake clock, the dispatcher run by the test.
 */
import { DispatcherService } from '../../src/channels/dispatcher.service';
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';
import { Receiver, startReceiver } from '../../harness/servers/receivers';

interface HookEvent {
  type: string;
  message: string;
  monitor: { id: number } | null;
}

const SECRET = 'a-long-signing-secret-0123456789';

describe('alerts held while flapping', () => {
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
  const channel = async (events: string[]) =>
    (
      await api()
        .post('/api/v1/channels')
        .set(bearer(admin))
        .send({
          kind: 'webhook',
          name: 'Hook',
          events,
          config: { url: `${hook.origin}/hook`, secret: SECRET, headers: [] },
        })
        .expect(201)
    ).body as { id: number };
  const sent = (): HookEvent[] =>
    hook.received.flatMap((r) => (JSON.parse(r.body.toString('utf8')) as { events: HookEvent[] }).events);
  const advance = async (ms: number) => {
    await h.advance(ms);
    await h.writer.flush();
    await h.t.app.get(DispatcherService).runDue();
  };
  const state = async (id: number) =>
    (await api().get(`/api/v1/monitors/${id}`).set(bearer(admin)).expect(200)).body.state as {
      status: string;
      flapping: boolean;
      incident_id: number | null;
    };

  it('sends the down alert when a monitor that flapped stays Down (the attack report’s sequence)', async () => {
    await channel(['down', 'up']);
    const m = (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(
          httpMonitor(
            { name: 'Flappy', interval_s: 10, retry_interval_s: 10, confirm_after: 1, recover_after: 1 },
            { url: h.target.url },
          ),
        )
        .expect(201)
    ).body as { id: number };
    // 500 and 200 in turn every 15 s for 150 s, then 500 for good; a check every 10 s.
    let sawFlapping = false;
    for (let t = 0; t <= 600_000; t += 10_000) {
      h.target.status = t < 150_000 && Math.floor(t / 15_000) % 2 === 1 ? 200 : 500;
      await advance(10_000);
      if ((await state(m.id)).flapping) sawFlapping = true;
    }
    await advance(20_000);
    expect(sawFlapping).toBe(true);
    const s = await state(m.id);
    expect(s).toMatchObject({ status: 'down', flapping: false });
    const events = sent().filter((e) => e.monitor?.id === m.id);
    // The last thing the channel heard is that it is down, saying it flapped before.
    const last = events[events.length - 1];
    expect(last.type).toBe('down');
    expect(last.message).toMatch(/Flappy is down: .*it was flapping; this alert was held until it settled/);
    // The open incident has its down alert in its timeline.
    const timeline = (await api().get(`/api/v1/incidents/${s.incident_id}`).set(bearer(admin)).expect(200)).body
      .timeline as { kind: string; text: string }[];
    expect(timeline.filter((l) => l.kind === 'alert').map((l) => l.text)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/down alert held: Flappy is flapping/),
        expect.stringMatching(/sent to Hook/),
      ]),
    );
  });

  it('sends the up alert when a monitor settles Up after its down went out, and nothing when the channels already know', async () => {
    await channel(['down', 'up', 'flapping']);
    const hb = (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(heartbeatMonitor({ name: 'Job' }))
        .expect(201)
    ).body as { id: number; heartbeat_url: string };
    const url = new URL(hb.heartbeat_url).pathname;
    const fail = () => api().post(`${url}/fail`).set('Content-Type', 'text/plain').send('exit 1').expect(200);
    const ping = () => api().get(url).expect(200);
    // Every change counts toward flapping, the first check's too: five changes go out as they come.
    await fail();
    for (let i = 0; i < 2; i++) {
      await ping();
      await fail();
    }
    await advance(21_000);
    expect(sent().map((e) => e.type)).toEqual(['down', 'up', 'down', 'up', 'down']);
    // The sixth change turns flapping on: its up is held, so the channel's last word is still "down".
    await ping();
    const s = await state(hb.id);
    expect(s).toMatchObject({ status: 'up', flapping: true });
    await advance(21_000);
    expect(
      sent()
        .map((e) => e.type)
        .slice(5),
    ).toEqual(['flapping']);
    // Twenty quiet checks, Up: flapping ends, and the up the channel is owed goes with it.
    for (let i = 0; i < 20; i++) await ping();
    await advance(21_000);
    expect(
      sent()
        .map((e) => e.type)
        .slice(6),
    ).toEqual(['flapping', 'up']);
    expect(sent()[7].message).toMatch(/Job is up again: it stopped flapping and has been up for/);
    // Steady from here: no more alerts.
    for (let i = 0; i < 5; i++) await ping();
    await advance(21_000);
    expect(sent()).toHaveLength(8);
  });

  it('over a long random run, every incident has its down alert or a line saying why, and a settled monitor’s last alert is its status', async () => {
    await channel(['down', 'up']);
    const random = seeded(42);
    const monitors: { id: number; path: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const hb = (
        await api()
          .post('/api/v1/monitors')
          .set(bearer(h.write))
          .send(heartbeatMonitor({ name: `Job ${i}` }))
          .expect(201)
      ).body as { id: number; heartbeat_url: string };
      monitors.push({ id: hb.id, path: new URL(hb.heartbeat_url).pathname });
    }
    // One monitor is muted through part of the run: its downs are recorded as muted, not lost (a
    // muted alert is not sent later, so what its channel last heard is not checked).
    await api()
      .post(`/api/v1/monitors/${monitors[3].id}/mute`)
      .set(bearer(h.write))
      .send({ until: new Date(h.t.clock.now() + 12 * 60_000).toISOString() })
      .expect(200);
    let settledChecks = 0;
    for (let round = 0; round < 6; round++) {
      // A stretch of random flaps: each check changes the status with probability 0.4.
      const up = monitors.map(() => random() < 0.5);
      for (let step = 0; step < 40; step++) {
        for (const [i, m] of monitors.entries()) {
          if (random() < 0.4) up[i] = !up[i];
          if (up[i]) await api().get(m.path).expect(200);
          else await api().post(`${m.path}/fail`).set('Content-Type', 'text/plain').send('no').expect(200);
        }
        await advance(random() < 0.3 ? 20_000 : 1_000);
      }
      // Then each settles where it is: 25 checks without a change.
      for (let step = 0; step < 25; step++) {
        for (const [i, m] of monitors.entries()) {
          if (up[i]) await api().get(m.path).expect(200);
          else await api().post(`${m.path}/fail`).set('Content-Type', 'text/plain').send('no').expect(200);
        }
        await advance(1_000);
      }
      await advance(21_000);
      for (const [i, m] of monitors.entries()) {
        const s = await state(m.id);
        expect([round, i, s.flapping, s.status]).toEqual([round, i, false, up[i] ? 'up' : 'down']);
        if (i === 3) continue;
        // What the channel last heard of this monitor is where it settled.
        const heard = sent().filter((e) => e.monitor?.id === m.id && (e.type === 'up' || e.type === 'down'));
        const last = heard.length ? heard[heard.length - 1].type : 'up';
        expect([round, i, last]).toEqual([round, i, up[i] ? 'up' : 'down']);
        settledChecks += 1;
      }
    }
    expect(settledChecks).toBeGreaterThanOrEqual(18);

    const incidents = await h.t.db.query<{ id: number; monitor_id: number }[]>('SELECT id, monitor_id FROM incidents');
    const flapped = await h.t.db.query<{ n: number }[]>("SELECT COUNT(*) AS n FROM events WHERE kind = 'flapping'");
    expect(incidents.length).toBeGreaterThan(40);
    expect(flapped[0].n).toBeGreaterThan(10);
    const missing: number[] = [];
    for (const inc of incidents) {
      const [{ n }] = await h.t.db.query<{ n: number }[]>(
        `SELECT (SELECT COUNT(*) FROM outbox_events WHERE incident_id = ? AND json_extract(event, '$.type') = 'down')
              + (SELECT COUNT(*) FROM events WHERE incident_id = ? AND kind = 'alert' AND (text LIKE 'down alert held:%' OR text LIKE 'down alert not sent:%')) AS n`,
        [inc.id, inc.id],
      );
      if (n === 0) missing.push(inc.id);
    }
    expect(missing).toEqual([]);
  }, 120_000);
});

/** A small deterministic generator (mulberry32): the run is the same every time. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
