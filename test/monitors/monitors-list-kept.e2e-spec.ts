/**
 * GET /monitors keeps each monitor's JSON between reads and reads whole rows only of monitors whose
 * kept answer is out of date (monitor-list.service.ts, list-cache.ts). These monitors have checks, so their
 * stats stay the same object between reads and the kept answers are really used: each change below
 * must still show in the very next list.
 */
import { MonitorsRepository } from '../../src/catalog/monitors.repository';
import { bearer } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';

type Listed = {
  id: number;
  name: string;
  muted_until: string | null;
  state: { status: string; muted: boolean; latency_ms: number | null };
  stats: { uptime_24h: number | null; spark: { worst: string | null }[] };
};

describe('GET /monitors with kept answers', () => {
  let h: EngineHarness;
  const list = async (query = '') =>
    (await h.t.http.get(`/api/v1/monitors${query}`).set(bearer(h.write)).expect(200)).body.items as Listed[];
  const one = async (id: number) => (await list()).find((m) => m.id === id)!;

  beforeAll(async () => {
    h = await startEngineHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('shows a change of state, a mute that ran out, a rename and a deletion in the next read', async () => {
    const made: Listed[] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      made.push(
        (
          await h.t.http
            .post('/api/v1/monitors')
            .set(bearer(h.write))
            .send(httpMonitor({ name, confirm_after: 1 }, { url: h.target.url }))
            .expect(201)
        ).body,
      );
    }
    const [alpha, beta, gamma] = made.map((m) => m.id);
    await h.advance(0);
    await h.advance(60_000);
    await h.writer.flush();
    const first = await list();
    expect(first.map((m) => [m.state.status, m.stats.uptime_24h])).toEqual([
      ['up', 100],
      ['up', 100],
      ['up', 100],
    ]);
    // Read twice with nothing in between: the same answer (from what was kept).
    expect(await list()).toEqual(first);

    await h.t.http.post(`/api/v1/monitors/${alpha}/mute`).set(bearer(h.write)).send({ minutes: 1 }).expect(200);
    expect((await one(alpha)).state.muted).toBe(true);
    // Nothing is written when a mute runs out: only the time says so.
    h.t.clock.advance(60_001);
    expect((await one(alpha)).state.muted).toBe(false);

    h.target.status = 500;
    await h.advance(60_000);
    expect((await list()).map((m) => m.state.status)).toEqual(['down', 'down', 'down']);

    // A status filter matches the live state, before the change is written (the writer has not run).
    expect(h.writer.stats.buffered).toBeGreaterThan(0);
    expect((await list('?status=down')).map((m) => m.name)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(await list('?status=up')).toEqual([]);
    await h.t.http.patch(`/api/v1/monitors/${beta}`).set(bearer(h.write)).send({ name: 'Beta two' }).expect(200);
    await h.t.http.delete(`/api/v1/monitors/${gamma}`).set(bearer(h.write)).expect(200);
    expect((await list()).map((m) => m.name)).toEqual(['Beta two', 'Alpha']);
    const downPage = (await h.t.http.get('/api/v1/monitors?status=down&limit=1').set(bearer(h.write)).expect(200)).body;
    expect([downPage.items.map((m: Listed) => m.name), downPage.next_cursor]).toEqual([['Beta two'], beta]);
    expect((await list(`?status=down&limit=1&before=${beta}`)).map((m) => m.name)).toEqual(['Alpha']);
    await h.writer.flush();
    expect((await list('?status=down&limit=1')).map((m) => m.name)).toEqual(['Beta two']);
  });

  it('names the cursors of the list pages after the first, as next_cursor leads through them', async () => {
    const repo = h.t.app.get(MonitorsRepository);
    const listed = async (limit: number, before?: number) =>
      (
        await h.t.http
          .get(`/api/v1/monitors?limit=${limit}${before === undefined ? '' : `&before=${before}`}`)
          .set(bearer(h.write))
          .expect(200)
      ).body as { next_cursor: number | null };
    for (const name of ['P1', 'P2', 'P3']) {
      await h.t.http
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ name }, { url: h.target.url }))
        .expect(201);
    }
    // Follow next_cursor with pages of 2; pageCursors(2, n) must name the same cursors, at most n - 1.
    const cursors: number[] = [];
    for (let page = await listed(2); page.next_cursor !== null; page = await listed(2, page.next_cursor))
      cursors.push(page.next_cursor);
    expect(cursors.length).toBeGreaterThan(1);
    expect(await repo.pageCursors(2, 100)).toEqual(cursors);
    expect(await repo.pageCursors(2, 2)).toEqual(cursors.slice(0, 1));
    expect(await repo.pageCursors(500, 4)).toEqual([]);
  });

  it('keeps the answer of a monitor without data until its first result, which shows in the next read', async () => {
    const made = (
      await h.t.http
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ name: 'Delta', confirm_after: 1 }, { url: h.target.url }))
        .expect(201)
    ).body as Listed;
    const before = await one(made.id);
    expect(before.stats.uptime_24h).toBeNull();
    expect(before.stats.spark.every((p) => p.worst === null)).toBe(true);
    expect(await one(made.id)).toEqual(before);
    h.target.status = 200;
    // Its first result (check now: recorded like a scheduled check), not written yet; the clock has
    // not moved, so without the first result's say the kept figures would still be fresh.
    await h.t.http.post(`/api/v1/monitors/${made.id}/check`).set(bearer(h.write)).send({}).expect(200);
    expect((await one(made.id)).stats.spark.at(-1)!.worst).toBe('up');
  });
});
