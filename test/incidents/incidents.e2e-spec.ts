/**
 * Incidents end to end: every way one opens and ends, what it answers, PATCH, and the timeline.
 * The engine is driven with the fake clock against a real http server on 127.0.0.1.
 */
import { ORIGIN, bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';

describe('incidents', () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await startEngineHarness();
  });
  afterEach(async () => h.close());

  const api = () => h.t.http;
  const w = () => bearer(h.write);
  const create = async (over: Record<string, unknown> = {}) =>
    (
      await api()
        .post('/api/v1/monitors')
        .set(w())
        .send(
          httpMonitor(
            { confirm_after: 2, recover_after: 1, interval_s: 60, retry_interval_s: 10, ...over },
            { url: h.target.url },
          ),
        )
        .expect(201)
    ).body as { id: number; name: string };
  const state = async (id: number) => (await api().get(`/api/v1/monitors/${id}`).set(w()).expect(200)).body.state;
  const incident = async (id: number) => (await api().get(`/api/v1/incidents/${id}`).set(w()).expect(200)).body;

  /** Up, then two failures: Down confirmed (the second opinion fails too, as the target is down). */
  const goDown = async (id: number) => {
    await h.advance(0);
    h.target.status = 500;
    await h.advance(60_000);
    await h.advance(10_000);
    const s = await state(id);
    expect(s.status).toBe('down');
    return s.incident_id as number;
  };

  it('opens on a confirmed Down with the spec fields, counts failures, and closes on recovery', async () => {
    const m = await create();
    await h.advance(0);
    expect((await state(m.id)).incident_id).toBeNull();
    h.target.status = 500;
    await h.advance(60_000);
    const firstFailure = h.t.clock.now();
    expect((await state(m.id)).incident_id).toBeNull(); // failing is not an incident yet
    await h.advance(10_000);
    const s = await state(m.id);
    expect(s.status).toBe('down');
    const id = s.incident_id;
    expect(typeof id).toBe('number');

    // Visible at once, before the writer ran, and again once it is on disk.
    const open = await incident(id);
    expect(open).toMatchObject({
      id,
      monitor_id: m.id,
      monitor_name: 'Web',
      started_at: new Date(firstFailure).toISOString(),
      ended_at: null,
      fails: 2,
      cause: { code: 'status' },
      last_error: { code: 'status' },
      acknowledged_at: null,
      note: null,
      end_reason: null,
    });
    expect(Object.keys(open).sort()).toEqual(
      [
        'acknowledged_at',
        'affected',
        'cause',
        'checks',
        'duration_ms',
        'end_reason',
        'ended_at',
        'fails',
        'id',
        'last_error',
        'monitor_id',
        'monitor_name',
        'note',
        'started_at',
        'timeline',
      ].sort(),
    );
    expect(open.duration_ms).toBe(10_000);
    expect(open.checks).toHaveLength(2);
    expect(open.checks[0].at_ms).toBeGreaterThan(open.checks[1].at_ms); // newest first
    await h.writer.flush();
    expect((await incident(id)).fails).toBe(2);
    expect((await api().get('/api/v1/summary').set(w()).expect(200)).body.open_incidents).toBe(1);

    // Another failed check while down: fails and last_error move, duration grows.
    h.target.status = 503;
    await h.advance(10_000);
    const later = await incident(id);
    expect(later).toMatchObject({
      fails: 3,
      cause: { code: 'status' },
      last_error: { code: 'status', message: expect.stringContaining('503') },
    });
    expect(later.duration_ms).toBe(20_000);
    expect(later.checks).toHaveLength(3);

    h.target.status = 200;
    await h.advance(10_000);
    expect(await state(m.id)).toMatchObject({ status: 'up', incident_id: null });
    // Ended a moment ago, not written yet: lists already say so.
    expect((await api().get('/api/v1/incidents?state=open').set(w()).expect(200)).body.items).toEqual([]);
    expect(
      (await api().get('/api/v1/incidents?state=closed').set(w()).expect(200)).body.items.map(
        (i: { id: number }) => i.id,
      ),
    ).toEqual([id]);
    const closed = await incident(id);
    expect(closed).toMatchObject({
      end_reason: 'recovered',
      ended_at: new Date(h.t.clock.now()).toISOString(),
      fails: 3,
    });
    expect(closed.duration_ms).toBe(30_000);
    // It stays ended: time moving on does not change its duration.
    await h.advance(600_000);
    expect((await incident(id)).duration_ms).toBe(30_000);
    expect((await api().get('/api/v1/summary').set(w()).expect(200)).body.open_incidents).toBe(0);
    // No channel takes the down: the `alert` line says so (docs/alerts.md).
    expect(closed.timeline.map((l: { kind: string }) => l.kind)).toEqual(['failing', 'down', 'alert', 'up']);
    expect(closed.timeline[2].text).toMatch(/down alert not sent: no enabled channel takes down alerts/);
  });

  it('reads a down/up cycle as one timeline in order, with acknowledgement and note lines naming who did it', async () => {
    const m = await create();
    const id = await goDown(m.id);
    await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ acknowledged: true }).expect(200);
    h.t.clock.advance(1000);
    await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ note: 'router rebooting' }).expect(200);
    h.target.status = 200;
    await h.advance(10_000);
    await h.writer.flush();
    const detail = await incident(id);
    expect(detail.timeline.map((l: { kind: string }) => l.kind)).toEqual([
      'failing',
      'down',
      'alert',
      'ack',
      'note',
      'up',
    ]);
    const times = detail.timeline.map((l: { at: string }) => Date.parse(l.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(detail.timeline[3].text).toMatch(/API key "write key" acknowledged/);
    expect(detail.timeline[4].text).toMatch(/added a note/);
    expect(detail.timeline[5].text).toMatch(/up again/);
    for (const l of detail.timeline) expect(Object.keys(l).sort()).toEqual(['at', 'kind', 'text']);

    // The same lines in GET /events, each naming its incident.
    const events = (
      await api().get(`/api/v1/events?monitor_id=${m.id}&kind=failing,down,ack,note,up`).set(w()).expect(200)
    ).body.items;
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(['up', 'note', 'ack', 'down', 'failing']);
    for (const e of events) expect(e.incident_id).toBe(id);
    expect(events.find((e: { kind: string }) => e.kind === 'ack').actor).toBe('key:write key');
  });

  it('acknowledging twice keeps the first time; acknowledged:false withdraws it; notes set, change and clear', async () => {
    const m = await create();
    const id = await goDown(m.id);
    const first = (await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ acknowledged: true }).expect(200)).body;
    expect(first.acknowledged_at).toBe(new Date(h.t.clock.now()).toISOString());
    h.t.clock.advance(5_000);
    const again = (await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ acknowledged: true }).expect(200)).body;
    expect(again.acknowledged_at).toBe(first.acknowledged_at);
    const withdrawn = (await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ acknowledged: false }).expect(200))
      .body;
    expect(withdrawn.acknowledged_at).toBeNull();

    expect(
      (await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ note: 'línea 1\nline 2' }).expect(200)).body.note,
    ).toBe('línea 1\nline 2');
    expect(
      (
        await api()
          .patch(`/api/v1/incidents/${id}`)
          .set(w())
          .send({ note: 'x'.repeat(2000) })
          .expect(200)
      ).body.note,
    ).toHaveLength(2000);
    expect(
      (await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ note: '   ' }).expect(200)).body.note,
    ).toBeNull();
    await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ note: 'kept' }).expect(200);
    expect(
      (await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ note: null, acknowledged: true }).expect(200)).body,
    ).toMatchObject({ note: null, acknowledged_at: expect.any(String) });
    // Every PATCH wrote one line.
    await h.writer.flush();
    const kinds = (await incident(id)).timeline
      .map((l: { kind: string }) => l.kind)
      .filter((k: string) => k === 'ack' || k === 'note');
    expect(kinds).toEqual(['ack', 'ack', 'ack', 'note', 'note', 'note', 'note', 'ack']);
    // A closed incident still takes a note (a post-mortem).
    h.target.status = 200;
    await h.advance(10_000);
    expect(
      (await api().patch(`/api/v1/incidents/${id}`).set(w()).send({ note: 'cable' }).expect(200)).body,
    ).toMatchObject({ note: 'cable', end_reason: 'recovered' });
  });

  it('refuses bad input with the field named and changes nothing', async () => {
    const m = await create();
    const id = await goDown(m.id);
    await h.writer.flush();
    const before = await incident(id);
    const bad: [unknown, string][] = [
      [{ acknowledged: 'yes' }, 'acknowledged'],
      [{ acknowledged: 1 }, 'acknowledged'],
      [{ note: 42 }, 'note'],
      [{ note: 'x'.repeat(2001) }, 'note'],
      [{ note: 'bell\u0007' }, 'note'],
      [{ acknowledged: true, severity: 'high' }, 'severity'],
      [{ ended_at: '2026-01-01T00:00:00Z' }, 'ended_at'],
      [[{ acknowledged: true }], 'body'],
    ];
    for (const [body, field] of bad) {
      const res = await api()
        .patch(`/api/v1/incidents/${id}`)
        .set(w())
        .send(body as object)
        .expect(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
    }
    const after = await incident(id);
    expect(after.acknowledged_at).toBeNull();
    expect(after.note).toBeNull();
    expect(after.timeline).toEqual(before.timeline);

    for (const ref of ['999999', '0', 'abc', '1e3', '-1']) {
      expect((await api().get(`/api/v1/incidents/${ref}`).set(w()).expect(404)).body.error.code).toBe('not_found');
      await api().patch(`/api/v1/incidents/${ref}`).set(w()).send({ acknowledged: true }).expect(404);
    }
    for (const [q, field] of [
      ['state=opened', 'state'],
      ['state=OPEN', 'state'],
      ['before=abc', 'before'],
      ['before=-5', 'before'],
      ['monitor_id=x', 'monitor_id'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
    ]) {
      const res = await api().get(`/api/v1/incidents?${q}`).set(w()).expect(422);
      expect(res.body.error.field).toBe(field);
    }
  });

  it('reads with any scope or the session; PATCH needs write (a session PATCH names the owner)', async () => {
    const m = await create();
    const id = await goDown(m.id);
    const read = await createKey(h.t, h.cookie, 'read');
    await api().get('/api/v1/incidents').expect(401);
    await api().get(`/api/v1/incidents/${id}`).expect(401);
    await api().patch(`/api/v1/incidents/${id}`).send({ acknowledged: true }).expect(401);
    expect((await api().get('/api/v1/incidents').set(bearer(read)).expect(200)).body.items).toHaveLength(1);
    await api().get(`/api/v1/incidents/${id}`).set(bearer(read)).expect(200);
    expect(
      (await api().patch(`/api/v1/incidents/${id}`).set(bearer(read)).send({ acknowledged: true }).expect(403)).body
        .error.code,
    ).toBe('forbidden');
    expect((await incident(id)).acknowledged_at).toBeNull();
    await api().get('/api/v1/incidents').set('Cookie', h.cookie).expect(200);
    await api()
      .patch(`/api/v1/incidents/${id}`)
      .set('Cookie', h.cookie)
      .set('Origin', ORIGIN)
      .send({ acknowledged: true })
      .expect(200);
    await h.writer.flush();
    const ack = (await api().get('/api/v1/events?kind=ack').set(bearer(read)).expect(200)).body.items[0];
    expect(ack).toMatchObject({ actor: 'owner', incident_id: id, monitor_id: m.id });
    expect(ack.text).toMatch(/^the owner acknowledged/);
  });

  it('lists newest first with state and monitor filters and paging', async () => {
    const a = await create({ name: 'A' });
    const b = await create({ name: 'B' });
    await h.advance(0);
    // Three outages of A and one of B, each opened and closed in turn.
    for (let i = 0; i < 3; i++) {
      h.target.status = 500;
      await h.advance(60_000);
      await h.advance(10_000);
      h.target.status = 200;
      await h.advance(60_000);
    }
    await api().post(`/api/v1/monitors/${a.id}/pause`).set(w()).expect(200);
    h.target.status = 500;
    await h.advance(60_000);
    await h.advance(10_000);
    expect((await state(b.id)).status).toBe('down');

    const all = (await api().get('/api/v1/incidents').set(w()).expect(200)).body;
    const ids = all.items.map((i: { id: number }) => i.id);
    expect([...ids].sort((x: number, y: number) => y - x)).toEqual(ids);
    expect(all.items).toHaveLength(7); // A and B failed together three times, then B alone (still open)
    const open = (await api().get('/api/v1/incidents?state=open').set(w()).expect(200)).body.items;
    expect(open.map((i: { monitor_id: number }) => i.monitor_id)).toEqual([b.id]);
    expect((await api().get('/api/v1/incidents?state=closed').set(w()).expect(200)).body.items).toHaveLength(6);
    expect((await api().get(`/api/v1/incidents?monitor_id=${a.id}`).set(w()).expect(200)).body.items).toHaveLength(3);

    const seen: number[] = [];
    let cursor: number | null = null;
    do {
      const page: { items: { id: number }[]; next_cursor: number | null } = (
        await api()
          .get(`/api/v1/incidents?limit=2${cursor ? `&before=${cursor}` : ''}`)
          .set(w())
          .expect(200)
      ).body;
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(ids);
  });

  it('ends with paused, config_changed and deleted, and a deleted monitor’s incident keeps its name', async () => {
    const p = await create({ name: 'Paused one' });
    const c = await create({ name: 'Changed one' });
    const d = await create({ name: 'Deleted one' });
    await h.advance(0);
    h.target.status = 500;
    await h.advance(60_000);
    await h.advance(10_000);
    const ip = (await state(p.id)).incident_id;
    const ic = (await state(c.id)).incident_id;
    const id = (await state(d.id)).incident_id;
    await h.writer.flush();

    await api().post(`/api/v1/monitors/${p.id}/pause`).set(w()).expect(200);
    await h.writer.flush();
    expect(await incident(ip)).toMatchObject({ end_reason: 'paused' });
    expect((await incident(ip)).timeline.map((l: { kind: string }) => l.kind)).toEqual([
      'failing',
      'down',
      'alert',
      'closed',
    ]);
    expect((await state(p.id)).incident_id).toBeNull();

    // A name change leaves the incident open; a new target ends it.
    await api().patch(`/api/v1/monitors/${c.id}`).set(w()).send({ name: 'Renamed one' }).expect(200);
    expect(await incident(ic)).toMatchObject({ end_reason: null, monitor_name: 'Renamed one' });
    await api()
      .patch(`/api/v1/monitors/${c.id}`)
      .set(w())
      .send({ http: { url: `${h.target.url}other` } })
      .expect(200);
    expect(await incident(ic)).toMatchObject({ end_reason: 'config_changed' });

    await api().delete(`/api/v1/monitors/${d.id}`).set(w()).expect(200);
    const gone = await incident(id);
    expect(gone).toMatchObject({ monitor_id: d.id, monitor_name: 'Deleted one', end_reason: 'deleted', checks: [] });
    expect(gone.timeline.map((l: { kind: string }) => l.kind)).toEqual(['failing', 'down', 'alert', 'closed']);
    expect((await api().get(`/api/v1/incidents?monitor_id=${d.id}`).set(w()).expect(200)).body.items).toHaveLength(1);
    // Nothing the writer still held brings it back open.
    await h.advance(60_000);
    await h.writer.flush();
    expect(await incident(id)).toMatchObject({ end_reason: 'deleted' });
    const [{ n }] = await h.t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM incidents WHERE ended_at IS NULL');
    expect(n).toBe(0);
  });

  it('deleting a monitor right after Down (its incident not written yet) still records the end', async () => {
    const m = await create();
    const id = await goDown(m.id);
    await api().delete(`/api/v1/monitors/${m.id}`).set(w()).expect(200);
    await h.writer.flush();
    expect(await incident(id)).toMatchObject({ end_reason: 'deleted', monitor_name: 'Web' });
  });

  it('opens on a heartbeat failure report and on a missed heartbeat, and ends on the next ping', async () => {
    const hb = (
      await api()
        .post('/api/v1/monitors')
        .set(w())
        .send(heartbeatMonitor({ interval_s: 300, heartbeat: { grace_s: 60 } }))
        .expect(201)
    ).body;
    const url = new URL(hb.heartbeat_url).pathname;
    await api().get(url).expect(200);
    await api().post(`${url}/fail`).set('Content-Type', 'text/plain').send('disk full').expect(200);
    const reported = (await state(hb.id)).incident_id;
    expect(await incident(reported)).toMatchObject({
      fails: 1,
      cause: { code: 'heartbeat', message: expect.stringContaining('disk full') },
    });
    await api().get(url).expect(200);
    expect(await incident(reported)).toMatchObject({ end_reason: 'recovered' });

    await h.advance(361_000);
    const s = await state(hb.id);
    expect(s.status).toBe('down');
    expect(await incident(s.incident_id)).toMatchObject({ cause: { code: 'heartbeat' }, end_reason: null });
    expect(s.incident_id).not.toBe(reported);
    await api().get(url).expect(200);
    expect(await incident(s.incident_id)).toMatchObject({ end_reason: 'recovered' });
  });
});
