/**
 * Offline detection of probe locations (docs/agents.md, "Contact"), on the real app with a fake
 * clock: an agent in contact is online; after a minute of silence (its monitors' shortest
 * interval is shorter than 20 s) it is offline, with a `location` timeline line committed before
 * the owner's notice goes out, and its votes stop counting; its next contact brings it back.
 */
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { httpMonitor } from '../support/monitors';
import { LocationBook } from '../../src/locations/location-book';
import { EventBus } from '../../src/events/event-bus';
import { EngineService } from '../../src/engine/engine.service';

describe('location offline detection', () => {
  let t: TestApp;
  let read: string;
  let token: string;
  let book: LocationBook;
  let cookie: string;
  let write: string;
  const notices: string[] = [];

  beforeEach(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    read = await createKey(t, cookie, 'read');
    write = await createKey(t, cookie, 'write');
    const res = await t.http
      .post('/api/v1/locations')
      .set({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' })
      .send({ name: 'vps' })
      .expect(201);
    token = res.body.token;
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(httpMonitor({ locations: ['local', 'vps'], interval_s: 10, retry_interval_s: 10 }))
      .expect(201);
    book = t.app.get(LocationBook);
    notices.length = 0;
    t.app.get(EventBus).on('notice', ({ message }) => notices.push(message));
  });
  afterEach(async () => t.close());

  const contact = () => t.http.get('/api/agent/config?wait_s=0').set(bearer(token)).expect(200);
  const state = async () => (await t.http.get('/api/v1/locations').set(bearer(read)).expect(200)).body.items[0].state;
  const lines = async () =>
    (await t.http.get('/api/v1/events?kind=location').set(bearer(read)).expect(200)).body.items as {
      text: string;
      data: { online: boolean };
    }[];

  it('is never, then online on contact, offline after 60 s of silence with a line and a notice, and back', async () => {
    expect(await state()).toBe('never');
    await contact();
    expect(await state()).toBe('online');
    expect(t.app.get(EngineService).votes.isOnline('vps')).toBe(true);

    t.clock.advance(59_000);
    await book.sweep();
    expect(await state()).toBe('online');
    expect(await lines()).toEqual([]);

    t.clock.advance(1_000);
    await book.sweep();
    expect(await state()).toBe('offline');
    expect(t.app.get(EngineService).votes.isOnline('vps')).toBe(false);
    const offline = await lines();
    expect(offline).toHaveLength(1);
    expect(offline[0].data.online).toBe(false);
    expect(offline[0].text).toContain('Location "vps" is offline');
    expect(notices).toEqual([offline[0].text]);

    // A second sweep says nothing new.
    await book.sweep();
    expect(await lines()).toHaveLength(1);

    await contact();
    expect(await state()).toBe('online');
    const back = await lines();
    expect(back).toHaveLength(2);
    expect(back[0].data.online).toBe(true);
    expect(notices).toHaveLength(2);
  });

  it.each<[string, object[], number]>([
    ['a slower interval raises it to 3 intervals', [{ interval_s: 40, retry_interval_s: 40 }], 120_000],
    [
      'a paused monitor is left out (60 s with none)',
      [{ interval_s: 40, retry_interval_s: 40 }, { paused: true }],
      60_000,
    ],
  ])("the offline threshold follows the location's monitors: %s", async (_, changes, after) => {
    const id = (await t.http.get('/api/v1/monitors').set(bearer(read)).expect(200)).body.items[0].id as number;
    await contact();
    expect(await state()).toBe('online'); // judged once with the monitor as it was
    for (const change of changes)
      await t.http.patch(`/api/v1/monitors/${id}`).set(bearer(write)).send(change).expect(200);
    await contact();
    t.clock.advance(after - 1_000);
    expect(await state()).toBe('online');
    t.clock.advance(1_000);
    expect(await state()).toBe('offline');
  });

  it('back from offline, a location votes on its fresh results only: its old view does not count again', async () => {
    const other = await t.http
      .post('/api/v1/locations')
      .set({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' })
      .send({ name: 'vps2' })
      .expect(201);
    const made = await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(
        httpMonitor({
          locations: ['vps', 'vps2'],
          quorum: 2,
          interval_s: 10,
          retry_interval_s: 10,
          confirm_after: 1,
          recover_after: 1,
        }),
      )
      .expect(201);
    const id = made.body.id as number;
    let seq = 0;
    const say = (who: string, outcome: 'up' | 'down') =>
      t.http
        .post('/api/agent/results')
        .set(bearer(who))
        .send({
          agent: { version: '0.1.0', blind: false },
          results: [
            {
              seq: ++seq,
              monitor_id: id,
              at: new Date(t.clock.now()).toISOString(),
              result: {
                outcome,
                latency_ms: 5,
                phases: null,
                status: outcome === 'up' ? 200 : 503,
                error: outcome === 'up' ? null : { code: 'status', message: 'HTTP 503' },
                cert: null,
                detail: null,
              },
            },
          ],
        })
        .expect(200);
    const answer = async () =>
      (await t.http.get(`/api/v1/monitors/${id}`).set(bearer(read)).expect(200)).body.state as {
        status: string;
        locations: { name: string; status: string }[];
      };
    const views = async () => Object.fromEntries((await answer()).locations.map((l) => [l.name, l.status]));

    // vps says down, then falls silent; vps2 keeps in touch, up, then down once vps is offline:
    // alone, it cannot make the quorum of 2.
    await say(token, 'down');
    for (let s = 0; s < 61; s += 20) {
      await say(other.body.token, 'up');
      t.clock.advance(Math.min(20_000, 61_000 - s));
    }
    await book.sweep();
    await say(other.body.token, 'down');
    expect(await views()).toEqual({ vps: 'offline', vps2: 'down' });
    expect((await answer()).status).not.toBe('down');

    // vps is back (a config poll: no result yet). Its down from before the silence is not a vote,
    // so vps2's next down is still alone, and the quorum of 2 is not met.
    await contact();
    expect(await views()).toEqual({ vps: 'unknown', vps2: 'down' });
    await say(other.body.token, 'down');
    expect((await answer()).status).not.toBe('down');

    // Its fresh down is a vote: now both agree.
    await say(token, 'down');
    expect((await answer()).status).toBe('down');
  });

  it("answers a location's results and raw series with ?location=, each carrying its location; local checks say local", async () => {
    const id = (await t.http.get('/api/v1/monitors').set(bearer(read)).expect(200)).body.items[0].id;
    const at = (ms: number) => new Date(t.clock.now() - ms).toISOString();
    const result = (outcome: string) => ({
      outcome,
      latency_ms: 40,
      phases: null,
      status: outcome === 'up' ? 200 : 503,
      error: outcome === 'up' ? null : { code: 'status', message: 'HTTP 503' },
      cert: null,
      detail: null,
    });
    const sent = await t.http
      .post('/api/agent/results')
      .set(bearer(token))
      .send({
        agent: { version: '0.1.0', blind: false },
        results: [
          { seq: 1, monitor_id: id, at: at(3000), result: result('up') },
          { seq: 2, monitor_id: id, at: at(2000), result: result('down') },
        ],
      })
      .expect(200);
    expect(sent.body).toEqual({ acked_seq: 2, stored: 2, ignored: [] });
    const vps = await t.http.get(`/api/v1/monitors/${id}/checks?location=vps`).set(bearer(read)).expect(200);
    expect(vps.body.items.map((c: { outcome: string; location: string }) => [c.outcome, c.location])).toEqual([
      ['down', 'vps'],
      ['up', 'vps'],
    ]);
    const downs = await t.http.get(`/api/v1/monitors/${id}/checks?location=vps&outcome=down`).set(bearer(read));
    expect(downs.body.items).toHaveLength(1);
    const local = await t.http.get(`/api/v1/monitors/${id}/checks`).set(bearer(read)).expect(200);
    expect(local.body.items.every((c: { location: string }) => c.location === 'local')).toBe(true);
    const bad = await t.http.get(`/api/v1/monitors/${id}/checks?location=nowhere`).set(bearer(read)).expect(422);
    expect(bad.body.error.fields[0].field).toBe('location');
    const series = await t.http
      .get(`/api/v1/monitors/${id}/series?range=1h&location=vps`)
      .set(bearer(read))
      .expect(200);
    expect(series.body.resolution).toBe('raw');
    expect(series.body.points.map((p: { outcome: string; latency_ms: number }) => [p.outcome, p.latency_ms])).toEqual([
      ['up', 40],
      ['down', 40],
    ]);
    // The longer ranges come from the location's own rollups (test/locations/location-history.e2e-spec.ts).
    const long = await t.http.get(`/api/v1/monitors/${id}/series?range=7d&location=vps`).set(bearer(read)).expect(200);
    expect(long.body.resolution).toBe('hour');
    expect(long.body.points.reduce((n: number, p: { up: number; down: number }) => n + p.up + p.down, 0)).toBe(2);
    await t.http.get(`/api/v1/monitors/${id}/series?location=nowhere`).set(bearer(read)).expect(422);
  });
});
