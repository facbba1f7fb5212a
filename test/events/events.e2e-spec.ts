/** GET /events: one timeline, newest first, filtered by kind and monitor, paged by id. */
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';
import { EVENT_KINDS } from '../../src/events/event-kinds';

describe('GET /events', () => {
  let h: EngineHarness;
  let read: string;
  beforeEach(async () => {
    h = await startEngineHarness();
    read = await createKey(h.t, h.cookie, 'read', 'reader');
  });
  afterEach(async () => h.close());

  const get = async (q = '', status = 200) =>
    (await h.t.http.get(`/api/v1/events${q}`).set(bearer(read)).expect(status)).body;

  /** A monitor created, up, down, up again, renamed and deleted: a known set of lines. */
  const story = async () => {
    const m = (
      await h.t.http
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ confirm_after: 1, interval_s: 60 }, { url: h.target.url }))
        .expect(201)
    ).body;
    await h.advance(0);
    h.target.status = 500;
    await h.advance(60_000);
    h.target.status = 200;
    await h.advance(60_000);
    h.t.clock.advance(1000);
    await h.t.http.patch(`/api/v1/monitors/${m.id}`).set(bearer(h.write)).send({ name: 'Renamed' }).expect(200);
    await h.writer.flush();
    return m.id as number;
  };

  it('answers items with the documented fields, newest first', async () => {
    const id = await story();
    const page = await get();
    expect(Object.keys(page).sort()).toEqual(['items', 'next_cursor']);
    const times = page.items.map((e: { at: string }) => Date.parse(e.at));
    expect([...times].sort((a: number, b: number) => b - a)).toEqual(times);
    for (const e of page.items) {
      expect(Object.keys(e).sort()).toEqual(['actor', 'at', 'data', 'id', 'incident_id', 'kind', 'monitor_id', 'text']);
      expect(Object.keys(EVENT_KINDS)).toContain(e.kind);
      expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const kinds = page.items
      .filter((e: { monitor_id: number }) => e.monitor_id === id)
      .map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(['monitor_updated', 'up', 'alert', 'down', 'failing', 'first_up', 'monitor_created']);
    const updated = page.items[0];
    expect(updated).toMatchObject({
      kind: 'monitor_updated',
      actor: 'key:write key',
      data: { fields: ['name'] },
      incident_id: null,
    });
    const down = page.items.find((e: { kind: string }) => e.kind === 'down');
    expect(down).toMatchObject({
      actor: 'system',
      incident_id: expect.any(Number),
      data: { error: { code: 'status' } },
    });
    // Sign-in and key lines are there too (the harness set up the owner and made keys).
    expect(page.items.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['setup', 'key_created']));
  });

  it('filters by one kind, a comma list, and a monitor (still after it is deleted)', async () => {
    const id = await story();
    expect((await get('?kind=down')).items.map((e: { kind: string }) => e.kind)).toEqual(['down']);
    expect((await get('?kind=up,down,path')).items.map((e: { kind: string }) => e.kind)).toEqual(['up', 'down']);
    expect((await get('?kind=down,down')).items).toHaveLength(1);
    await h.t.http.delete(`/api/v1/monitors/${id}`).set(bearer(h.write)).expect(200);
    const mine = (await get(`?monitor_id=${id}`)).items.map((e: { kind: string }) => e.kind);
    expect(mine).toEqual(['monitor_updated', 'up', 'alert', 'down', 'failing', 'first_up', 'monitor_created']);
    const deleted = (await get('?kind=monitor_deleted')).items[0];
    expect(deleted).toMatchObject({ monitor_id: null, data: { monitor_id: id } });
    expect((await get(`?monitor_id=${id + 1000}`)).items).toEqual([]);
  });

  it('pages with before and limit, without gaps or repeats', async () => {
    await story();
    const all = (await get('?limit=500')).items.map((e: { id: number }) => e.id);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: number }[]; next_cursor: string | null } = await get(
        `?limit=3${cursor ? `&before=${cursor}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(all);
  });

  it('refuses bad filters with the field named; needs a caller', async () => {
    const unknown = await get('?kind=down,exploded', 422);
    expect(unknown.error).toMatchObject({ code: 'invalid', field: 'kind' });
    expect(unknown.error.message).toContain('"exploded"');
    for (const [q, field] of [
      ['?kind=', 'kind'],
      ['?kind=down,', 'kind'],
      ['?kind=DOWN', 'kind'],
      ['?monitor_id=abc', 'monitor_id'],
      ['?before=x', 'before'],
      ['?before=12', 'before'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
    ]) {
      expect((await get(q, 422)).error.field).toBe(field);
    }
    await h.t.http.get('/api/v1/events').expect(401);
    await h.t.http.get('/api/v1/events').set('Cookie', h.cookie).expect(200);
  });
});
