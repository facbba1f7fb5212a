/**
 * GET /export and POST /import on the real app: masking, stable order, the round trip into an
 * empty instance, dry run against apply, the secret keep-rule, all-or-nothing, and the bad
 * documents of the issue (wrong format, a missing section, 10,000 monitors, a bad monitor at 7).
 */
import { EngineService } from '../../src/engine/engine.service';
import { ORIGIN, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, httpMonitor, tcpMonitor } from '../support/monitors';

const MASK = '********';
const SECRETS = [
  'bearer-token-value',
  'header-secret-value',
  'hook-signing-secret',
  'hook-header-secret',
  'chat-hook-path-secret',
];

interface Instance {
  t: TestApp;
  cookie: string;
  admin: string;
  write: string;
  read: string;
}

async function instance(): Promise<Instance> {
  const t = await startApp();
  const { cookie } = await createOwner(t);
  return {
    t,
    cookie,
    admin: await createKey(t, cookie, 'admin', 'ops'),
    write: await createKey(t, cookie, 'write'),
    read: await createKey(t, cookie, 'read'),
  };
}

/** A setup with something of every kind that an export carries: secrets, channels named by monitors, a heartbeat. */
async function populate(a: Instance): Promise<{ heartbeatUrl: string; channels: Record<string, number> }> {
  const post = (path: string, body: unknown, key = a.admin) =>
    a.t.http
      .post(path)
      .set(bearer(key))
      .send(body as object);
  const channels: Record<string, number> = {};
  channels.Ops = (
    await post('/api/v1/channels', {
      kind: 'webhook',
      name: 'Ops',
      config: {
        url: 'http://127.0.0.1:9/hook',
        secret: 'hook-signing-secret',
        headers: [{ name: 'X-Token', value: 'hook-header-secret' }],
      },
    }).expect(201)
  ).body.id;
  channels.Chat = (
    await post('/api/v1/channels', {
      kind: 'chat',
      name: 'Chat',
      events: ['down', 'up'],
      config: { url: 'http://127.0.0.1:9/chat-hook-path-secret' },
    }).expect(201)
  ).body.id;
  channels.Mail = (
    await post('/api/v1/channels', {
      kind: 'email',
      name: 'Mail',
      enabled: false,
      config: { to: ['a@example.com'] },
    }).expect(201)
  ).body.id;
  await post(
    '/api/v1/monitors',
    httpMonitor(
      {
        name: 'NAS',
        group: 'Home',
        tags: ['lan', 'storage'],
        channels: [channels.Chat, channels.Ops],
        public: true,
        public_name: 'Storage',
        sort: 2,
      },
      {
        url: 'https://127.0.0.1:8443/health',
        auth: { type: 'bearer', token: 'bearer-token-value' },
        headers: [
          { name: 'X-Api-Key', value: 'header-secret-value' },
          { name: 'Accept', value: 'text/plain' },
        ],
        json: [{ path: '$.ok', op: '==', value: true }],
      },
    ),
    a.write,
  ).expect(201);
  await post('/api/v1/monitors', tcpMonitor({ name: 'Database', channels: [], paused: true }), a.write).expect(201);
  const hb = (await post('/api/v1/monitors', heartbeatMonitor({ channels: [channels.Mail] }), a.write).expect(201))
    .body;
  return { heartbeatUrl: hb.heartbeat_url, channels };
}

const exportOf = async (a: Instance, query = '') =>
  (await a.t.http.get(`/api/v1/export${query}`).set(bearer(a.admin)).expect(200)).body;
const importInto = (
  a: Instance,
  doc: Record<string, unknown>,
  dryRun?: boolean,
  who: Record<string, string> = bearer(a.admin),
) =>
  a.t.http
    .post('/api/v1/import')
    .set(who)
    .send(dryRun === undefined ? doc : { ...doc, dry_run: dryRun });
const withoutTime = (doc: Record<string, unknown>) => ({ ...doc, exported_at: undefined });
const counts = async (a: Instance) => ({
  monitors: ((await a.t.db.query('SELECT COUNT(*) AS n FROM monitors')) as { n: number }[])[0].n,
  channels: ((await a.t.db.query('SELECT COUNT(*) AS n FROM channels')) as { n: number }[])[0].n,
  listedChannels: (await a.t.http.get('/api/v1/channels').set(bearer(a.read)).expect(200)).body.items.length,
});

