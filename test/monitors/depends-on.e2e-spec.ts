/**
 * `depends_on` over HTTP (issue 36, docs/dependencies.md): ids or `slug:<slug>` in create, patch,
 * replace by slug, bulk and import (by slug); a cycle, a self-reference, an unknown monitor or
 * eleven parents is a 422 naming the field with nothing stored; export names parents by slug;
 * deleting a parent takes it out of its dependants' lists and says so in the timeline.
 */
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { tcpMonitor } from '../support/monitors';

describe('depends_on', () => {
  let t: TestApp;
  let write: Record<string, string>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = bearer(await createKey(t, cookie, 'write'));
    admin = bearer(await createKey(t, cookie, 'admin'));
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.query('DELETE FROM monitors');
  });

  const create = async (name: string, over: Record<string, unknown> = {}) =>
    (
      await t.http
        .post('/api/v1/monitors')
        .set(write)
        .send(tcpMonitor({ name, ...over }))
        .expect(201)
    ).body as {
      id: number;
      slug: string;
      depends_on: number[];
      updated_at: string;
    };
  const stored = async () =>
    Object.fromEntries(
      (await t.db.query<{ slug: string; depends_on: string }[]>('SELECT slug, depends_on FROM monitors')).map((r) => [
        r.slug,
        JSON.parse(r.depends_on) as number[],
      ]),
    );

  it('defaults to [] and takes ids and slug:<slug>, answering ids', async () => {
    const router = await create('router');
    expect(router.depends_on).toEqual([]);
    const nas = await create('nas', { depends_on: [router.id] });
    const plex = await create('plex', { depends_on: ['slug:nas', router.id] });
    expect(plex.depends_on).toEqual([nas.id, router.id]);
    const got = (await t.http.get(`/api/v1/monitors/${plex.id}`).set(write).expect(200)).body;
    expect(got.depends_on).toEqual([nas.id, router.id]);
  });

  it('refuses a cycle through three monitors with a 422 naming the field and the slugs, storing nothing', async () => {
    const router = await create('router');
    const nas = await create('nas', { depends_on: [router.id] });
    await create('plex', { depends_on: [nas.id] });
    const before = await stored();
    const res = await t.http
      .patch(`/api/v1/monitors/${router.id}`)
      .set(write)
      .send({ depends_on: ['slug:plex'] })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'depends_on' });
    expect(res.body.error.message).toContain('router → plex → nas → router');
    expect(await stored()).toEqual(before);
  });

  it.each<[string, (ids: { a: number; b: number }) => unknown, string]>([
    ['an unknown monitor id', () => [999_999], 'depends_on[0]'],
    ['an unknown slug', () => ['slug:nowhere'], 'depends_on[0]'],
    ['itself', ({ a }) => [a], 'depends_on[0]'],
    ['a repeated monitor', ({ b }) => [b, 'slug:dns'], 'depends_on[1]'],
    ['a bare slug', () => ['router'], 'depends_on[0]'],
    ['a string that is not an array', () => 'router', 'depends_on'],
    ['eleven parents', () => Array.from({ length: 11 }, (_, i) => i + 1), 'depends_on'],
  ])('refuses %s with a 422 on that field and changes nothing', async (_name, value, field) => {
    const a = await create('router');
    const b = await create('dns');
    const before = await stored();
    const res = await t.http
      .patch(`/api/v1/monitors/${a.id}`)
      .set(write)
      .send({ depends_on: value({ a: a.id, b: b.id }) })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    expect(await stored()).toEqual(before);
  });

  it('refuses a new monitor naming itself by slug', async () => {
    const res = await t.http
      .post('/api/v1/monitors')
      .set(write)
      .send(tcpMonitor({ name: 'self', slug: 'self', depends_on: ['slug:self'] }))
      .expect(422);
    expect(res.body.error).toMatchObject({ field: 'depends_on[0]' });
    expect(await stored()).toEqual({});
  });

  it('takes depends_on in PUT by slug', async () => {
    const router = await create('router');
    const res = await t.http
      .put('/api/v1/monitors/by-slug/nas')
      .set(write)
      .send(tcpMonitor({ name: 'nas', depends_on: ['slug:router'] }))
      .expect(201);
    expect(res.body.depends_on).toEqual([router.id]);
  });

  it('bulk: items name each other by slug in any order; a cycle is a per-item error and the rest apply', async () => {
    await create('router');
    const res = await t.http
      .post('/api/v1/monitors/bulk')
      .set(write)
      .send({
        monitors: [
          tcpMonitor({ name: 'plex', depends_on: ['slug:nas'] }),
          tcpMonitor({ name: 'nas', depends_on: ['slug:router'] }),
          tcpMonitor({ name: 'x', depends_on: ['slug:y'] }),
          tcpMonitor({ name: 'y', depends_on: ['slug:x'] }),
        ],
      })
      .expect(200);
    expect(res.body.created).toEqual(['plex', 'nas']);
    expect(
      res.body.errors.map((e: { slug: string; fields: { field: string }[] }) => [e.slug, e.fields[0].field]),
    ).toEqual([
      ['x', 'depends_on'],
      ['y', 'depends_on'],
    ]);
    const s = await stored();
    const ids = Object.fromEntries(
      (await t.db.query<{ id: number; slug: string }[]>('SELECT id, slug FROM monitors')).map((r) => [r.slug, r.id]),
    );
    expect(s).toEqual({ router: [], nas: [ids.router], plex: [ids.nas] });
    // The same file again changes nothing.
    const again = await t.http
      .post('/api/v1/monitors/bulk')
      .set(write)
      .send({
        monitors: [
          tcpMonitor({ name: 'plex', depends_on: ['slug:nas'] }),
          tcpMonitor({ name: 'nas', depends_on: ['slug:router'] }),
        ],
      })
      .expect(200);
    expect(again.body.unchanged).toEqual(['plex', 'nas']);
  });

  it('export names parents by slug, and an import into an empty service wires them by slug', async () => {
    const router = await create('router');
    await create('nas', { depends_on: [router.id] });
    const doc = (await t.http.get('/api/v1/export').set(admin).expect(200)).body;
    const nasItem = doc.monitors.find((m: { slug: string }) => m.slug === 'nas');
    expect(nasItem.depends_on).toEqual(['router']);
    await t.db.query('DELETE FROM monitors');
    // The export lists nas (the dependant) first: the import orders the writes itself.
    const res = await t.http
      .post('/api/v1/import')
      .set(admin)
      .send({ ...doc, dry_run: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied: true, created: ['nas', 'router'] });
    expect(res.body.errors).toEqual([]);
    const ids = Object.fromEntries(
      (await t.db.query<{ id: number; slug: string }[]>('SELECT id, slug FROM monitors')).map((r) => [r.slug, r.id]),
    );
    expect(await stored()).toEqual({ router: [], nas: [ids.router] });
  });

  it('import refuses an id and an unknown slug, naming the field, storing nothing', async () => {
    const doc = {
      service_export: 1,
      monitors: [tcpMonitor({ name: 'a', depends_on: [3] }), tcpMonitor({ name: 'b', depends_on: ['nowhere'] })],
      channels: [],
      status_page: {},
    };
    const res = await t.http
      .post('/api/v1/import')
      .set(admin)
      .send({ ...doc, dry_run: false })
      .expect(200);
    expect(res.body.applied).toBe(false);
    expect(res.body.errors.map((e: { fields: { field: string }[] }) => e.fields[0].field)).toEqual([
      'depends_on[0]',
      'depends_on[0]',
    ]);
    expect(await stored()).toEqual({});
  });

  it('deleting a parent takes it out of its dependants and says so in their timeline', async () => {
    const router = await create('router');
    const dns = await create('dns');
    const nas = await create('nas', { depends_on: [router.id, dns.id] });
    await t.http.delete(`/api/v1/monitors/${router.id}`).set(write).expect(200);
    const got = (await t.http.get(`/api/v1/monitors/${nas.id}`).set(write).expect(200)).body;
    expect(got.depends_on).toEqual([dns.id]);
    const events = (await t.http.get(`/api/v1/events?monitor_id=${nas.id}`).set(write).expect(200)).body.items;
    expect(events.map((e: { text: string }) => e.text)).toContain(
      'monitor "nas" no longer depends on "router", which was deleted',
    );
  });
});
