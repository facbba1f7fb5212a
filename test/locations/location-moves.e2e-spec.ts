/**
 * A location that goes offline or comes back re-judges its monitors at once (docs/agents.md,
 * "Quorum", rule 7), on the real app with the injected clock: agents are test clients of the agent
 * routes, one token per location. The location's line, the monitors' new states and incidents
 * commit in one transaction before the notice and the transitions are announced; and the live
 * stream's `state` frames carry `state.locations` as the monitor answer does, sent when what a
 * location's row shows changed and not for a result that changes nothing shown.
 */
import type { AddressInfo } from 'node:net';
import { SseClient } from '../../harness/sse';
import { EngineService } from '../../src/engine/engine.service';
import { EventBus } from '../../src/events/event-bus';
import { CheckWriter } from '../../src/history/writer';
import { LocationBook } from '../../src/locations/location-book';
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { httpMonitor } from '../support/monitors';

jest.setTimeout(60_000);

interface Loc {
  name: string;
  status: string;
  latency_ms: number | null;
  at: string | null;
  error: { code: string; message: string } | null;
}
interface State {
  status: string;
  incident_id: number | null;
  note: string | null;
  last_check_at: string | null;
  locations: Loc[];
}

describe('locations that move re-judge their monitors at once', () => {
  let t: TestApp;
  let read: string;
  let write: string;
  let tokens: Record<string, string>;
  let book: LocationBook;
  let engine: EngineService;
  let base: string;
  let seq: Record<string, number>;
  /** At each announcement: was the location's line still waiting for its commit? (It must not be.) */
  let announcedEarly: string[];
  let notices: string[];
  let ids: Record<string, number>;
  let ownerCookie: string;
  const opened: SseClient[] = [];

  beforeEach(async () => {
    t = await startApp();
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { cookie } = await createOwner(t);
    read = await createKey(t, cookie, 'read');
    write = await createKey(t, cookie, 'write');
    tokens = {};
    seq = {};
    ids = {};
    ownerCookie = cookie;
    for (const name of ['a', 'b', 'c']) {
      const res = await t.http
        .post('/api/v1/locations')
        .set({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' })
        .send({ name })
        .expect(201);
      tokens[name] = res.body.token as string;
      ids[name] = res.body.id as number;
      seq[name] = 0;
    }
    book = t.app.get(LocationBook);
    engine = t.app.get(EngineService);
    announcedEarly = [];
    notices = [];
    const bus = t.app.get(EventBus);
    const early = (what: string) => {
      if (engine.pendingLines().some((l) => l.kind === 'location')) announcedEarly.push(what);
    };
    bus.on('notice', ({ message }) => (early(`notice ${message}`), notices.push(message)));
    bus.on('monitor.transition', ({ transition }) => early(`transition ${transition.kind}`));
  });
  afterEach(async () => {
    for (const c of opened.splice(0)) c.close();
    await t.close();
  });

  const contact = (name: string) => t.http.get('/api/agent/config?wait_s=0').set(bearer(tokens[name])).expect(200);
  const create = async (locations: string[], quorum: number | null) =>
    (
      await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(
          httpMonitor({ locations, quorum, interval_s: 10, retry_interval_s: 10, confirm_after: 1, recover_after: 1 }),
        )
        .expect(201)
    ).body.id as number;
  const send = (name: string, id: number, outcome: 'up' | 'down', latency = 40) =>
    t.http
      .post('/api/agent/results')
      .set(bearer(tokens[name]))
      .send({
        agent: { version: '0.1.0', blind: false },
        results: [
          {
            seq: ++seq[name],
            monitor_id: id,
            at: new Date(t.clock.now() - 500).toISOString(),
            result: {
              outcome,
              latency_ms: latency,
              phases: null,
              status: outcome === 'up' ? 200 : 503,
              error: outcome === 'up' ? null : { code: 'status', message: `answered 503 from ${name}` },
              cert: null,
              detail: null,
            },
          },
        ],
      })
      .expect(200)
      .expect((res) => expect(res.body.ignored).toEqual([]));
  const state = async (id: number) =>
    (await t.http.get(`/api/v1/monitors/${id}`).set(bearer(read)).expect(200)).body.state as State;
  const views = (s: State) => Object.fromEntries(s.locations.map((l) => [l.name, l.status]));
  /** What is on disk (the read connection sees committed rows only). */
  const stored = async (id: number) => {
    const [row] = await t.db.read<{ status: string; incident_id: number | null; note: string | null }[]>(
      'SELECT status, incident_id, note FROM monitor_state WHERE monitor_id = ?',
      [id],
    );
    const [lines] = await t.db.read<{ n: number }[]>("SELECT COUNT(*) AS n FROM events WHERE kind = 'location'");
    const open = await t.db.read<{ id: number }[]>(
      'SELECT id FROM incidents WHERE monitor_id = ? AND ended_at IS NULL',
      [id],
    );
    return { ...row, lines: lines.n, open: open.map((o) => o.id) };
  };
  /** b and c fall silent while a stays in contact: after 60 s, b and c are offline. */
  const silenceBandC = async () => {
    t.clock.advance(30_000);
    await contact('a');
    t.clock.advance(30_000);
    await contact('a');
    await book.sweep();
  };

  it('3 locations, quorum 2: with one Down vote left standing and two offline, it keeps Down and says why', async () => {
    for (const n of ['a', 'b', 'c']) await contact(n);
    const id = await create(['a', 'b', 'c'], 2);
    await send('a', id, 'down');
    await send('b', id, 'down');
    await send('c', id, 'up');
    expect((await state(id)).status).toBe('down');
    const incident = (await state(id)).incident_id;
    expect(incident).not.toBeNull();

    await silenceBandC();
    const kept = await state(id);
    expect(views(kept)).toEqual({ a: 'down', b: 'offline', c: 'offline' });
    expect(kept.status).toBe('down');
    expect(kept.incident_id).toBe(incident);
    expect(kept.note).toBe('kept: only 1 of 3 locations online (offline: b, c), and 2 must agree');
    // On disk with the lines, before the notices: one transaction.
    expect(await stored(id)).toMatchObject({ status: 'down', note: kept.note, lines: 2, open: [incident] });
    expect(notices).toHaveLength(2);
    expect(announcedEarly).toEqual([]);
  });

  it('majority: two locations going offline make the one left decide at once; their return decides again', async () => {
    for (const n of ['a', 'b', 'c']) await contact(n);
    const id = await create(['a', 'b', 'c'], null);
    await send('a', id, 'down');
    await send('b', id, 'up');
    await send('c', id, 'up');
    const up = await state(id);
    expect(up.status).toBe('up');
    expect(views(up)).toEqual({ a: 'down', b: 'up', c: 'up' });
    const checkedAt = up.last_check_at;

    // b and c go offline: a alone is the majority of those online, and it says Down: Down now.
    await silenceBandC();
    const down = await state(id);
    expect(views(down)).toEqual({ a: 'down', b: 'offline', c: 'offline' });
    expect(down.status).toBe('down');
    expect(down.incident_id).not.toBeNull();
    // No check was made: the time of the last one stays.
    expect(down.last_check_at).toBe(checkedAt);
    const onDisk = await stored(id);
    expect(onDisk).toMatchObject({ status: 'down', lines: 2, open: [down.incident_id] });
    // Announced only once the lines, the state and the incident had committed together.
    expect(notices.map((n) => n.slice(0, 25))).toEqual(['Location "b" is offline: ', 'Location "c" is offline: ']);
    expect(announcedEarly).toEqual([]);
    const timeline = (await t.http.get(`/api/v1/events?monitor_id=${id}`).set(bearer(read)).expect(200)).body.items as {
      kind: string;
    }[];
    expect(timeline.map((e) => e.kind)).toContain('down');

    // b is back: its view from before the silence is forgotten (it votes on fresh results only,
    // docs/agents.md): 2 online, a Down and a location that has not judged again: Down is kept.
    await contact('b');
    const back1 = await state(id);
    expect(views(back1)).toEqual({ a: 'down', b: 'unknown', c: 'offline' });
    expect(back1.status).toBe('down');
    expect(back1.note).toBe('kept: the locations online do not agree yet (2 must agree)');
    expect((await stored(id)).lines).toBe(3);
    // Its fresh Up: 1 Down and 1 Up do not agree; the monitor keeps Down and says so.
    await send('b', id, 'up');
    const split = await state(id);
    expect(views(split)).toEqual({ a: 'down', b: 'up', c: 'offline' });
    expect(split.status).toBe('down');
    expect(split.note).toBe('kept: the locations online do not agree yet (2 must agree)');

    // c is back too, and says Up: b and c are 2 of 3 saying Up: Up now, the incident ends.
    await contact('c');
    expect((await state(id)).status).toBe('down');
    await send('c', id, 'up');
    const back = await state(id);
    expect(back.status).toBe('up');
    expect(back.incident_id).toBeNull();
    expect(back.note).toBeNull();
    // A result's verdict commits with the writer's next transaction (a sweep's with its own).
    await t.app.get(CheckWriter).commit();
    expect(await stored(id)).toMatchObject({ status: 'up', lines: 4, open: [] });
    expect(notices).toHaveLength(4);
    expect(announcedEarly).toEqual([]);
  });

  it('a renamed location keeps its view under its new name, and the quorum goes on counting it', async () => {
    for (const n of ['a', 'b']) await contact(n);
    const id = await create(['a', 'b'], null);
    await send('a', id, 'down');
    await send('b', id, 'down');
    expect((await state(id)).status).toBe('down');
    await t.http
      .patch(`/api/v1/locations/${ids.b}`)
      .set({ Cookie: ownerCookie, Origin: ORIGIN, 'Content-Type': 'application/json' })
      .send({ name: 'bee' })
      .expect(200);
    const renamed = await state(id);
    expect(views(renamed)).toEqual({ a: 'down', bee: 'down' });
    expect(renamed.status).toBe('down');
    // Both Up, through bee's token as before: Up.
    await send('a', id, 'up');
    await send('b', id, 'up');
    expect((await state(id)).status).toBe('up');
  });

  it("sends state frames with every location's view when one changes, and none when nothing shown changed", async () => {
    for (const n of ['a', 'b']) await contact(n);
    const id = await create(['a', 'b'], null);
    const c = await SseClient.open(`${base}/api/v1/stream`, bearer(read));
    opened.push(c);
    const writer = t.app.get(CheckWriter);
    const states = () =>
      c
        .of<{ monitor_id: number; state: State }>('state')
        .filter((e) => e.data.monitor_id === id)
        .map((e) => e.data);
    const checks = () => c.of<{ monitor_id: number }>('check').filter((e) => e.data.monitor_id === id).length;
    const frameAfter = async (n: number, what: string) => {
      await c.until(() => states().length > n, what);
      return states()[n].state;
    };

    await send('a', id, 'up', 40);
    const first = await frameAfter(0, 'the frame of a first view');
    expect(first.locations).toEqual([
      { name: 'a', status: 'up', latency_ms: 40, at: expect.any(String), error: null },
      { name: 'b', status: 'unknown', latency_ms: null, at: null, error: null },
    ]);
    // The frame's locations are the monitor answer's.
    expect(first.locations).toEqual((await state(id)).locations);

    // The same view again (up, 40 ms): a check frame, and no state frame even after the next commit.
    await send('a', id, 'up', 40);
    await c.until(() => checks() === 2, 'the second check frame');
    await writer.commit();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(states()).toHaveLength(1);

    // Another latency is shown: a frame.
    await send('a', id, 'up', 55);
    expect((await frameAfter(1, 'the frame of a new latency')).locations[0]).toMatchObject({
      status: 'up',
      latency_ms: 55,
    });

    // b says Down: its row changes (no verdict either way: 1 Up, 1 Down of 2 online).
    await send('b', id, 'down', 12);
    const split = await frameAfter(2, "the frame of b's Down");
    expect(split.locations[1]).toMatchObject({ name: 'b', status: 'down', error: { code: 'status' } });
    expect(split.status).toBe('unknown');

    // b falls silent: its row shows offline, and a alone is the majority of those online: Up now.
    t.clock.advance(30_000);
    await contact('a');
    t.clock.advance(30_000);
    await contact('a');
    await book.sweep();
    const offline = await frameAfter(3, 'the frame of b offline');
    expect(offline.locations.map((l) => l.status)).toEqual(['up', 'offline']);
    expect(offline.status).toBe('up');
    expect(offline.note).toBeNull();
    expect(offline).toEqual(expect.objectContaining({ locations: (await state(id)).locations }));
  });
});