describe('export', () => {
  let a: Instance;
  beforeEach(async () => {
    a = await instance();
    await populate(a);
  });
  afterEach(async () => a.t.close());

  it('answers the document of the spec: format 1, the time, monitors by slug, channels by name, every secret masked', async () => {
    const res = await a.t.http.get('/api/v1/export').set(bearer(a.admin)).expect(200);
    const doc = res.body;
    expect(Object.keys(doc)).toEqual([
      'service_export',
      'exported_at',
      'monitors',
      'channels',
      'status_page',
      'maintenance',
    ]);
    expect(doc.service_export).toBe(1);
    expect(doc.exported_at).toBe(new Date(a.t.clock.now()).toISOString());
    expect(doc.monitors.map((m: { slug: string }) => m.slug)).toEqual(['database', 'nas', 'nightly-backup']);
    expect(doc.channels.map((c: { name: string }) => c.name)).toEqual(['Chat', 'Mail', 'Ops']);
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);

    const nas = doc.monitors[1];
    expect(Object.keys(nas)).toEqual([
      'name',
      'slug',
      'kind',
      'group',
      'tags',
      'description',
      'runbook_url',
      'interval_s',
      'timeout_ms',
      'confirm_after',
      'retry_interval_s',
      'recover_after',
      'slow_ms',
      'slow_after',
      'alert_on_slow',
      'channels',
      'depends_on',
      'locations',
      'quorum',
      'remind_every_min',
      'paused',
      'muted_until',
      'public',
      'public_name',
      'public_group',
      'sort',
      'http',
    ]);
    expect(nas).toMatchObject({ channels: ['Chat', 'Ops'], public: true, public_name: 'Storage', sort: 2 });
    expect(nas.http.auth).toEqual({ type: 'bearer', token: MASK });
    expect(nas.http.headers).toEqual([
      { name: 'X-Api-Key', secret: true, value: MASK },
      { name: 'Accept', secret: false, value: 'text/plain' },
    ]);
    expect(doc.monitors[0]).toMatchObject({ channels: [], paused: true });
    expect(doc.monitors[2]).toMatchObject({ channels: ['Mail'], kind: 'heartbeat' });
    expect(doc.monitors[2]).not.toHaveProperty('heartbeat_token_sha256');
    expect(doc.channels).toEqual([
      { name: 'Chat', kind: 'chat', enabled: true, events: ['down', 'up'], config: { format: 'auto', url: MASK } },
      {
        name: 'Mail',
        kind: 'email',
        enabled: false,
        events: ['down', 'up', 'slow', 'flapping', 'cert', 'reminder', 'notice'],
        config: { to: ['a@example.com'] },
      },
      {
        name: 'Ops',
        kind: 'webhook',
        enabled: true,
        events: expect.any(Array),
        config: { headers: [{ name: 'X-Token', value: MASK }], secret: MASK, url: MASK },
      },
    ]);
    // The status page's settings as GET /status-page shows them, without the read-only keys.
    expect(doc.status_page).toMatchObject({
      enabled: true,
      title: 'Status',
      layout: 'horizon',
      default_range: '90d',
      show_locations: false,
    });
    for (const key of ['url', 'logo', 'domains', 'server_ips', 'monitors'])
      expect(doc.status_page).not.toHaveProperty(key);
  });

  it('gives the same text twice for the same setup (only exported_at moves), so two exports diff cleanly', async () => {
    const first = (await a.t.http.get('/api/v1/export').set(bearer(a.admin)).expect(200)).text;
    a.t.clock.advance(60_000);
    // A change and its undoing leave the stored rows rewritten in another order of time.
    await a.t.http
      .patch('/api/v1/monitors/slug:nas')
      .set(bearer(a.write))
      .send({ tags: ['x'] })
      .expect(200);
    await a.t.http
      .patch('/api/v1/monitors/slug:nas')
      .set(bearer(a.write))
      .send({ tags: ['lan', 'storage'] })
      .expect(200);
    const second = (await a.t.http.get('/api/v1/export').set(bearer(a.admin)).expect(200)).text;
    const strip = (text: string) => text.replace(/"exported_at":"[^"]+"/, '');
    expect(strip(second)).toBe(strip(first));
    expect(second).not.toBe(first);
  });

  it('unmasks with ?secrets=1, adds the heartbeat token hash, and writes who took it to the timeline', async () => {
    const res = await a.t.http.get('/api/v1/export?secrets=1').set(bearer(a.admin)).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const secret of SECRETS) expect(res.text).toContain(secret);
    expect(res.text).not.toContain(MASK);
    expect(res.body.monitors[2].heartbeat_token_sha256).toMatch(/^[0-9a-f]{64}$/);
    const lines = (await a.t.http.get('/api/v1/events?kind=exported').set(bearer(a.read)).expect(200)).body.items;
    expect(lines).toEqual([
      expect.objectContaining({ actor: 'key:ops', text: 'export with secrets taken (3 monitors, 3 channels)' }),
    ]);
    await a.t.http.get('/api/v1/export').set(bearer(a.admin)).expect(200);
    expect(
      (await a.t.http.get('/api/v1/events?kind=exported').set(bearer(a.read)).expect(200)).body.items,
    ).toHaveLength(1);
  });

  it('needs admin, and a fresh sign-in for a session', async () => {
    for (const key of [a.read, a.write])
      expect((await a.t.http.get('/api/v1/export').set(bearer(key)).expect(403)).body.error.code).toBe('forbidden');
    await a.t.http.get('/api/v1/export').set('Cookie', a.cookie).expect(200);
    a.t.clock.advance(12 * 3600_000 + 1);
    expect((await a.t.http.get('/api/v1/export?secrets=1').set('Cookie', a.cookie).expect(403)).body.error.code).toBe(
      'step_up',
    );
  });

  it.each(['yes', 'true', '2'])('refuses secrets=%s with 422 on secrets', async (value) => {
    const res = await a.t.http.get(`/api/v1/export?secrets=${value}`).set(bearer(a.admin)).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'secrets' });
  });
});

