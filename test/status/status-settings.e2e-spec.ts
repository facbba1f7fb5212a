/**
 * GET and PUT /status-page: the settings with their defaults, every key checked before anything
 * is saved, the monitors' public settings changed through the monitors' own update path in the
 * same transaction, who may change `hosts`, the domains answer, and the preview.
 */
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { httpMonitor, tcpMonitor } from '../support/monitors';
import { DomainsService } from '../../src/hosts/domains.service';
import { DomainsRepository } from '../../src/hosts/domains.repository';

let t: TestApp;
let cookie: string;
const keys: Record<'read' | 'write' | 'admin', string> = { read: '', write: '', admin: '' };
const as = (scope: keyof typeof keys) => bearer(keys[scope]);
const session = () => ({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' });

beforeAll(async () => {
  t = await startApp({ FARSIGHT_SERVER_IPS: '203.0.113.7, 2001:db8::7' });
  cookie = (await createOwner(t)).cookie;
  for (const scope of ['read', 'write', 'admin'] as const) keys[scope] = await createKey(t, cookie, scope);
});
afterAll(async () => t.close());

const get = async () => (await t.http.get('/api/v1/status-page').set(as('read')).expect(200)).body;

describe('GET /status-page', () => {
  it('answers every setting with its default, plus url, logo, domains and server_ips', async () => {
    const body = await get();
    expect(body).toEqual({
      enabled: true,
      title: 'Status',
      app_name: '',
      description: '',
      hosts: [],
      group_order: [],
      layout: 'horizon',
      theme: 'auto',
      accent: '#564be6',
      palette: 'standard',
      font: 'geist',
      bar_style: 'worst',
      bar_shape: 'rounded',
      ranges: ['24h', '7d', '30d', '90d', '12mo'],
      default_range: '90d',
      show_response: true,
      show_uptime: true,
      show_summary: true,
      show_locations: false,
      fold_groups: true,
      auto_refresh: false,
      subscribers: false,
      website: null,
      links: [],
      monitors: [],
      url: 'http://farsight.test/status',
      logo: null,
      domains: [],
      server_ips: ['203.0.113.7', '2001:db8::7'],
    });
  });

  it('needs a sign-in', async () => {
    await t.http.get('/api/v1/status-page').expect(401);
  });
});

describe('PUT /status-page', () => {
  const look = {
    title: 'Acme status',
    app_name: 'Acme',
    description: 'Everything Acme runs.\nSecond line.',
    group_order: ['Edge', 'Core'],
    layout: 'ledger',
    theme: 'dark',
    accent: '#0EA5E9',
    palette: 'colorblind',
    font: 'plex',
    bar_style: 'share',
    bar_shape: 'slim',
    ranges: ['90d', '24h', '12mo'],
    default_range: '12mo',
    show_response: false,
    show_uptime: false,
    show_summary: false,
    show_locations: true,
    fold_groups: false,
    auto_refresh: true,
    website: { label: 'Acme', url: 'https://acme.example' },
    links: [
      { label: 'Support', url: 'mailto:help@acme.example' },
      { label: 'Docs', url: 'https://docs.acme.example' },
    ],
  };

  it('saves every look key with a write key, and answers the whole settings', async () => {
    const res = await t.http.put('/api/v1/status-page').set(as('write')).send(look).expect(200);
    expect(res.body).toMatchObject({ ...look, accent: '#0ea5e9', ranges: ['24h', '90d', '12mo'] });
    expect(await get()).toMatchObject({ ...look, accent: '#0ea5e9', ranges: ['24h', '90d', '12mo'] });
    const events = await t.http.get('/api/v1/events?kind=status_page_updated').set(as('read')).expect(200);
    expect(events.body.items[0]).toMatchObject({ kind: 'status_page_updated', actor: `key:write key` });
    expect(events.body.items[0].text).toContain('layout');
  });

  it.each([
    ['enabled', 'yes', 'yes'],
    ['title', '', ''],
    ['title', '101 characters', 'x'.repeat(101)],
    ['app_name', '31 characters', 'x'.repeat(31)],
    ['description', '501 characters', 'x'.repeat(501)],
    ['hosts', 'status.example.com', 'status.example.com'],
    ['group_order', 'Core', 'Core'],
    ['layout', 'grid', 'grid'],
    ['theme', 'sepia', 'sepia'],
    ['accent', 'purple', 'purple'],
    ['palette', 'mono', 'mono'],
    ['font', 'comic-sans', 'comic-sans'],
    ['bar_style', 'best', 'best'],
    ['bar_shape', 'round', 'round'],
    ['ranges', '[]', []],
    ['default_range', '1y', '1y'],
    ['show_response', 'no', 'no'],
    ['show_uptime', '0', 0],
    ['show_summary', 'null', null],
    ['show_locations', '"yes"', 'yes'],
    ['fold_groups', 'true', 'true'],
    ['auto_refresh', '1', 1],
    ['website', 'https://acme.example', 'https://acme.example'],
    ['links', '{}', {}],
    ['monitors', '{}', {}],
    ['colour', '#fff', '#fff'],
  ])('refuses %s = %s with 422 on that key, and stores nothing', async (key, _label, value) => {
    const before = await get();
    const res = await t.http
      .put('/api/v1/status-page')
      .set(as('admin'))
      .send({ title: 'Changed', [key]: value })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: key });
    expect(await get()).toEqual(before);
  });

  it('names nested fields by their paths', async () => {
    const res = await t.http
      .put('/api/v1/status-page')
      .set(as('admin'))
      .send({
        links: [
          { label: 'ok', url: 'https://ok.example' },
          { label: 'bad', url: 'javascript:alert(1)' },
        ],
        hosts: ['ok.example', '10.0.0.1'],
      })
      .expect(422);
    expect(res.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(['hosts[1]', 'links[1].url']);
  });

  it('refuses a default range that is not among the ranges', async () => {
    const res = await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({ ranges: ['7d'] })
      .expect(422);
    expect(res.body.error.field).toBe('default_range');
  });

  it("changes monitors' public settings at once, through the monitors' update path", async () => {
    const a = (
      await t.http
        .post('/api/v1/monitors')
        .set(as('write'))
        .send(httpMonitor({ name: 'Web' }))
        .expect(201)
    ).body;
    const b = (
      await t.http
        .post('/api/v1/monitors')
        .set(as('write'))
        .send(tcpMonitor({ name: 'DB', group: 'Core' }))
        .expect(201)
    ).body;
    const res = await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({
        monitors: [
          { id: a.id, public: true, public_name: 'Website', sort: 2 },
          { id: b.id, public: true, public_group: 'Backend' },
        ],
      })
      .expect(200);
    expect(res.body.monitors).toEqual([
      { id: a.id, public: true, public_name: 'Website', public_group: null, sort: 2 },
      { id: b.id, public: true, public_name: null, public_group: 'Backend', sort: 0 },
    ]);
    const seen = (await t.http.get(`/api/v1/monitors/${a.id}`).set(as('read')).expect(200)).body;
    expect(seen).toMatchObject({ public: true, public_name: 'Website', sort: 2 });
    const lines = await t.http
      .get(`/api/v1/events?kind=monitor_updated&monitor_id=${a.id}`)
      .set(as('read'))
      .expect(200);
    expect(lines.body.items[0].data.fields.sort()).toEqual(['public', 'public_name', 'sort']);
    // Only the fields given change.
    await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({ monitors: [{ id: a.id, sort: 5 }] })
      .expect(200);
    expect((await t.http.get(`/api/v1/monitors/${a.id}`).set(as('read')).expect(200)).body).toMatchObject({
      public: true,
      public_name: 'Website',
      sort: 5,
    });
  });

  it('changes nothing at all when one monitor of the list does not exist', async () => {
    const before = await get();
    const res = await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({
        title: 'Never saved',
        monitors: [
          { id: before.monitors[0].id, public: false },
          { id: 999_999, public: true },
        ],
      })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'monitors[1].id' });
    expect(await get()).toEqual(before);
  });

  it('refuses bad monitor items on their paths', async () => {
    const res = await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({ monitors: [{ id: 1, public_name: 'x'.repeat(101), colour: 1 }] })
      .expect(422);
    expect(res.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'monitors[0].colour',
      'monitors[0].public_name',
    ]);
  });
});

