/**
 * Real requests and answers held against the route description: a tour through the API (monitors
 * of three kinds, checks, series, uptime, an incident, the timeline, a webhook channel and its
 * delivery, keys, errors) where every body sent is checked against the operation's request schema
 * and every answer against the schema of its status. Answer schemas allow no undocumented field,
 * so an answer that grows a field without its schema fails here.
 */
import type { Response } from 'supertest';
import { ORIGIN, bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { heartbeatMonitor, httpMonitor, tcpMonitor } from '../support/monitors';
import { Receiver, startReceiver } from '../../harness/servers/receivers';
import { resolveRef, Schema, validate } from './json-schema';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op = {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Schema>;
};

/** The operations this tour validates; the last test checks each was reached. */
const TOURED = [
  'health',
  'authState',
  'setupInfo',
  'listMonitors',
  'createMonitor',
  'getMonitor',
  'updateMonitor',
  'deleteMonitor',
  'putMonitorBySlug',
  'pauseMonitor',
  'resumeMonitor',
  'muteMonitor',
  'unmuteMonitor',
  'checkMonitorNow',
  'testMonitor',
  'bulkMonitors',
  'newHeartbeatToken',
  'listMonitorChecks',
  'listChecks',
  'getMonitorSeries',
  'getMonitorUptime',
  'getMonitorStats',
  'getSummary',
  'listIncidents',
  'getIncident',
  'updateIncident',
  'listEvents',
  'listChannels',
  'getChannel',
  'createChannel',
  'updateChannel',
  'deleteChannel',
  'testChannel',
  'listDeliveries',
  'listKeys',
  'createKey',
  'revokeKey',
  // The second tour: settings, export and import, diagnostics, the status page, the owner's own routes.
  'getSettings',
  'updateSettings',
  'exportSetup',
  'importSetup',
  'getDiagnostics',
  'getStatusPage',
  'updateStatusPage',
  'previewStatusPage',
  'getPublicStatus',
  'getOwner',
  'listSessions',
  'listPasskeys',
  'listBlockedIps',
  // The third tour: maintenance windows (docs/maintenance.md).
  'listMaintenance',
  'createMaintenance',
  'getMaintenance',
  'updateMaintenance',
  'startMaintenance',
  'stopMaintenance',
  'deleteMaintenance',
];

describe('answers match the route description', () => {
  let h: EngineHarness;
  let receiver: Receiver;
  let doc: Schema & { paths: Record<string, Record<string, Op>> };
  let admin: string;
  const reached = new Set<string>();
  const problems: string[] = [];

  beforeAll(async () => {
    h = await startEngineHarness();
    receiver = await startReceiver();
    admin = await createKey(h.t, h.cookie, 'admin');
    doc = (await h.t.http.get('/api/openapi.json').expect(200)).body;
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  function operation(method: Method, template: string): Op {
    const op = doc.paths[template]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${template} is not in the document`);
    return op;
  }

  /** Sends a request, checks the body against the request schema and the answer against its status's schema. */
  async function call(
    method: Method,
    template: string,
    params: Record<string, string | number> = {},
    opts: { body?: unknown; auth?: Record<string, string>; query?: string; invalid?: true } = {},
  ): Promise<Response> {
    const op = operation(method, template);
    const url =
      template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(params[k]))) +
      (opts.query ? `?${opts.query}` : '');
    const where = `${method.toUpperCase()} ${url}`;
    if (opts.body !== undefined && !opts.invalid) {
      const schema = op.requestBody?.content['application/json']?.schema;
      if (!schema) problems.push(`${where}: sends a body the document does not describe`);
      else for (const e of validate(schema, opts.body, doc, 'request')) problems.push(`${where} request ${e}`);
    }
    let req = h.t.http[method](url).set(opts.auth ?? bearer(admin));
    if (opts.body !== undefined) req = req.send(opts.body as object);
    // A cookie request that changes something is JSON even without a body (the CSRF rule).
    else if (opts.auth?.Cookie && method !== 'get') req = req.set('Content-Type', 'application/json');
    const res = await req;
    let answer = op.responses[String(res.status)] ?? op.responses.default;
    if (typeof answer?.$ref === 'string') answer = resolveRef(doc, answer.$ref);
    if (!answer) problems.push(`${where}: status ${res.status} is not documented`);
    const schema = (answer?.content as Record<string, { schema: Schema }> | undefined)?.['application/json']?.schema;
    if (schema)
      for (const e of validate(schema, res.body, doc, 'response')) problems.push(`${where} ${res.status} ${e}`);
    else if (res.headers['content-type']?.startsWith('application/json'))
      problems.push(`${where}: answers JSON the document does not describe`);
    reached.add(op.operationId);
    return res;
  }

  const expectStatus = (res: Response, status: number) =>
    expect({ status: res.status, body: res.body }).toEqual({ status, body: res.body });

  it('holds every answer of a tour through the API against its schema', async () => {
    const ahead = async (ms: number) => h.advance(ms);
    expectStatus(await call('get', '/api/health', {}, { auth: {} }), 200);
    expectStatus(await call('get', '/api/v1/auth/state', {}, { auth: {} }), 200);
    expectStatus(await call('get', '/api/v1/auth/setup/{token}', { token: 'not-a-token' }, { auth: {} }), 200);

    // Monitors of three kinds; the heartbeat's answer carries its URL once.
    const web = (
      await call(
        'post',
        '/api/v1/monitors',
        {},
        { body: httpMonitor({ confirm_after: 2, tags: ['prod'], group: 'Home' }, { url: h.target.url }) },
      )
    ).body;
    expect(web.id).toEqual(expect.any(Number));
    const beat = (await call('post', '/api/v1/monitors', {}, { body: heartbeatMonitor() })).body;
    expect(beat.heartbeat_url).toEqual(expect.stringContaining('/hb/'));
    expectStatus(await call('post', '/api/v1/monitors', {}, { body: tcpMonitor({ paused: true }) }), 201);
    await ahead(0);
    await ahead(60_000);

    expectStatus(await call('get', '/api/v1/monitors'), 200);
    expectStatus(await call('get', '/api/v1/monitors', {}, { query: 'status=up&limit=1' }), 200);
    expectStatus(await call('get', '/api/v1/monitors/{id}', { id: web.id }), 200);
    expectStatus(await call('get', '/api/v1/monitors/{id}', { id: `slug:${web.slug}` }), 200);
    expectStatus(
      await call(
        'patch',
        '/api/v1/monitors/{id}',
        { id: web.id },
        { body: { description: 'The website', http: { expect_status: '200-299' } } },
      ),
      200,
    );
    expectStatus(
      await call(
        'put',
        '/api/v1/monitors/by-slug/{slug}',
        { slug: 'router' },
        { body: tcpMonitor({ name: 'Router', tcp: { host: '127.0.0.1', port: 1 } }) },
      ),
      201,
    );
    expectStatus(
      await call(
        'put',
        '/api/v1/monitors/by-slug/{slug}',
        { slug: 'router' },
        { body: tcpMonitor({ name: 'Router', tcp: { host: '127.0.0.1', port: 2 } }) },
      ),
      200,
    );
    expectStatus(await call('post', '/api/v1/monitors/{id}/mute', { id: web.id }, { body: { minutes: 30 } }), 200);
    expectStatus(await call('post', '/api/v1/monitors/{id}/unmute', { id: web.id }, { body: {} }), 200);
    expectStatus(await call('post', '/api/v1/monitors/{id}/pause', { id: beat.id }, { body: {} }), 200);
    expectStatus(await call('post', '/api/v1/monitors/{id}/resume', { id: beat.id }), 200);
    expectStatus(await call('post', '/api/v1/monitors/{id}/heartbeat-token', { id: beat.id }, { body: {} }), 200);
    expectStatus(await call('post', '/api/v1/monitors/{id}/check', { id: web.id }, { body: {} }), 200);
    expectStatus(
      await call('post', '/api/v1/monitors/test', {}, { body: httpMonitor({}, { url: h.target.url, method: 'HEAD' }) }),
      200,
    );
    expectStatus(
      await call(
        'post',
        '/api/v1/monitors/test',
        {},
        { body: tcpMonitor({ tcp: { host: '127.0.0.1', port: 1 }, timeout_ms: 1000 }) },
      ),
      200,
    );
    expectStatus(
      await call(
        'post',
        '/api/v1/monitors/bulk',
        {},
        {
          body: {
            monitors: [
              httpMonitor({ name: 'Bulk one' }, { url: h.target.url }),
              { name: 'Broken', kind: 'http', http: { url: 'ftp://x' } },
            ],
            dry_run: true,
          },
        },
      ),
      200,
    );

    // Down, an incident, recovery.
    h.target.status = 500;
    await ahead(60_000);
    await ahead(10_000);
    const down = (await call('get', '/api/v1/monitors/{id}', { id: web.id })).body;
    expect(down.state.status).toBe('down');
    h.target.status = 200;
    await ahead(60_000);
    await h.writer.flush();

    expectStatus(await call('get', '/api/v1/monitors/{id}/checks', { id: web.id }, { query: 'limit=2' }), 200);
    expectStatus(await call('get', '/api/v1/checks'), 200);
    expectStatus(await call('get', '/api/v1/checks', {}, { query: 'outcome=down' }), 200);
    for (const range of ['1h', '24h', '7d', '30d', '90d'])
      expectStatus(await call('get', '/api/v1/monitors/{id}/series', { id: web.id }, { query: `range=${range}` }), 200);
    expectStatus(await call('get', '/api/v1/monitors/{id}/uptime', { id: web.id }, { query: 'days=3' }), 200);
    expectStatus(await call('get', '/api/v1/monitors/{id}/stats', { id: web.id }), 200);
    expectStatus(await call('get', '/api/v1/monitors/{id}/stats', { id: web.id }, { query: 'location=nowhere' }), 422);
    expectStatus(await call('get', '/api/v1/summary'), 200);

    const incidents = (await call('get', '/api/v1/incidents')).body;
    expect(incidents.items.length).toBeGreaterThan(0);
    const incidentId = incidents.items[0].id as number;
    expectStatus(await call('get', '/api/v1/incidents/{id}', { id: incidentId }), 200);
    expectStatus(
      await call(
        'patch',
        '/api/v1/incidents/{id}',
        { id: incidentId },
        { body: { acknowledged: true, note: 'router rebooted' } },
      ),
      200,
    );
    expectStatus(await call('get', '/api/v1/events'), 200);
    expectStatus(await call('get', '/api/v1/events', {}, { query: 'kind=down,up' }), 200);

    // A webhook channel, its test message and the delivery log.
    const channel = (
      await call(
        'post',
        '/api/v1/channels',
        {},
        {
          body: {
            kind: 'webhook',
            name: 'Ops hook',
            config: {
              url: `${receiver.origin}/hook`,
              secret: 'a-signing-secret-1234',
              headers: [{ name: 'X-Team', value: 'ops' }],
            },
          },
        },
      )
    ).body;
    expect(channel.config.secret).toBe('********');
    expectStatus(
      await call(
        'post',
        '/api/v1/channels',
        {},
        { body: { kind: 'email', name: 'Mail', events: ['down', 'up'], config: { to: ['ops@example.com'] } } },
      ),
      201,
    );
    expectStatus(
      await call(
        'post',
        '/api/v1/channels',
        {},
        { body: { kind: 'chat', name: 'Chat', enabled: false, config: { url: `${receiver.origin}/chat` } } },
      ),
      201,
    );
    expectStatus(await call('get', '/api/v1/channels'), 200);
    expectStatus(await call('get', '/api/v1/channels/{id}', { id: channel.id }), 200);
    expectStatus(
      await call(
        'patch',
        '/api/v1/channels/{id}',
        { id: channel.id },
        { body: { name: 'Ops webhook', events: ['down'] } },
      ),
      200,
    );
    expectStatus(await call('post', '/api/v1/channels/{id}/test', { id: channel.id }), 200);
    expectStatus(await call('get', '/api/v1/deliveries'), 200);
    expectStatus(await call('delete', '/api/v1/channels/{id}', { id: channel.id }), 200);

    // Keys: created and revoked by the owner's session.
    const session = { Cookie: h.cookie, Origin: ORIGIN };
    const key = (
      await call('post', '/api/v1/keys', {}, { auth: session, body: { name: 'ci', scope: 'read', expires_at: null } })
    ).body;
    expect(key.key).toMatch(/^fs_[0-9a-f]{48}$/);
    expectStatus(await call('get', '/api/v1/keys'), 200);
    expectStatus(await call('delete', '/api/v1/keys/{id}', { id: key.id }, { auth: session }), 200);

    // Errors answer in the shared envelope.
    expectStatus(await call('get', '/api/v1/monitors/{id}', { id: 999_999 }), 404);
    expectStatus(await call('post', '/api/v1/monitors', {}, { body: { name: '', kind: 'http' }, invalid: true }), 422);
    expectStatus(await call('get', '/api/v1/monitors', {}, { auth: {} }), 401);
    expectStatus(
      await call(
        'post',
        '/api/v1/channels',
        {},
        { auth: bearer(h.write), body: { kind: 'email', name: 'x', config: { to: ['a@b.c'] } } },
      ),
      403,
    );
    expectStatus(await call('delete', '/api/v1/monitors/{id}', { id: web.id }), 200);

    expect(problems).toEqual([]);
  });

  it('holds the answers of settings, export and import, diagnostics, the status page and the owner routes', async () => {
    const session = { Cookie: h.cookie, Origin: ORIGIN };
    const settings = (await call('get', '/api/v1/settings')).body;
    expectStatus(
      await call(
        'patch',
        '/api/v1/settings',
        {},
        { body: { defaults: { interval_s: 120 }, retention: { checks_days: 14 } } },
      ),
      200,
    );
    // A GET answer sent back as it is is a valid PATCH body.
    expectStatus(await call('patch', '/api/v1/settings', {}, { body: settings, auth: session }), 200);
    expectStatus(await call('patch', '/api/v1/settings', {}, { body: { tz_offset_min: 5000 }, invalid: true }), 422);

    const web = (
      await call('post', '/api/v1/monitors', {}, { body: httpMonitor({ name: 'Export me' }, { url: h.target.url }) })
    ).body;
    const exported = (await call('get', '/api/v1/export')).body;
    expect(exported.monitors.length).toBeGreaterThan(0);
    expectStatus(await call('get', '/api/v1/export', {}, { query: 'secrets=1', auth: session }), 200);
    expectStatus(await call('post', '/api/v1/import', {}, { body: { ...exported, dry_run: true } }), 200);
    expectStatus(await call('post', '/api/v1/import', {}, { body: { ...exported, dry_run: false } }), 200);

    await h.advance(60_000);
    const diagnostics = (await call('get', '/api/v1/diagnostics')).body;
    expect(diagnostics.monitors.total).toBeGreaterThan(0);

    const page = (await call('get', '/api/v1/status-page')).body;
    // The GET answer less its read-only keys is a valid PUT body.
    const { url: _url, logo: _logo, server_ips: _ips, domains: _domains, ...writable } = page;
    expectStatus(
      await call(
        'put',
        '/api/v1/status-page',
        {},
        { body: { ...writable, title: 'Home lab', monitors: [{ id: web.id, public: true, public_group: 'Web' }] } },
      ),
      200,
    );
    expectStatus(
      await call('post', '/api/v1/status-page/preview', {}, { body: { settings: { title: 'Preview' }, range: '24h' } }),
      200,
    );
    expectStatus(await call('get', '/api/public/status', {}, { auth: {} }), 200);

    expectStatus(await call('get', '/api/v1/me', {}, { auth: session }), 200);
    expectStatus(await call('get', '/api/v1/me/sessions', {}, { auth: session }), 200);
    expectStatus(await call('get', '/api/v1/me/passkeys', {}, { auth: session }), 200);
    expectStatus(await call('get', '/api/v1/me/blocked-ips'), 200);
    expect(problems).toEqual([]);
  });

  it('holds the answers of the maintenance routes', async () => {
    const weekly = { kind: 'weekly', days: ['sat', 'sun'], start_time: '02:30', duration_min: 90, tz: 'Europe/Berlin' };
    const created = await call('post', '/api/v1/maintenance', {}, { body: { title: 'Firmware', schedule: weekly } });
    expectStatus(created, 201);
    const id = created.body.id as number;
    const once = { kind: 'once', start: '2026-11-02T00:00:00.000Z', end: '2026-11-02T02:00:00.000Z' };
    expectStatus(
      await call('patch', '/api/v1/maintenance/{id}', { id }, { body: { schedule: once, monitors: [] } }),
      200,
    );
    expectStatus(
      await call('post', '/api/v1/maintenance/{id}/start', { id }, { body: { end: '2026-11-30T00:00:00.000Z' } }),
      200,
    );
    expectStatus(await call('get', '/api/v1/maintenance', {}, { query: 'state=active' }), 200);
    expectStatus(await call('post', '/api/v1/maintenance/{id}/stop', { id }), 200);
    expectStatus(await call('get', '/api/v1/maintenance/{id}', { id }), 200);
    expectStatus(
      await call('post', '/api/v1/maintenance', {}, { body: { title: '', schedule: weekly }, invalid: true }),
      422,
    );
    expectStatus(await call('delete', '/api/v1/maintenance/{id}', { id }), 204);
    expectStatus(await call('get', '/api/v1/maintenance/{id}', { id }), 404);
    expect(problems).toEqual([]);
  });

  it('reached every operation the tour names', () => {
    expect(TOURED.filter((id) => !reached.has(id))).toEqual([]);
  });

  it('refuses in the schema what the service refuses: unknown fields, out-of-range values', async () => {
    const body = (m: Method, p: string) => operation(m, p).requestBody!.content['application/json'].schema;
    const cases: [Method, string, unknown][] = [
      ['post', '/api/v1/monitors', httpMonitor({ colour: 'red' })],
      ['post', '/api/v1/monitors', httpMonitor({ interval_s: 5 })],
      ['post', '/api/v1/monitors', httpMonitor({}, { method: 'FETCH' })],
      ['post', '/api/v1/monitors/{id}/mute', { minutes: 0 }],
      ['patch', '/api/v1/incidents/{id}', { acknowledged: 'yes' }],
      ['post', '/api/v1/channels', { kind: 'sms', name: 'x', config: {} }],
      ['post', '/api/v1/keys', { name: 'x', scope: 'root' }],
    ];
    for (const [m, p, b] of cases) {
      expect([p, validate(body(m, p), b, doc, 'request').length > 0]).toEqual([p, true]);
      const url = p.replace('{id}', '1');
      const res = await h.t.http[m](url)
        .set(p.endsWith('/keys') ? { Cookie: h.cookie, Origin: ORIGIN } : bearer(admin))
        .send(b as object);
      expect([p, res.status]).toEqual([p, expect.any(Number)]);
      expect([p, res.status === 422 || res.status === 404]).toEqual([p, true]);
    }
  });
});
