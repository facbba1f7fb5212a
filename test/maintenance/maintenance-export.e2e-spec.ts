/**
 * Maintenance windows in export and import (docs/maintenance.md, docs/export-import.md): exported
 * by title with their monitors as slugs; imported matched by title (created, updated, unchanged),
 * their slugs resolved to the importing service's monitors; a bad window fails the whole import.
 */
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { tcpMonitor } from '../support/monitors';

interface Instance {
  t: TestApp;
  admin: string;
}

async function instance(): Promise<Instance> {
  const t = await startApp();
  const { cookie } = await createOwner(t);
  return { t, admin: await createKey(t, cookie, 'admin') };
}

const weekly = {
  kind: 'weekly',
  days: ['sun'],
  start_time: '03:00',
  duration_min: 60,
  tz: 'America/New_York',
  from: null,
  until: '2027-01-31',
};

describe('maintenance windows in export and import', () => {
  let a: Instance;
  let b: Instance;
  beforeEach(async () => {
    [a, b] = [await instance(), await instance()];
  });
  afterEach(async () => {
    await a.t.close();
    await b.t.close();
  });

  const post = (i: Instance, path: string, body: unknown) =>
    i.t.http
      .post(path)
      .set(bearer(i.admin))
      .send(body as object);
  const importInto = (i: Instance, doc: unknown, dryRun: boolean) =>
    post(i, '/api/v1/import', { ...(doc as object), dry_run: dryRun });

  it('carries windows by title with their monitors as slugs, and applies them on another service', async () => {
    const nas = (await post(a, '/api/v1/monitors', tcpMonitor({ name: 'NAS' })).expect(201)).body;
    await post(a, '/api/v1/monitors', tcpMonitor({ name: 'Router' })).expect(201);
    await post(a, '/api/v1/maintenance', {
      title: 'Backups',
      description: 'Nightly *backup* run',
      monitors: [nas.id],
      schedule: weekly,
      announce_h: 2,
    }).expect(201);
    await post(a, '/api/v1/maintenance', { title: 'All hands', schedule: { kind: 'manual' }, public: false }).expect(
      201,
    );
    const doc = (await a.t.http.get('/api/v1/export').set(bearer(a.admin)).expect(200)).body;
    expect(doc.maintenance).toEqual([
      {
        title: 'All hands',
        description: null,
        monitors: null,
        schedule: { kind: 'manual' },
        public: false,
        announce_h: 24,
      },
      {
        title: 'Backups',
        description: 'Nightly *backup* run',
        monitors: ['nas'],
        schedule: weekly,
        public: true,
        announce_h: 2,
      },
    ]);

    const dry = (await importInto(b, doc, true).expect(200)).body;
    expect(dry.maintenance).toEqual({ created: ['All hands', 'Backups'], updated: [], unchanged: [], errors: [] });
    expect((await b.t.http.get('/api/v1/maintenance').set(bearer(b.admin))).body.items).toEqual([]);
    const applied = (await importInto(b, doc, false).expect(200)).body;
    expect(applied).toMatchObject({ applied: true, maintenance: { created: ['All hands', 'Backups'] } });
    const nasHere = (await b.t.http.get('/api/v1/monitors/slug:nas').set(bearer(b.admin)).expect(200)).body;
    const windows = (await b.t.http.get('/api/v1/maintenance').set(bearer(b.admin))).body.items;
    expect(windows.find((w: { title: string }) => w.title === 'Backups')).toMatchObject({
      monitors: [nasHere.id],
      schedule: weekly,
      announce_h: 2,
    });
    // The same document again changes nothing; a changed one updates the window of that title.
    const again = (await importInto(b, doc, false).expect(200)).body;
    expect(again.maintenance).toEqual({ created: [], updated: [], unchanged: ['All hands', 'Backups'], errors: [] });
    doc.maintenance[1].announce_h = 12;
    const changed = (await importInto(b, doc, false).expect(200)).body;
    expect(changed.maintenance).toMatchObject({ updated: ['Backups'], unchanged: ['All hands'] });
    const lines = (await b.t.http.get('/api/v1/events?kind=imported').set(bearer(b.admin))).body.items;
    expect(lines[0].text).toContain('maintenance windows 0 created, 1 updated');
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'an unknown slug',
      { title: 'X', monitors: ['nowhere'], schedule: { kind: 'manual' } },
      'maintenance[0].monitors[0]',
    ],
    ['an unknown zone', { title: 'X', schedule: { ...weekly, tz: 'Moon/Base' } }, 'maintenance[0].schedule.tz'],
    ['no title', { schedule: { kind: 'manual' } }, 'maintenance[0].title'],
  ])('refuses %s naming the field, and applies nothing at all', async (_why, window, field) => {
    const doc = {
      service_export: 1,
      monitors: [tcpMonitor({ name: 'Fresh' })],
      channels: [],
      status_page: {},
      maintenance: [window],
    };
    const res = (await importInto(b, doc, false).expect(200)).body;
    expect(res.applied).toBe(false);
    expect(res.maintenance.errors.map((e: { field: string }) => e.field)).toContain(field);
    await b.t.http.get('/api/v1/monitors/slug:fresh').set(bearer(b.admin)).expect(404);
  });

  it('takes a window naming a monitor created by the same import', async () => {
    const doc = {
      service_export: 1,
      monitors: [tcpMonitor({ name: 'Fresh' })],
      channels: [],
      status_page: {},
      maintenance: [{ title: 'Fresh start', monitors: ['fresh'], schedule: { kind: 'manual' } }],
    };
    await importInto(b, doc, false).expect(200);
    const fresh = (await b.t.http.get('/api/v1/monitors/slug:fresh').set(bearer(b.admin))).body;
    const [w] = (await b.t.http.get('/api/v1/maintenance').set(bearer(b.admin))).body.items;
    expect(w).toMatchObject({ title: 'Fresh start', monitors: [fresh.id] });
  });
});