describe('hosts', () => {
  it('need an admin key; stored lower case, in punycode, without the final dot', async () => {
    const refused = await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({ hosts: ['status.acme.example'] })
      .expect(403);
    expect(refused.body.error.code).toBe('forbidden');
    const res = await t.http
      .put('/api/v1/status-page')
      .set(as('admin'))
      .send({ hosts: ['Status.Acme.example.', 'bücher.example'] })
      .expect(200);
    expect(res.body.hosts).toEqual(['status.acme.example', 'xn--bcher-kva.example']);
    expect(res.body.url).toBe('https://status.acme.example/');
    // Sending the same hosts back (a whole GET answer) is no change, so a write key may.
    await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({ ...(await get()), title: 'Again' })
      .expect(200);
  });

  it('answer one domain each, not_managed while the service does not serve HTTPS itself', async () => {
    const body = await get();
    expect(body.domains).toEqual([
      {
        host: 'status.acme.example',
        state: 'not_managed',
        detail: expect.stringContaining('FARSIGHT_HTTPS_LISTEN'),
        checked_at: null,
        points_at: [],
        zone: null,
        provider: null,
      },
      {
        host: 'xn--bcher-kva.example',
        state: 'not_managed',
        detail: expect.any(String),
        checked_at: null,
        points_at: [],
        zone: null,
        provider: null,
      },
    ]);
  });

  it.each([
    [['10.0.0.1']],
    [['[::1]']],
    [['https://status.example.com']],
    [['a.example', 'b.example', 'c.example', 'd.example', 'e.example', 'f.example']],
    [['a.example', 'A.example.']],
  ])('refuses %j', async (hosts) => {
    await t.http.put('/api/v1/status-page').set(as('admin')).send({ hosts }).expect(422);
  });

  it('are looked at again after a save that changes them, not after any other save', async () => {
    const domains = t.app.get(DomainsService);
    const rows = t.app.get(DomainsRepository);
    // Observed, not changed: what each save asks of the custom hosts.
    const committed = jest.spyOn(domains, 'committed');
    const read = jest.spyOn(rows, 'all');
    try {
      await t.http.put('/api/v1/status-page').set(as('admin')).send({ hosts: [] }).expect(200);
      // What the tests before asked of the hosts has run.
      await domains.settled();
      committed.mockClear();
      read.mockClear();
      const saved = await t.http
        .put('/api/v1/status-page')
        .set(as('write'))
        .send({ title: 'Only a title' })
        .expect(200);
      expect(saved.body.domains).toEqual([]);
      expect(committed).not.toHaveBeenCalled();
      // Without hosts the answer's domains need no read either.
      expect(read).not.toHaveBeenCalled();
      await t.http
        .put('/api/v1/status-page')
        .set(as('admin'))
        .send({ hosts: ['status.acme.example'] })
        .expect(200);
      expect(committed).toHaveBeenCalledTimes(1);
      await t.http.put('/api/v1/status-page').set(as('admin')).send({ hosts: [] }).expect(200);
      expect(committed).toHaveBeenCalledTimes(2);
    } finally {
      committed.mockRestore();
      read.mockRestore();
    }
  });

  it('need a fresh sign-in from a session; other keys do not', async () => {
    t.clock.advance(13 * 3600_000);
    try {
      const stale = await t.http
        .put('/api/v1/status-page')
        .set(session())
        .send({ hosts: ['other.example'] })
        .expect(403);
      expect(stale.body.error.code).toBe('step_up');
      await t.http.put('/api/v1/status-page').set(session()).send({ title: 'From the dashboard' }).expect(200);
    } finally {
      t.clock.advance(-13 * 3600_000);
    }
    await t.http.put('/api/v1/status-page').set(session()).send({ hosts: [] }).expect(200);
  });
});

