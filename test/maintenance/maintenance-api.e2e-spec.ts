/**
 * The /maintenance routes on the real app (docs/maintenance.md): scopes, 201/204, the list's state
 * filter and pages, start and stop by hand, idempotent POSTs, field errors that store nothing, and
 * a deleted monitor leaving the windows that named it (with a timeline line).
 */
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { httpMonitor } from '../support/monitors';

const weekly = {
  kind: 'weekly',
  days: ['mon'],
  start_time: '02:00',
  duration_min: 120,
  tz: 'Europe/Berlin',
  from: null,
  until: null,
};

describe('/maintenance', () => {
  let t: TestApp;
  let write: string;
  let read: string;
  beforeEach(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
    read = await createKey(t, cookie, 'read');
  });
  afterEach(async () => t.close());

  const api = () => t.http;
  const create = (body: Record<string, unknown>, status = 201) =>
    api().post('/api/v1/maintenance').set(bearer(write)).send(body).expect(status);
  const monitor = async (name: string) =>
    (await api().post('/api/v1/monitors').set(bearer(write)).send(httpMonitor({ name })).expect(201)).body as {
      id: number;
    };
  const stored = async () => (await t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM maintenance_windows'))[0].n;

  it('creates a window with its defaults, state and next occurrence, and reads it back', async () => {
    const res = await create({ title: 'Router firmware', schedule: weekly });
    // The fake clock is Sunday 2026-11-01 12:00 UTC: the next Monday 02:00 in Berlin is 01:00 UTC.
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Router firmware',
      description: null,
      monitors: null,
      schedule: weekly,
      public: true,
      announce_h: 24,
      state: 'scheduled',
      current: null,
      next: { start: '2026-11-02T01:00:00.000Z', end: '2026-11-02T03:00:00.000Z' },
      created_at: '2026-11-01T12:00:00.000Z',
      updated_at: '2026-11-01T12:00:00.000Z',
    });
    const got = await api().get(`/api/v1/maintenance/${res.body.id}`).set(bearer(read)).expect(200);
    expect(got.body).toEqual(res.body);
  });

  it('needs write to change and read to look', async () => {
    await api().post('/api/v1/maintenance').set(bearer(read)).send({ title: 'x', schedule: weekly }).expect(403);
    await api().get('/api/v1/maintenance').expect(401);
    expect(await stored()).toBe(0);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no title', { schedule: weekly }, 'title'],
    ['a title of 121 characters', { title: 'x'.repeat(121), schedule: weekly }, 'title'],
    ['a description over 2,000', { title: 'x', description: 'y'.repeat(2001), schedule: weekly }, 'description'],
    ['announce_h 169', { title: 'x', schedule: weekly, announce_h: 169 }, 'announce_h'],
    ['announce_h -1', { title: 'x', schedule: weekly, announce_h: -1 }, 'announce_h'],
    [
      'end before start',
      { title: 'x', schedule: { kind: 'once', start: '2026-11-03T00:00:00Z', end: '2026-11-02T00:00:00Z' } },
      'schedule.end',
    ],
    [
      'a once window of 32 days',
      { title: 'x', schedule: { kind: 'once', start: '2026-11-03T00:00:00Z', end: '2026-12-05T00:00:00Z' } },
      'schedule.end',
    ],
    ['an unknown zone', { title: 'x', schedule: { ...weekly, tz: 'Europe/Atlantis' } }, 'schedule.tz'],
    ['a day out of range', { title: 'x', schedule: { ...weekly, days: ['mon', 'someday'] } }, 'schedule.days'],
    [
      'a month day out of range',
      { title: 'x', schedule: { ...weekly, kind: 'monthly', days: undefined, day: 32 } },
      'schedule.day',
    ],
    ['a monitor that does not exist', { title: 'x', schedule: weekly, monitors: [999] }, 'monitors[0]'],
    ['an unknown field', { title: 'x', schedule: weekly, colour: 'red' }, 'colour'],
  ])('refuses %s with a 422 naming the field, storing nothing', async (_why, body, field) => {
    const res = await create(body, 422);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await stored()).toBe(0);
  });

  it('lists newest first, filters by state and pages with before', async () => {
    const a = (await create({ title: 'A', schedule: weekly })).body;
    const b = (await create({ title: 'B', schedule: { kind: 'manual' } })).body;
    const c = (await create({ title: 'C', schedule: { kind: 'manual' } })).body;
    await api().post(`/api/v1/maintenance/${c.id}/start`).set(bearer(write)).send({}).expect(200);
    const all = (await api().get('/api/v1/maintenance').set(bearer(read)).expect(200)).body;
    expect(all.items.map((w: { title: string }) => w.title)).toEqual(['C', 'B', 'A']);
    const active = (await api().get('/api/v1/maintenance?state=active').set(bearer(read)).expect(200)).body;
    expect(active.items.map((w: { id: number }) => w.id)).toEqual([c.id]);
    const first = (await api().get('/api/v1/maintenance?limit=2').set(bearer(read)).expect(200)).body;
    expect(first.items.map((w: { id: number }) => w.id)).toEqual([c.id, b.id]);
    const second = (
      await api().get(`/api/v1/maintenance?limit=2&before=${first.next_cursor}`).set(bearer(read)).expect(200)
    ).body;
    expect(second).toEqual({ items: [expect.objectContaining({ id: a.id })], next_cursor: null });
    const bad = await api().get('/api/v1/maintenance?state=soon').set(bearer(read)).expect(422);
    expect(bad.body.error.field).toBe('state');
  });

  it('patches only the fields sent, and refuses a bad patch without changing anything', async () => {
    const w = (await create({ title: 'A', schedule: weekly })).body;
    const p = await api().patch(`/api/v1/maintenance/${w.id}`).set(bearer(write)).send({ announce_h: 0 }).expect(200);
    expect(p.body).toMatchObject({ title: 'A', announce_h: 0, schedule: weekly });
    await api()
      .patch(`/api/v1/maintenance/${w.id}`)
      .set(bearer(write))
      .send({ title: 'B', schedule: { ...weekly, duration_min: 0 } })
      .expect(422);
    expect((await api().get(`/api/v1/maintenance/${w.id}`).set(bearer(read))).body.title).toBe('A');
  });

  it('starts by hand until an end or until stopped, then stops', async () => {
    const w = (await create({ title: 'Manual', schedule: { kind: 'manual' } })).body;
    expect(w.state).toBe('scheduled');
    const started = await api()
      .post(`/api/v1/maintenance/${w.id}/start`)
      .set(bearer(write))
      .send({ end: '2026-11-01T14:00:00Z' })
      .expect(200);
    expect(started.body).toMatchObject({
      state: 'active',
      current: { start: '2026-11-01T12:00:00.000Z', end: '2026-11-01T14:00:00.000Z' },
    });
    const past = await api()
      .post(`/api/v1/maintenance/${w.id}/start`)
      .set(bearer(write))
      .send({ end: '2026-11-01T11:00:00Z' })
      .expect(422);
    expect(past.body.error.field).toBe('end');
    const stopped = await api().post(`/api/v1/maintenance/${w.id}/stop`).set(bearer(write)).expect(200);
    expect(stopped.body).toMatchObject({ state: 'ended', current: null });
    const open = await api().post(`/api/v1/maintenance/${w.id}/start`).set(bearer(write)).expect(200);
    expect(open.body.current).toEqual({ start: '2026-11-01T12:00:00.000Z', end: null });
  });

  it('answers a repeated POST with the same Idempotency-Key with the first answer, creating one window', async () => {
    const send = () =>
      api()
        .post('/api/v1/maintenance')
        .set(bearer(write))
        .set('Idempotency-Key', 'window-1')
        .send({ title: 'Once', schedule: weekly })
        .expect(201);
    const first = await send();
    const again = await send();
    expect(again.body).toEqual(first.body);
    expect(await stored()).toBe(1);
  });

  it('previews the next five occurrences of a schedule without storing anything', async () => {
    const res = await api()
      .post('/api/v1/maintenance/preview')
      .set(bearer(read))
      .send({ schedule: { ...weekly, days: ['sun'], start_time: '02:30' } })
      .expect(200);
    // Sunday 2026-11-01 12:00 UTC: the next Sundays at 02:30 Berlin (winter, +01:00).
    expect(res.body.occurrences.map((o: { start: string }) => o.start)).toEqual([
      '2026-11-08T01:30:00.000Z',
      '2026-11-15T01:30:00.000Z',
      '2026-11-22T01:30:00.000Z',
      '2026-11-29T01:30:00.000Z',
      '2026-12-06T01:30:00.000Z',
    ]);
    const bad = await api()
      .post('/api/v1/maintenance/preview')
      .set(bearer(read))
      .send({ schedule: { ...weekly, tz: 'Nowhere/Land' } })
      .expect(422);
    expect(bad.body.error.field).toBe('schedule.tz');
    expect(await stored()).toBe(0);
  });

  it('deletes with 204, then 404s in the envelope', async () => {
    const w = (await create({ title: 'A', schedule: weekly })).body;
    await api().delete(`/api/v1/maintenance/${w.id}`).set(bearer(write)).expect(204);
    const gone = await api().get(`/api/v1/maintenance/${w.id}`).set(bearer(read)).expect(404);
    expect(gone.body.error.code).toBe('not_found');
    await api().delete(`/api/v1/maintenance/${w.id}`).set(bearer(write)).expect(404);
    await api().post(`/api/v1/maintenance/${w.id}/start`).set(bearer(write)).expect(404);
  });

  it('takes a deleted monitor out of the windows that name it, and says so in the timeline', async () => {
    const nas = await monitor('NAS');
    const router = await monitor('Router');
    const w = (await create({ title: 'Rack move', schedule: weekly, monitors: [nas.id, router.id] })).body;
    await api().delete(`/api/v1/monitors/${nas.id}`).set(bearer(write)).expect(200);
    expect((await api().get(`/api/v1/maintenance/${w.id}`).set(bearer(read))).body.monitors).toEqual([router.id]);
    const lines = (await api().get('/api/v1/events?kind=maintenance_updated').set(bearer(read))).body.items;
    expect(lines[0]).toMatchObject({
      text: 'maintenance window "Rack move" no longer covers the deleted monitor "NAS"',
      data: { window_id: w.id, fields: ['monitors'] },
    });
  });
});
