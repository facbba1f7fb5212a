/**
 * The owner's /locations routes on the real app (docs/agents.md): scopes and step-up (POST /locations
 * read as admin + step-up, like POST /channels: an admin key may add one), names unique
 * without regard to case and `local` reserved, the token shown once and stored only hashed, a
 * rename and a deletion carried into the monitors that list the location, and the monitor fields
 * `locations` and `quorum` (defaults, unknown names, bounds, export).
 */
import { createHash } from 'node:crypto';
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { httpMonitor } from '../support/monitors';

describe('/locations', () => {
  let t: TestApp;
  let cookie: string;
  let admin: string;
  let write: string;
  let read: string;
  beforeEach(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    admin = await createKey(t, cookie, 'admin');
    write = await createKey(t, cookie, 'write');
    read = await createKey(t, cookie, 'read');
  });
  afterEach(async () => t.close());

  const session = () => ({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' });
  const create = async (name: string) =>
    (await t.http.post('/api/v1/locations').set(session()).send({ name }).expect(201)).body as {
      id: number;
      name: string;
      token: string;
    };
  const rows = () => t.db.query<{ name: string; token_hash: string }[]>('SELECT name, token_hash FROM locations');

  it('creates a location with its token shown once and only its hash stored', async () => {
    const loc = await create('vps-fra');
    expect(loc).toEqual({
      id: expect.any(Number),
      name: 'vps-fra',
      state: 'never',
      last_seen_at: null,
      version: null,
      address: null,
      monitors: 0,
      token: expect.stringMatching(/^fsa_[0-9a-f]{48}$/),
    });
    const stored = await rows();
    expect(stored).toEqual([{ name: 'vps-fra', token_hash: createHash('sha256').update(loc.token).digest('hex') }]);
    const list = await t.http.get('/api/v1/locations').set(bearer(read)).expect(200);
    expect(list.body).toEqual({
      items: [{ ...loc, token: undefined }].map(({ token: _, ...l }) => l),
      next_cursor: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(loc.token);
  });

  it.each<[string, () => Record<string, string>]>([
    ['a read key', () => bearer(read)],
    ['a write key', () => bearer(write)],
  ])('refuses to create a location for %s (403 forbidden) and creates nothing', async (_, who) => {
    const res = await t.http.post('/api/v1/locations').set(who()).send({ name: 'x' }).expect(403);
    expect(res.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    expect(await rows()).toEqual([]);
  });

  it('creates with an admin key (never asked to step up), its token shown once and stored hashed', async () => {
    t.clock.advance(12 * 3600_000 + 1);
    const res = await t.http.post('/api/v1/locations').set(bearer(admin)).send({ name: 'scripted' }).expect(201);
    expect(res.body).toMatchObject({
      name: 'scripted',
      state: 'never',
      token: expect.stringMatching(/^fsa_[0-9a-f]{48}$/),
    });
    expect(await rows()).toEqual([
      { name: 'scripted', token_hash: createHash('sha256').update(res.body.token).digest('hex') },
    ]);
    const line = await t.http.get('/api/v1/events?kind=location_created').set(bearer(read)).expect(200);
    expect(JSON.stringify(line.body)).not.toContain(res.body.token);
  });

  it('creates with an admin key or a session with a fresh sign-in; reads with read; changes with admin', async () => {
    await t.http.get('/api/v1/locations').expect(401);
    const loc = await create('nas');
    await t.http.patch(`/api/v1/locations/${loc.id}`).set(bearer(write)).send({ name: 'y' }).expect(403);
    await t.http.patch(`/api/v1/locations/${loc.id}`).set(bearer(admin)).send({ name: 'nas-2' }).expect(200);
    await t.http.post(`/api/v1/locations/${loc.id}/token`).set(bearer(write)).expect(403);
    t.clock.advance(12 * 3600_000 + 1);
    const late = await t.http.post('/api/v1/locations').set(session()).send({ name: 'late' }).expect(403);
    expect(late.body.error.code).toBe('step_up');
    expect((await rows()).map((r) => r.name)).toEqual(['nas-2']);
    const del = await t.http.delete(`/api/v1/locations/${loc.id}`).set(session()).expect(403);
    expect(del.body.error.code).toBe('step_up');
    await t.http.delete(`/api/v1/locations/${loc.id}`).set(bearer(admin)).expect(204);
    expect(await rows()).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['local', { name: 'local' }, 'name'],
    ['Local in another case', { name: 'Local' }, 'name'],
    ['41 characters', { name: 'x'.repeat(41) }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a bidi override', { name: 'a\u202Eb' }, 'name'],
    ['no name', {}, 'name'],
    ['an unknown field', { name: 'ok', token: 'mine' }, 'token'],
    ['an array', [], 'body'],
  ])('refuses %s with a field error and stores nothing', async (_, body, field) => {
    const res = await t.http
      .post('/api/v1/locations')
      .set(session())
      .send(body as object)
      .expect(422);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.fields[0].field).toBe(field);
    expect(await rows()).toEqual([]);
  });

  it('keeps names unique without regard to case, on create and on rename', async () => {
    const a = await create('Home');
    await create('vps');
    const dup = await t.http.post('/api/v1/locations').set(session()).send({ name: 'home' }).expect(422);
    expect(dup.body.error.fields[0]).toEqual({ field: 'name', message: 'another location is already called "home"' });
    await t.http.patch(`/api/v1/locations/${a.id}`).set(bearer(admin)).send({ name: 'VPS' }).expect(422);
    await t.http.patch('/api/v1/locations/999').set(bearer(admin)).send({ name: 'x' }).expect(404);
  });

  it('rotating gives a new token and the stored hash changes at once', async () => {
    const loc = await create('vps');
    const res = await t.http.post(`/api/v1/locations/${loc.id}/token`).set(bearer(admin)).expect(200);
    expect(res.body.token).toMatch(/^fsa_[0-9a-f]{48}$/);
    expect(res.body.token).not.toBe(loc.token);
    expect((await rows())[0].token_hash).toBe(createHash('sha256').update(res.body.token).digest('hex'));
    const lines = await t.http.get('/api/v1/events?kind=location_updated').set(bearer(read)).expect(200);
    expect(lines.body.items[0].text).toContain('new token');
    expect(JSON.stringify(lines.body)).not.toContain(res.body.token);
  });

  describe('monitor fields', () => {
    it('defaults to ["local"] and a null quorum, and takes known names', async () => {
      const plain = await t.http.post('/api/v1/monitors').set(bearer(write)).send(httpMonitor()).expect(201);
      expect(plain.body).toMatchObject({ locations: ['local'], quorum: null });
      await create('vps');
      await create('Mum');
      const multi = await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(httpMonitor({ name: 'cloud', locations: ['local', 'vps', 'Mum'], quorum: 2 }))
        .expect(201);
      expect(multi.body).toMatchObject({ locations: ['local', 'vps', 'Mum'], quorum: 2 });
      const list = await t.http.get('/api/v1/locations').set(bearer(read)).expect(200);
      expect(list.body.items.map((l: { monitors: number }) => l.monitors)).toEqual([1, 1]);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an unknown name', { locations: ['local', 'nowhere'] }, 'locations[1]'],
      ['no location', { locations: [] }, 'locations'],
      ['11 locations', { locations: Array.from({ length: 11 }, (_, i) => `l${i}`) }, 'locations'],
      ['a repeated name', { locations: ['local', 'local'] }, 'locations'],
      ['a quorum above the count', { locations: ['local'], quorum: 2 }, 'quorum'],
      ['a quorum of 0', { quorum: 0 }, 'quorum'],
      ['a quorum that is text', { quorum: '1' }, 'quorum'],
    ])('refuses %s', async (_, over, field) => {
      const res = await t.http.post('/api/v1/monitors').set(bearer(write)).send(httpMonitor(over)).expect(422);
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect((await t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM monitors'))[0].n).toBe(0);
    });

    it('bulk takes the fields, and refuses an unknown location naming it, writing nothing', async () => {
      await create('vps');
      const ok = await t.http
        .post('/api/v1/monitors/bulk')
        .set(bearer(write))
        .send({ dry_run: false, monitors: [httpMonitor({ name: 'a', locations: ['vps'], quorum: 1 })] })
        .expect(200);
      expect(ok.body.errors).toEqual([]);
      const bad = await t.http
        .post('/api/v1/monitors/bulk')
        .set(bearer(write))
        .send({
          dry_run: false,
          monitors: [httpMonitor({ name: 'b' }), httpMonitor({ name: 'c', locations: ['nowhere'] })],
        });
      expect(bad.status).toBe(422);
      expect(bad.body.error.fields[0].field).toBe('locations[0]');
      expect((await t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM monitors'))[0].n).toBe(1);
    });

    it('a heartbeat monitor is only local', async () => {
      await create('vps');
      const res = await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send({ name: 'cron', kind: 'heartbeat', locations: ['vps'], heartbeat: {} })
        .expect(422);
      expect(res.body.error.fields[0].field).toBe('locations');
    });

    it('a rename is carried into the monitors; a deletion leaves them, with local when none is left', async () => {
      const vps = await create('vps');
      const a = (
        await t.http
          .post('/api/v1/monitors')
          .set(bearer(write))
          .send(httpMonitor({ name: 'a', locations: ['vps'] }))
          .expect(201)
      ).body;
      const b = (
        await t.http
          .post('/api/v1/monitors')
          .set(bearer(write))
          .send(httpMonitor({ name: 'b', locations: ['local', 'vps'], quorum: 2 }))
          .expect(201)
      ).body;
      await t.http.patch(`/api/v1/locations/${vps.id}`).set(bearer(admin)).send({ name: 'hetzner' }).expect(200);
      const renamed = await t.http.get(`/api/v1/monitors/${b.id}`).set(bearer(read)).expect(200);
      expect(renamed.body).toMatchObject({ locations: ['local', 'hetzner'], quorum: 2 });
      await t.http.delete(`/api/v1/locations/${vps.id}`).set(bearer(admin)).expect(204);
      expect((await t.http.get(`/api/v1/monitors/${a.id}`).set(bearer(read))).body).toMatchObject({
        locations: ['local'],
        quorum: null,
      });
      expect((await t.http.get(`/api/v1/monitors/${b.id}`).set(bearer(read))).body).toMatchObject({
        locations: ['local'],
        quorum: null,
      });
    });

    it('export carries the fields and import takes them back', async () => {
      await create('vps');
      await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(httpMonitor({ name: 'cloud', locations: ['local', 'vps'], quorum: 1 }))
        .expect(201);
      const doc = await t.http.get('/api/v1/export').set(bearer(admin)).expect(200);
      expect(doc.body.monitors[0]).toMatchObject({ locations: ['local', 'vps'], quorum: 1 });
      await t.http.delete(`/api/v1/monitors/slug:cloud`).set(bearer(admin)).expect(200);
      const imported = await t.http
        .post('/api/v1/import')
        .set(bearer(admin))
        .send({ ...doc.body, dry_run: false });
      expect([imported.status, imported.body.errors ?? imported.body.error ?? null]).toEqual([200, []]);
      const back = await t.http.get('/api/v1/monitors/slug:cloud').set(bearer(read)).expect(200);
      expect(back.body).toMatchObject({ locations: ['local', 'vps'], quorum: 1 });
    });
  });
});