describe('POST /status-page/preview', () => {
  it('draws the page from the saved settings with the draft on top, marked as a preview, and stores nothing', async () => {
    await t.http
      .put('/api/v1/status-page')
      .set(as('write'))
      .send({
        layout: 'horizon',
        title: 'Saved title',
        ranges: ['24h', '7d', '30d', '90d', '12mo'],
        default_range: '90d',
      })
      .expect(200);
    const hidden = (
      await t.http
        .post('/api/v1/monitors')
        .set(as('write'))
        .send(tcpMonitor({ name: 'Draft only' }))
        .expect(201)
    ).body;
    const before = await get();
    const statusBefore = (await t.http.get('/status').expect(200)).text;
    const res = await t.http
      .post('/api/v1/status-page/preview')
      .set(as('write'))
      .send({
        settings: { layout: 'classic', title: 'Draft title', hosts: ['ignored.example'] },
        monitors: [{ id: hidden.id, public: true, public_name: 'Shown in the draft' }],
        range: '7d',
      })
      .expect(200);
    expect(res.body.range).toBe('7d');
    const html: string = res.body.html;
    expect(html).toContain('data-layout="classic"');
    expect(html).toContain('data-preview="true"');
    expect(html).toContain('Preview: not published');
    expect(html).toContain('Draft title');
    expect(html).toContain('Shown in the draft');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('data-refresh');
    // Inert: no link leads anywhere.
    expect(html).not.toMatch(/<a [^>]*href=/);
    expect(await get()).toEqual(before);
    expect((await t.http.get('/status').expect(200)).text).toBe(statusBefore);
  });

  it('refuses a bad draft on its path and an unknown part', async () => {
    const bad = await t.http
      .post('/api/v1/status-page/preview')
      .set(as('write'))
      .send({ settings: { layout: 'grid' } })
      .expect(422);
    expect(bad.body.error.field).toBe('settings.layout');
    const unknown = await t.http.post('/api/v1/status-page/preview').set(as('write')).send({ setting: {} }).expect(422);
    expect(unknown.body.error.field).toBe('setting');
  });

  it('falls back to the default range for one that is not offered', async () => {
    const res = await t.http.post('/api/v1/status-page/preview').set(as('write')).send({ range: '5y' }).expect(200);
    expect(res.body.range).toBe('90d');
  });

  it('needs a write key', async () => {
    await t.http.post('/api/v1/status-page/preview').set(as('read')).send({}).expect(403);
    await t.http.put('/api/v1/status-page').set(as('read')).send({}).expect(403);
  });
});