describe('import', () => {
  let a: Instance;
  let b: Instance;
  beforeEach(async () => {
    a = await instance();
    b = await instance();
  });
  afterEach(async () => {
    await a.t.close();
    await b.t.close();
  });

  it('round trip: export with secrets, import into an empty instance, export again: the same document', async () => {
    const { heartbeatUrl } = await populate(a);
    const doc = await exportOf(a, '?secrets=1');
    const res = await importInto(b, doc, false).expect(200);
    expect(res.body).toEqual({
      dry_run: false,
      applied: true,
      created: ['database', 'nas', 'nightly-backup'],
      updated: [],
      unchanged: [],
      errors: [],
      channels: { created: ['Chat', 'Mail', 'Ops'], updated: [], unchanged: [], errors: [] },
      status_page: { changed: false, errors: [] },
      maintenance: { created: [], updated: [], unchanged: [], errors: [] },
    });
    expect(withoutTime(await exportOf(b, '?secrets=1'))).toEqual(withoutTime(doc));
    expect(withoutTime(await exportOf(b))).toEqual(withoutTime(await exportOf(a)));
    // The heartbeat's ping URL of the old machine works on the new one.
    const token = heartbeatUrl.split('/hb/')[1];
    const ping = await b.t.http.get(`/hb/${token}`);
    expect(ping.status).toBe(200);
    // The engine runs the imported monitors (a paused one stays paused).
    const engine = b.t.app.get(EngineService);
    const ids = (await b.t.http.get('/api/v1/monitors').set(bearer(b.read)).expect(200)).body.items.map(
      (m: { id: number }) => m.id,
    );
    expect(ids.map((id: number) => engine.configOf(id)?.slug).sort()).toEqual(['database', 'nas', 'nightly-backup']);
  });

  it('answers a dry run (the default) exactly like the real run, and writes nothing', async () => {
    await populate(a);
    const doc = await exportOf(a, '?secrets=1');
    const dry = await importInto(b, doc).expect(200);
    expect(dry.body).toMatchObject({
      dry_run: true,
      applied: false,
      created: ['database', 'nas', 'nightly-backup'],
      channels: { created: ['Chat', 'Mail', 'Ops'] },
    });
    expect(await counts(b)).toEqual({ monitors: 0, channels: 0, listedChannels: 0 });
    expect((await b.t.http.get('/api/v1/events?kind=imported').set(bearer(b.read)).expect(200)).body.items).toEqual([]);
    const real = await importInto(b, doc, false).expect(200);
    expect({ ...real.body, dry_run: true, applied: false }).toEqual(dry.body);
    expect(await counts(b)).toEqual({ monitors: 3, channels: 3, listedChannels: 3 });
  });

  it('applied twice changes nothing the second time; a changed document updates what changed', async () => {
    await populate(a);
    const doc = await exportOf(a, '?secrets=1');
    await importInto(b, doc, false).expect(200);
    const again = await importInto(b, doc, false).expect(200);
    expect(again.body).toMatchObject({
      applied: true,
      created: [],
      updated: [],
      unchanged: ['database', 'nas', 'nightly-backup'],
      channels: { created: [], updated: [], unchanged: ['Chat', 'Mail', 'Ops'] },
    });
    const importedLines = async () =>
      (await b.t.http.get('/api/v1/events?kind=imported').set(bearer(b.read)).expect(200)).body.items;
    expect(await importedLines()).toHaveLength(1); // the second import changed nothing: no line
    doc.monitors[0].interval_s = 300;
    doc.channels[0].events = ['down'];
    const changed = await importInto(b, doc, false).expect(200);
    expect(changed.body).toMatchObject({
      updated: ['database'],
      unchanged: ['nas', 'nightly-backup'],
      channels: { updated: ['Chat'], unchanged: ['Mail', 'Ops'] },
    });
    expect((await b.t.http.get('/api/v1/monitors/slug:database').set(bearer(b.read)).expect(200)).body.interval_s).toBe(
      300,
    );
    const chat = (await b.t.http.get('/api/v1/channels').set(bearer(b.read)).expect(200)).body.items.find(
      (c: { name: string }) => c.name === 'Chat',
    );
    expect(chat.events).toEqual(['down']);
    const lines = (await b.t.http.get('/api/v1/events?kind=imported,monitor_updated').set(bearer(b.read)).expect(200))
      .body.items;
    expect(lines[0]).toMatchObject({
      kind: 'imported',
      actor: 'key:ops',
      text: 'import applied: monitors 0 created, 1 updated; channels 0 created, 1 updated',
    });
    expect(lines[1]).toMatchObject({
      kind: 'monitor_updated',
      actor: 'key:ops',
      text: 'monitor "Database" changed: interval_s',
    });
  });

  describe('secrets', () => {
    it('keeps stored secrets for ******** when the target did not change (a masked export imported back)', async () => {
      await populate(a);
      const before = await exportOf(a, '?secrets=1');
      const masked = await exportOf(a);
      masked.monitors[1].interval_s = 120;
      masked.channels[2].enabled = false;
      const res = await importInto(a, masked, false).expect(200);
      expect(res.body).toMatchObject({ applied: true, updated: ['nas'], channels: { updated: ['Ops'] } });
      const after = await exportOf(a, '?secrets=1');
      expect(after.monitors[1].http).toEqual(before.monitors[1].http);
      expect(after.channels[2].config).toEqual(before.channels[2].config);
    });

    it('refuses ******** when the target changed, or for a monitor or channel not stored here, and applies nothing', async () => {
      await populate(a);
      const masked = await exportOf(a);
      masked.monitors[1].http.url = 'https://evil.example/health';
      masked.channels[0].config.url = 'http://127.0.0.1:9/elsewhere';
      masked.monitors.push({
        ...masked.monitors[1],
        slug: 'nas-copy',
        http: { ...masked.monitors[1].http, url: 'https://127.0.0.1:8443/health' },
      });
      masked.channels.push({ ...masked.channels[2], name: 'Ops copy' });
      const before = await exportOf(a, '?secrets=1');
      const res = await importInto(a, masked, false).expect(200);
      expect(res.body.applied).toBe(false);
      expect(res.body.errors).toEqual([
        {
          slug: 'nas',
          index: 1,
          fields: expect.arrayContaining([
            { field: 'http.auth.token', message: expect.stringContaining('changed: send the secret again') },
          ]),
        },
        {
          slug: 'nas-copy',
          index: 3,
          fields: expect.arrayContaining([
            { field: 'http.auth.token', message: expect.stringContaining('no stored value') },
          ]),
        },
      ]);
      expect(res.body.channels.errors).toEqual([
        {
          name: 'Ops copy',
          index: 3,
          fields: expect.arrayContaining([
            { field: 'config.secret', message: expect.stringContaining('no stored value') },
          ]),
        },
      ]);
      // The chat channel's URL is its secret: a new real URL is simply a new value, nothing to keep.
      expect(res.body.channels.updated).toEqual(['Chat']);
      expect(withoutTime(await exportOf(a, '?secrets=1'))).toEqual(withoutTime(before));
    });

    it('refuses a masked export into an empty instance, naming every secret it would need', async () => {
      await populate(a);
      const res = await importInto(b, await exportOf(a), false).expect(200);
      expect(res.body.applied).toBe(false);
      expect(
        res.body.errors.map((e: { slug: string; fields: { field: string }[] }) => [
          e.slug,
          e.fields.map((f) => f.field),
        ]),
      ).toEqual([['nas', ['http.auth.token', 'http.headers[0].value']]]);
      expect(
        res.body.channels.errors.map((e: { name: string; fields: { field: string }[] }) => [
          e.name,
          e.fields.map((f) => f.field).sort(),
        ]),
      ).toEqual([
        ['Chat', ['config.url']],
        ['Ops', ['config.headers[0].value', 'config.secret', 'config.url']],
      ]);
      expect(await counts(b)).toEqual({ monitors: 0, channels: 0, listedChannels: 0 });
    });
  });

  describe('all or nothing', () => {
    const docOf = (monitors: unknown[], channels: unknown[] = []) => ({
      service_export: 1,
      monitors,
      channels,
      status_page: {},
    });

    it('reports a malformed monitor at index 7 with its slug and index, and applies nothing at all', async () => {
      const monitors: Record<string, unknown>[] = Array.from({ length: 10 }, (_, i) =>
        tcpMonitor({ name: `Service ${i}`, slug: `service-${i}`, channels: ['Ops'] }),
      );
      monitors[7] = { ...monitors[7], interval_s: 5, tcp: { host: 'db.lan', port: 70000 } };
      const channels = [{ name: 'Ops', kind: 'email', config: { to: ['ops@example.com'] } }];
      const res = await importInto(b, docOf(monitors, channels), false).expect(200);
      expect(res.body.applied).toBe(false);
      expect(res.body.errors).toEqual([
        {
          slug: 'service-7',
          index: 7,
          fields: expect.arrayContaining([expect.objectContaining({ field: 'tcp.port' })]),
        },
      ]);
      expect(res.body.created).toHaveLength(9);
      expect(res.body.channels.created).toEqual(['Ops']);
      expect(await counts(b)).toEqual({ monitors: 0, channels: 0, listedChannels: 0 });
      expect(
        (await b.t.http.get('/api/v1/events?kind=monitor_created,imported').set(bearer(b.read)).expect(200)).body.items,
      ).toEqual([]);
    });

    it('rolls everything back when the database fails halfway, and the channels list stays as it was', async () => {
      const monitors = Array.from({ length: 20 }, (_, i) =>
        httpMonitor({ name: `Big ${i}`, channels: ['New'] }, { method: 'POST', body: 'x'.repeat(60 * 1024) }),
      );
      const doc = docOf(monitors, [{ name: 'New', kind: 'email', config: { to: ['x@example.com'] } }]);
      // No room for a new page: the channel fits, the monitors with their 60 KB bodies do not.
      const [{ page_count: pages }] = (await b.t.db.query('PRAGMA page_count')) as { page_count: number }[];
      await b.t.db.query(`PRAGMA max_page_count = ${pages + 2}`);
      const res = await importInto(b, doc, false);
      await b.t.db.query('PRAGMA max_page_count = 1073741823');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('unavailable');
      expect(await counts(b)).toEqual({ monitors: 0, channels: 0, listedChannels: 0 });
      const again = await importInto(b, doc, false).expect(200);
      expect(again.body.applied).toBe(true);
      expect(await counts(b)).toEqual({ monitors: 20, channels: 1, listedChannels: 1 });
    });

    it.each<[string, unknown, string]>([
      ['a monitor that names an unknown channel', tcpMonitor({ name: 'A', channels: ['Nobody'] }), 'channels[0]'],
      ['a monitor that names a channel by id', tcpMonitor({ name: 'A', channels: [1] }), 'channels[0]'],
      ['channels that are not a list', tcpMonitor({ name: 'A', channels: 'Ops' }), 'channels'],
      [
        'a token hash on a tcp monitor',
        tcpMonitor({ name: 'A', heartbeat_token_sha256: 'a'.repeat(64) }),
        'heartbeat_token_sha256',
      ],
      [
        'a token hash that is not one',
        heartbeatMonitor({ name: 'A', heartbeat_token_sha256: 'xyz' }),
        'heartbeat_token_sha256',
      ],
      [
        'a masked token for a new monitor',
        heartbeatMonitor({ name: 'A', heartbeat_token_sha256: MASK }),
        'heartbeat_token_sha256',
      ],
      ['an unknown field', tcpMonitor({ name: 'A', colour: 'red' }), 'colour'],
      ['no name and no slug', { kind: 'tcp', tcp: { host: 'x', port: 1 } }, 'slug'],
    ])('reports %s in errors', async (_what, monitor, field) => {
      const res = await importInto(b, docOf([monitor]), false).expect(200);
      expect(res.body.applied).toBe(false);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ index: 0, fields: expect.arrayContaining([expect.objectContaining({ field })]) }),
      ]);
      expect(await counts(b)).toMatchObject({ monitors: 0 });
    });

    it('reports a slug or a channel name that appears twice', async () => {
      const res = await importInto(
        b,
        docOf(
          [tcpMonitor({ name: 'A' }), tcpMonitor({ name: 'B', slug: 'a' })],
          [
            { name: 'X', kind: 'email', config: { to: ['a@b.c'] } },
            { name: 'X', kind: 'email', config: { to: ['d@e.f'] } },
          ],
        ),
      ).expect(200);
      expect(res.body.errors).toEqual([
        { slug: 'a', index: 1, fields: [{ field: 'slug', message: expect.stringContaining('more than once') }] },
      ]);
      expect(res.body.channels.errors).toEqual([
        { name: 'X', index: 1, fields: [{ field: 'name', message: expect.stringContaining('more than once') }] },
      ]);
    });

    it('refuses to change the kind of a stored channel', async () => {
      await b.t.http
        .post('/api/v1/channels')
        .set(bearer(b.admin))
        .send({ kind: 'chat', name: 'Team', config: { url: 'http://127.0.0.1:9/x' } })
        .expect(201);
      const res = await importInto(b, docOf([], [{ name: 'Team', kind: 'email', config: { to: ['a@b.c'] } }])).expect(
        200,
      );
      expect(res.body.channels.errors).toEqual([
        { name: 'Team', index: 0, fields: [{ field: 'kind', message: expect.stringContaining('keeps its kind') }] },
      ]);
    });

    it('answers the monitors at the top level exactly as POST /monitors/bulk does (the spec: "like bulk")', async () => {
      await b.t.http
        .post('/api/v1/monitors')
        .set(bearer(b.write))
        .send(tcpMonitor({ name: 'Same' }))
        .expect(201);
      await b.t.http
        .post('/api/v1/monitors')
        .set(bearer(b.write))
        .send(tcpMonitor({ name: 'Old', interval_s: 60 }))
        .expect(201);
      const monitors = [
        tcpMonitor({ name: 'Same' }),
        tcpMonitor({ name: 'Old', interval_s: 300 }),
        tcpMonitor({ name: 'Fresh' }),
        tcpMonitor({ name: 'Bad', interval_s: 1 }),
      ];
      const bulk = (
        await b.t.http.post('/api/v1/monitors/bulk').set(bearer(b.write)).send({ monitors, dry_run: true }).expect(200)
      ).body;
      const imported = (await importInto(b, docOf(monitors)).expect(200)).body;
      expect(bulk).toMatchObject({
        created: ['fresh'],
        updated: ['old'],
        unchanged: ['same'],
        errors: [expect.objectContaining({ slug: 'bad', index: 3 })],
      });
      expect(imported).toEqual({
        dry_run: true,
        applied: false,
        ...bulk,
        channels: { created: [], updated: [], unchanged: [], errors: [] },
        status_page: { changed: false, errors: [] },
        maintenance: { created: [], updated: [], unchanged: [], errors: [] },
      });
    });

    it('names channels stored here, and matches monitors by slug without deleting the others', async () => {
      await b.t.http
        .post('/api/v1/channels')
        .set(bearer(b.admin))
        .send({ kind: 'email', name: 'Here', config: { to: ['a@b.c'] } })
        .expect(201);
      await b.t.http
        .post('/api/v1/monitors')
        .set(bearer(b.write))
        .send(tcpMonitor({ name: 'Stays' }))
        .expect(201);
      const res = await importInto(b, docOf([tcpMonitor({ name: 'New', channels: ['Here'] })]), false).expect(200);
      expect(res.body).toMatchObject({ applied: true, created: ['new'] });
      const here = (await b.t.http.get('/api/v1/channels').set(bearer(b.read)).expect(200)).body.items[0].id;
      expect((await b.t.http.get('/api/v1/monitors/slug:new').set(bearer(b.read)).expect(200)).body.channels).toEqual([
        here,
      ]);
      await b.t.http.get('/api/v1/monitors/slug:stays').set(bearer(b.read)).expect(200);
    });
  });

  describe('bad documents: 422 naming the problem, nothing looked at further', () => {
    const good = { service_export: 1, monitors: [], channels: [], status_page: {} };
    it.each<[string, Record<string, unknown>, string]>([
      ['the wrong service_export', { ...good, service_export: 2 }, 'service_export'],
      ['no service_export', { monitors: [], channels: [], status_page: {} }, 'service_export'],
      ['no monitors section', { service_export: 1, channels: [], status_page: {} }, 'monitors'],
      ['no channels section', { service_export: 1, monitors: [], status_page: {} }, 'channels'],
      ['no status_page section', { service_export: 1, monitors: [], channels: [] }, 'status_page'],
      ['monitors that are not a list', { ...good, monitors: {} }, 'monitors'],
      ['an unknown key', { ...good, settings: {} }, 'settings'],
      ['a dry_run that is not a boolean', { ...good, dry_run: 'no' }, 'dry_run'],
      ['an exported_at that is not a time', { ...good, exported_at: 'yesterday' }, 'exported_at'],
      ['a status page look key out of range', { ...good, status_page: { layout: 'sideways' } }, 'layout'],
      ['show_locations that is not a boolean', { ...good, status_page: { show_locations: 'yes' } }, 'show_locations'],
    ])('%s', async (_what, doc, field) => {
      const res = await importInto(b, doc);
      if (field === 'layout' || field === 'show_locations') {
        // The status page section is checked per key like the items: reported in the answer.
        expect(res.status).toBe(200);
        expect(res.body.status_page.errors).toEqual([expect.objectContaining({ field })]);
        return;
      }
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
    });

    it('carries the status page settings across: applied in the import, unchanged keys kept', async () => {
      const doc = {
        ...good,
        status_page: { title: 'Home lab', layout: 'ledger', accent: '#0b7285', show_locations: true },
      };
      const dry = await importInto(b, doc);
      expect(dry.body.status_page).toEqual({ changed: true, errors: [] });
      expect((await b.t.http.get('/api/v1/status-page').set(bearer(b.admin)).expect(200)).body.title).toBe('Status');
      const res = await importInto(b, doc, false);
      expect(res.body).toMatchObject({ applied: true, status_page: { changed: true, errors: [] } });
      const page = (await b.t.http.get('/api/v1/status-page').set(bearer(b.admin)).expect(200)).body;
      expect(page).toMatchObject({
        title: 'Home lab',
        layout: 'ledger',
        accent: '#0b7285',
        show_locations: true,
        theme: 'auto',
      });
      expect((await importInto(b, doc, false)).body.status_page).toEqual({ changed: false, errors: [] });
    });

    it('refuses 10,000 monitors at once, saying how to import them in parts', async () => {
      const monitors = Array.from({ length: 10_000 }, (_, i) => ({
        name: `m${i}`,
        kind: 'tcp',
        tcp: { host: 'h', port: 1 },
      }));
      const res = await importInto(b, { ...good, monitors }, false).expect(422);
      expect(res.body.error).toMatchObject({
        code: 'invalid',
        field: 'monitors',
        message: expect.stringContaining('at most 5,000 monitors per import'),
      });
      expect(await counts(b)).toMatchObject({ monitors: 0 });
    });

    it('needs admin, and a fresh sign-in for a session', async () => {
      for (const key of [b.read, b.write])
        expect((await importInto(b, good, true, bearer(key)).expect(403)).body.error.code).toBe('forbidden');
      await importInto(b, good, true, { Cookie: b.cookie, Origin: ORIGIN }).expect(200);
      b.t.clock.advance(12 * 3600_000 + 1);
      expect((await importInto(b, good, true, { Cookie: b.cookie, Origin: ORIGIN }).expect(403)).body.error.code).toBe(
        'step_up',
      );
    });
  });
});
