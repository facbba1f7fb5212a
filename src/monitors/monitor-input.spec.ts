import { NAME_MISSING } from '../common/validation/text-rules';
import 'reflect-metadata';
import { ApiError, FieldError } from '../common/http/api-error';
import { MASK } from '../common/secrets/secrets';
import type { MonitorDefaults } from '../settings/settings-defaults';
import type { MonitorConfig } from '../probes/monitor-config';
import { mergePatch, parseMonitorBody } from './monitor-input';
import { HttpSettings, MONITOR_KINDS, MonitorKind } from '../probes/kinds';

type Plain = Record<string, unknown>;

const DEFAULTS: MonitorDefaults = {
  interval_s: 60,
  timeout_ms: 10000,
  confirm_after: 2,
  retry_interval_s: 10,
  recover_after: 1,
  slow_after: 3,
};

/** Minimal valid bodies: only what the spec requires, per kind. */
const MINIMAL: Record<MonitorKind, Plain> = {
  http: { name: 'Web', kind: 'http', http: { url: 'https://example.com/health' } },
  tcp: { name: 'DB', kind: 'tcp', tcp: { host: 'db.lan', port: 5432 } },
  ping: { name: 'Router', kind: 'ping', ping: { host: 'router.lan' } },
  dns: { name: 'DNS', kind: 'dns', dns: { name: 'example.com' } },
  tls: { name: 'Cert', kind: 'tls', tls: { host: 'example.com' } },
  heartbeat: { name: 'Backup', kind: 'heartbeat', heartbeat: {} },
  smtp: { name: 'Mail', kind: 'smtp', smtp: { host: 'mail.lan' } },
  docker: { name: 'Web', kind: 'docker', docker: { container: 'web' } },
  redis: { name: 'Cache', kind: 'redis', redis: { url: 'redis://cache.lan' } },
  postgres: { name: 'DB', kind: 'postgres', postgres: { url: 'postgres://db.lan/shop' } },
  mysql: { name: 'Maria', kind: 'mysql', mysql: { url: 'mysql://db.lan/shop' } },
  mqtt: { name: 'Broker', kind: 'mqtt', mqtt: { url: 'mqtt://broker.lan' } },
  grpc: { name: 'API', kind: 'grpc', grpc: { target: 'api.lan:50051' } },
};

/** Every common default of the spec ("Monitor: common settings"). */
const COMMON_DEFAULTS = {
  slug: '',
  group: null,
  tags: [],
  description: null,
  runbook_url: null,
  interval_s: 60,
  timeout_ms: 10000,
  confirm_after: 2,
  retry_interval_s: 10,
  recover_after: 1,
  slow_ms: null,
  slow_after: 3,
  alert_on_slow: false,
  channels: null,
  depends_on: [],
  locations: ['local'],
  quorum: null,
  remind_every_min: 0,
  paused: false,
  muted_until: null,
  public: false,
  public_name: null,
  public_group: null,
  sort: 0,
};

/** Every kind default of the spec ("Monitor: settings per kind"), with the minimal bodies' required fields. */
const KIND_EXPECTED: Record<MonitorKind, Plain> = {
  http: {
    url: 'https://example.com/health',
    method: 'GET',
    headers: [],
    body: null,
    content_type: null,
    auth: null,
    follow_redirects: true,
    ip_version: 'auto',
    resolve_to: null,
    tls_verify: true,
    tls_warn_days: 14,
    expect_status: '200-399',
    body_contains: null,
    body_not_contains: null,
    json: [],
    expect_header: null,
    max_ms: null,
    cert_sha256: null,
  },
  tcp: { host: 'db.lan', port: 5432, send: null, expect_banner: null, ip_version: 'auto' },
  ping: { host: 'router.lan', packets: 3, max_loss_pct: null, ip_version: 'auto' },
  dns: { name: 'example.com', record: 'A', resolver: '1.1.1.1', expect: null },
  tls: { host: 'example.com', port: 443, sni: null, tls_warn_days: 14, tls_verify: true, cert_sha256: null },
  heartbeat: { grace_s: 60 },
  smtp: { host: 'mail.lan', port: 587, tls: 'starttls', tls_verify: true, tls_warn_days: 14 },
  docker: { container: 'web', endpoint: 'unix:///var/run/docker.sock', require_healthy: true },
  redis: { url: 'redis://cache.lan', password: null, tls: 'off' },
  postgres: { url: 'postgres://db.lan/shop', password: null, query: 'SELECT 1', tls: 'off' },
  mysql: { url: 'mysql://db.lan/shop', password: null, query: 'SELECT 1', tls: 'off' },
  mqtt: { url: 'mqtt://broker.lan', username: null, password: null, tls: 'off', topic: null, expect: null, json: [] },
  grpc: { target: 'api.lan:50051', service: '', tls: 'off', metadata: [] },
};

/** A body of the given kind (minimal http by default) with fields set by dotted path, e.g. `http.method`. */
function makeBody(set: Plain = {}, kind: MonitorKind = 'http'): Plain {
  const body = structuredClone(MINIMAL[kind]);
  for (const [path, value] of Object.entries(set)) {
    const [head, tail] = path.split('.');
    if (tail === undefined) body[head] = value;
    else body[head] = { ...(body[head] as Plain), [tail]: value };
  }
  return body;
}

const parse = (body: unknown, previous: MonitorConfig | null = null, defaults = DEFAULTS) =>
  parseMonitorBody(body, defaults, previous);

function configOf(body: unknown, previous: MonitorConfig | null = null): MonitorConfig {
  const r = parse(body, previous);
  if (!r.ok) throw new Error(`expected a config, got errors ${JSON.stringify(r.errors)}`);
  return r.config;
}

function errorsOf(body: unknown, previous: MonitorConfig | null = null): FieldError[] {
  const r = parse(body, previous);
  if (r.ok) throw new Error('expected field errors, got a config');
  return r.errors;
}

const fieldsOf = (body: unknown) => errorsOf(body).map((e) => e.field);

/** A value of a config by the body's dotted path (`http.method` reads settings.method). */
function readPath(c: MonitorConfig, path: string): unknown {
  const [head, tail] = path.split('.');
  return tail === undefined ? (c as unknown as Plain)[head] : (c.settings as unknown as Plain)[tail];
}

const http = (c: MonitorConfig) => c.settings as HttpSettings;

describe('parseMonitorBody', () => {
  describe('cert_sha256', () => {
    const HEX = '3fa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f';
    const STORED = HEX.toUpperCase().match(/../g)!.join(':');
    it.each<[MonitorKind, string]>([
      ['http', HEX],
      ['http', `SHA256 Fingerprint=${STORED}`],
      ['tls', HEX.match(/../g)!.join(' ')],
      ['tls', STORED.toLowerCase()],
    ])('%s monitor: stores %j in one form, upper-case hex with colons', (kind, pin) => {
      expect(readPath(configOf(makeBody({ [`${kind}.cert_sha256`]: pin }, kind)), `${kind}.cert_sha256`)).toBe(STORED);
    });
  });

  describe('defaults', () => {
    it.each(Object.keys(MINIMAL) as MonitorKind[])('gives a minimal %s body every default of the spec', (kind) => {
      const body = MINIMAL[kind];
      expect(parse(body)).toEqual({
        ok: true,
        slugGiven: false,
        dependsOn: [],
        config: { ...COMMON_DEFAULTS, name: body.name, kind, settings: KIND_EXPECTED[kind] },
      });
    });

    it('takes the timing defaults from the service settings', () => {
      const defaults = {
        interval_s: 300,
        timeout_ms: 5000,
        confirm_after: 3,
        retry_interval_s: 30,
        recover_after: 2,
        slow_after: 5,
      };
      const r = parse(MINIMAL.http, null, defaults);
      expect(r.ok && r.config).toMatchObject(defaults);
    });

    it.each<[MonitorKind, number, number]>([
      ['heartbeat', 10, 30],
      ['heartbeat', 29, 30],
      ['heartbeat', 45, 45],
      ['http', 10, 10],
    ])(
      'gives a %s monitor the default interval %i s as %i s (a heartbeat checks every 30 s at most)',
      (kind, setting, expected) => {
        const defaults = {
          interval_s: setting,
          timeout_ms: 5000,
          confirm_after: 3,
          retry_interval_s: 5,
          recover_after: 2,
          slow_after: 5,
        };
        const r = parse(MINIMAL[kind], null, defaults);
        expect(r.ok && r.config.interval_s).toBe(expected);
      },
    );

    it.each<[string, unknown]>([
      ['interval_s', 60],
      ['timeout_ms', 10000],
      ['confirm_after', 2],
      ['retry_interval_s', 10],
      ['recover_after', 1],
      ['slow_after', 3],
      ['tags', []],
      ['alert_on_slow', false],
      ['remind_every_min', 0],
      ['paused', false],
      ['public', false],
      ['sort', 0],
      ['http.method', 'GET'],
      ['http.headers', []],
      ['http.follow_redirects', true],
      ['http.ip_version', 'auto'],
      ['http.tls_verify', true],
      ['http.tls_warn_days', 14],
      ['http.expect_status', '200-399'],
      ['http.json', []],
    ])('takes the default for %s sent as null', (path, expected) => {
      expect(readPath(configOf(makeBody({ [path]: null })), path)).toEqual(expected);
    });

    it.each<[MonitorKind, string, unknown]>([
      ['ping', 'ping.packets', 3],
      ['ping', 'ping.ip_version', 'auto'],
      ['tcp', 'tcp.ip_version', 'auto'],
      ['dns', 'dns.record', 'A'],
      ['dns', 'dns.resolver', '1.1.1.1'],
      ['tls', 'tls.port', 443],
      ['tls', 'tls.tls_warn_days', 14],
      ['tls', 'tls.tls_verify', true],
      ['heartbeat', 'heartbeat.grace_s', 60],
    ])('%s monitor: takes the default for %s sent as null', (kind, path, expected) => {
      expect(readPath(configOf(makeBody({ [path]: null }, kind)), path)).toEqual(expected);
    });

    it.each<[MonitorKind, string]>([
      ['http', 'group'],
      ['http', 'description'],
      ['http', 'runbook_url'],
      ['http', 'slow_ms'],
      ['http', 'channels'],
      ['http', 'muted_until'],
      ['http', 'public_name'],
      ['http', 'public_group'],
      ['http', 'http.body'],
      ['http', 'http.content_type'],
      ['http', 'http.auth'],
      ['http', 'http.resolve_to'],
      ['http', 'http.body_contains'],
      ['http', 'http.expect_header'],
      ['http', 'http.max_ms'],
      ['tcp', 'tcp.send'],
      ['tcp', 'tcp.expect_banner'],
      ['ping', 'ping.max_loss_pct'],
      ['dns', 'dns.expect'],
      ['tls', 'tls.sni'],
      ['tls', 'tls.cert_sha256'],
      ['http', 'http.cert_sha256'],
    ])('%s monitor: keeps the nullable %s null when sent as null', (kind, path) => {
      expect(readPath(configOf(makeBody({ [path]: null }, kind)), path)).toBeNull();
    });
  });

  describe('required fields', () => {
    const without = (kind: MonitorKind, drop: string[], settings?: Plain) => {
      const body = structuredClone(MINIMAL[kind]);
      for (const f of drop) delete body[f];
      if (settings !== undefined) body[kind] = settings;
      return body;
    };

    it.each<[string, Plain, string[]]>([
      ['name', without('http', ['name']), ['name']],
      ['kind', without('heartbeat', ['kind', 'heartbeat']), ['kind']],
      ['http.url', without('http', [], {}), ['http.url']],
      ['http.url (sent as null)', without('http', [], { url: null }), ['http.url']],
      ['http.url (no http object at all)', without('http', ['http']), ['http.url']],
      ['tcp.host', without('tcp', [], { port: 22 }), ['tcp.host']],
      ['tcp.port', without('tcp', [], { host: 'db.lan' }), ['tcp.port']],
      ['tcp.host and tcp.port', without('tcp', [], {}), ['tcp.host', 'tcp.port']],
      ['ping.host', without('ping', [], {}), ['ping.host']],
      ['dns.name', without('dns', [], {}), ['dns.name']],
      ['tls.host', without('tls', [], {}), ['tls.host']],
      ['name and http.url', without('http', ['name'], {}), ['name', 'http.url']],
    ])('reports a missing %s as required, once', (_what, body, fields) => {
      expect(errorsOf(body)).toEqual(fields.map((field) => ({ field, message: 'required' })));
    });
  });

  describe('every problem at once', () => {
    it.each<[string, Plain, string[]]>([
      ['a name sent as null and a bad URL', makeBody({ name: null, 'http.url': 'not a url' }), ['name', 'http.url']],
      ['a blank name and a bad URL', makeBody({ name: '  ', 'http.url': 'nope' }), ['name', 'http.url']],
      [
        'a missing name and a bad tcp host',
        { kind: 'tcp', tcp: { host: 'bad host!', port: 22 } },
        ['name', 'tcp.host'],
      ],
      [
        'a bad interval type and a bad header name',
        makeBody({ timeout_ms: 'x', 'http.headers': [{ name: 'a b', value: 'v' }] }),
        ['timeout_ms', 'http.headers[0].name'],
      ],
      [
        'a URL of the wrong type (one error for it, not two)',
        makeBody({ name: null, 'http.url': 5 }),
        ['name', 'http.url'],
      ],
      [
        'headers that are not a list (the rules say nothing more)',
        makeBody({ name: null, 'http.headers': 'x' }),
        ['name', 'http.headers'],
      ],
    ])('names %s together', (_what, body, fields) => {
      expect(fieldsOf(body)).toEqual(fields);
    });

    it('says what a missing name needs in words a person would use', () => {
      expect(errorsOf(makeBody({ name: null }))).toEqual([{ field: 'name', message: NAME_MISSING }]);
      expect(NAME_MISSING).not.toContain('must be a name');
    });
  });

  describe('unknown fields', () => {
    it.each<[string, Plain]>([
      ['nope', makeBody({ nope: 1 })],
      ['http.nope', makeBody({ 'http.nope': true })],
      ['http.json[0].extra', makeBody({ 'http.json': [{ path: '$.ok', op: 'exists', extra: 1 }] })],
      ['http.headers[0].extra', makeBody({ 'http.headers': [{ name: 'Accept', value: '*/*', extra: 1 }] })],
      ['http.auth.realm', makeBody({ 'http.auth': { type: 'bearer', token: 't', realm: 'x' } })],
      ['tcp.nope', makeBody({ 'tcp.nope': 'x' }, 'tcp')],
      ['heartbeat.url', makeBody({ 'heartbeat.url': 'x' }, 'heartbeat')],
    ])('refuses %s as an unknown field', (field, body) => {
      expect(errorsOf(body)).toEqual([{ field, message: 'unknown field' }]);
    });
  });

  describe('kind and kind settings', () => {
    it.each<[string, Plain, FieldError]>([
      [
        'http settings on a tcp monitor',
        makeBody({ http: { url: 'https://x.example/' } }, 'tcp'),
        { field: 'http', message: 'settings for kind http do not belong to a tcp monitor' },
      ],
      [
        'tcp settings on an http monitor',
        makeBody({ tcp: { host: 'db.lan', port: 1 } }),
        { field: 'tcp', message: 'settings for kind tcp do not belong to a http monitor' },
      ],
      [
        'empty dns settings on a heartbeat monitor',
        makeBody({ dns: {} }, 'heartbeat'),
        { field: 'dns', message: 'settings for kind dns do not belong to a heartbeat monitor' },
      ],
    ])('refuses %s at that key', (_what, body, error) => {
      expect(errorsOf(body)).toEqual([error]);
    });

    it('refuses settings under the wrong key and still asks for the right ones', () => {
      const body = { name: 'DB', kind: 'tcp', http: { url: 'https://db.lan/' } };
      expect(fieldsOf(body)).toEqual(['http', 'tcp.host', 'tcp.port']);
    });

    it('refuses an unknown kind and names the kinds there are', () => {
      expect(errorsOf({ name: 'Mail', kind: 'imap' })).toEqual([
        { field: 'kind', message: `must be one of ${MONITOR_KINDS.join(', ')}` },
      ]);
    });

    it('calls kind settings of an unknown kind unknown fields', () => {
      expect(errorsOf({ name: 'Mail', kind: 'imap', http: { url: 'https://x.example/' } })).toEqual([
        { field: 'http', message: 'unknown field' },
        { field: 'kind', message: `must be one of ${MONITOR_KINDS.join(', ')}` },
      ]);
    });

    it.each<[string, unknown]>([
      ['null', null],
      ['a string', 'https://example.com/'],
    ])('refuses http settings that are %s', (_what, settings) => {
      expect(fieldsOf(makeBody({ http: settings }))).toEqual(['http']);
    });

    it.each((['tcp', 'ping', 'tls', 'heartbeat'] as const).map((k) => [k] as const))(
      'refuses %s settings that are an array',
      (kind) => {
        expect(fieldsOf(makeBody({ [kind]: [] }, kind))).toEqual([kind]);
      },
    );
    it('refuses http settings that are an array with a field error instead of throwing', () => {
      expect(errorsOf(makeBody({ http: [] }))).toEqual([
        { field: 'http', message: 'must be an object with the http settings' },
      ]);
    });
    it('refuses an expect_header that is an array', () => {
      expect(fieldsOf(makeBody({ 'http.expect_header': [] }))).toEqual(['http.expect_header']);
    });
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', [MINIMAL.http]],
    ['a string', 'monitor'],
    ['a number', 42],
  ])('refuses a body that is %s', (_what, body) => {
    expect(errorsOf(body)).toEqual([{ field: '', message: 'a monitor must be a JSON object' }]);
  });

  it.each<[string, unknown]>([
    ['interval_s', '60'],
    ['interval_s', 60.5],
    ['confirm_after', 1.5],
    ['paused', 'true'],
    ['public', 1],
    ['name', 123],
    ['tags', 'lab'],
    ['tags', [1]],
    ['channels', [0]],
    ['channels', 'all'],
    ['sort', '1'],
    ['http.method', 'get'],
    ['http.headers', 'Accept'],
    ['http.follow_redirects', 'yes'],
    ['http.ip_version', 'v4'],
  ])('refuses %s of the wrong type or form %j', (path, value) => {
    expect(fieldsOf(makeBody({ [path]: value }))).toEqual([path]);
  });

  describe('bounds of common fields', () => {
    const s = (n: number) => 'x'.repeat(n);
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

    it.each<[string, string, unknown, boolean]>([
      ['name', 'empty', '', false],
      ['name', '1 character', s(1), true],
      ['name', '100 characters', s(100), true],
      ['name', '101 characters', s(101), false],
      ['group', '60 characters', s(60), true],
      ['group', '61 characters', s(61), false],
      ['tags', '20 tags', tags(20), true],
      ['tags', '21 tags', tags(21), false],
      ['tags', 'one empty tag', [''], false],
      ['tags', 'one tag of 1 character', [s(1)], true],
      ['tags', 'one tag of 30 characters', [s(30)], true],
      ['tags', 'one tag of 31 characters', [s(31)], false],
      ['tags', 'a repeated tag', ['lab', 'lab'], false],
      ['description', '500 characters', s(500), true],
      ['description', '501 characters', s(501), false],
      ['public_name', '100 characters', s(100), true],
      ['public_name', '101 characters', s(101), false],
      ['public_group', '60 characters', s(60), true],
      ['public_group', '61 characters', s(61), false],
      ['confirm_after', '0', 0, false],
      ['confirm_after', '1', 1, true],
      ['confirm_after', '10', 10, true],
      ['confirm_after', '11', 11, false],
      ['recover_after', '0', 0, false],
      ['recover_after', '1', 1, true],
      ['recover_after', '10', 10, true],
      ['recover_after', '11', 11, false],
      ['slow_after', '0', 0, false],
      ['slow_after', '1', 1, true],
      ['slow_after', '20', 20, true],
      ['slow_after', '21', 21, false],
      ['slow_ms', '-1', -1, false],
      ['slow_ms', '0', 0, true],
      ['slow_ms', '1', 1, true],
      ['slow_ms', '60000', 60000, true],
      ['slow_ms', '60001', 60001, false],
      ['timeout_ms', '499', 499, false],
      ['timeout_ms', '500', 500, true],
      ['timeout_ms', '60000', 60000, true],
      ['timeout_ms', '60001', 60001, false],
      ['retry_interval_s', '4', 4, false],
      ['retry_interval_s', '5', 5, true],
      ['retry_interval_s', '60', 60, true],
      ['retry_interval_s', '61', 61, false],
      ['interval_s', '9', 9, false],
      ['interval_s', '86400', 86400, true],
      ['interval_s', '86401', 86401, false],
      ['remind_every_min', '4', 4, false],
      ['remind_every_min', '10080', 10080, true],
      ['remind_every_min', '10081', 10081, false],
      ['channels', '[]', [], true],
      ['channels', '[1, 2]', [1, 2], true],
      ['channels', 'a repeated channel', [1, 1], false],
    ])('%s of %s accepted: %s', (field, _label, value, ok) => {
      const r = parse(makeBody({ [field]: value }));
      if (ok) expect(r).toMatchObject({ ok: true });
      else expect(r.ok ? [] : r.errors.map((e) => e.field)).toEqual([field]);
    });

    it.each<[number, boolean]>([
      [29, false],
      [30, true],
      [2592000, true],
      [2592001, false],
    ])('heartbeat interval_s = %i accepted: %s', (interval_s, ok) => {
      const r = parse(makeBody({ interval_s, retry_interval_s: 5 }, 'heartbeat'));
      expect(r.ok ? [] : r.errors.map((e) => e.field)).toEqual(ok ? [] : ['interval_s']);
    });
  });

  describe('normalising', () => {
    it.each<[number | null, number | null]>([
      [0, null],
      [null, null],
      [1, 1],
      [1500, 1500],
    ])('stores slow_ms %j as %j (0 means off)', (slow_ms, stored) => {
      expect(configOf(makeBody({ slow_ms })).slow_ms).toBe(stored);
    });

    it.each<[string, number]>([
      ['2026-12-01T08:00:00.000Z', Date.UTC(2026, 11, 1, 8, 0, 0)],
      ['2026-12-01T08:00:00.250Z', Date.UTC(2026, 11, 1, 8, 0, 0, 250)],
      ['2026-12-01T08:00:00+02:00', Date.UTC(2026, 11, 1, 6, 0, 0)],
    ])('turns muted_until %s into epoch ms', (muted_until, ms) => {
      expect(configOf(makeBody({ muted_until })).muted_until).toBe(ms);
    });

    it.each<[string]>([['tomorrow'], ['2026-12-01'], ['2026-02-30T00:00:00Z']])(
      'refuses muted_until %j',
      (muted_until) => {
        expect(fieldsOf(makeBody({ muted_until }))).toEqual(['muted_until']);
      },
    );

    it.each<[string, string, string, { username: string; password: string }]>([
      [
        'user and password',
        'https://ops:s3cret@nas.local/health',
        'https://nas.local/health',
        { username: 'ops', password: 's3cret' },
      ],
      [
        'percent-encoded credentials',
        'https://ops%40lab:p%2Fw@nas.local:8443/x?y=1',
        'https://nas.local:8443/x?y=1',
        { username: 'ops@lab', password: 'p/w' },
      ],
      ['a user only', 'https://ops@nas.local/', 'https://nas.local/', { username: 'ops', password: '' }],
    ])('moves %s from the URL into basic auth', (_what, url, cleanUrl, creds) => {
      const s = http(configOf(makeBody({ 'http.url': url })));
      expect(s.url).toBe(cleanUrl);
      expect(s.auth).toEqual({ type: 'basic', ...creds });
    });

    it.each<[string, Plain]>([
      ['basic auth', { type: 'basic', username: 'a', password: 'b' }],
      ['bearer auth', { type: 'bearer', token: 't' }],
    ])('refuses credentials both in the URL and in %s, at http.url', (_what, auth) => {
      expect(errorsOf(makeBody({ 'http.url': 'https://ops:pw@nas.local/', 'http.auth': auth }))).toEqual([
        { field: 'http.url', message: 'credentials are given both in the URL and in auth; keep one' },
      ]);
    });
    it('refuses a URL username with ":" just as it refuses one in auth', () => {
      expect(parse(makeBody({ 'http.url': 'https://ops%3Aadmin:pw@nas.local/' })).ok).toBe(false);
    });

    it('marks credential-named headers secret and gives the others secret false', () => {
      const headers = [
        { name: 'Authorization', value: 'Bearer x' },
        { name: 'X-Api-Key', value: 'k', secret: false },
        { name: 'Accept', value: '*/*' },
        { name: 'X-Tenant', value: 'lab', secret: true },
      ];
      expect(http(configOf(makeBody({ 'http.headers': headers }))).headers).toEqual([
        { name: 'Authorization', value: 'Bearer x', secret: true },
        { name: 'X-Api-Key', value: 'k', secret: true },
        { name: 'Accept', value: '*/*', secret: false },
        { name: 'X-Tenant', value: 'lab', secret: true },
      ]);
    });

    it('keeps a json rule value only where one was given', () => {
      const json = [
        { path: '$.ok', op: 'exists' },
        { path: '$.status', op: '==', value: 'ok' },
        { path: '$.err', op: '==', value: null },
      ];
      const stored = http(configOf(makeBody({ 'http.json': json }))).json;
      expect(stored).toEqual(json);
      expect(stored[0]).not.toHaveProperty('value');
    });

    it.each<[string, unknown]>([
      ['id', 7],
      ['state', { status: 'up' }],
      ['stats', { uptime_24h: 100 }],
      ['target', 'GET https://elsewhere.example/'],
      ['created_at', '2026-01-01T00:00:00.000Z'],
      ['updated_at', 'not even a time'],
      ['heartbeat_url', 'https://x.example/hb/abc'],
    ])('ignores the read-only field %s', (field, value) => {
      expect(parse(makeBody({ [field]: value }))).toEqual(parse(MINIMAL.http));
    });

    it('uses a given slug and says so', () => {
      expect(parse(makeBody({ slug: 'web-1' }))).toMatchObject({
        ok: true,
        slugGiven: true,
        dependsOn: [],
        config: { slug: 'web-1' },
      });
    });

    it.each([
      ['left out', undefined],
      ['null', null],
    ])('leaves the slug to be derived when it is %s', (_what, slug) => {
      expect(parse(makeBody({ slug }))).toMatchObject({ ok: true, slugGiven: false, config: { slug: '' } });
    });

    it('does not change the body it was given', () => {
      const body = makeBody({
        tags: ['lab'],
        'http.url': 'https://ops:pw@nas.local/',
        'http.headers': [{ name: 'Cookie', value: 'a=b' }],
        'http.json': [{ path: '$.ok', op: 'exists' }],
      });
      const before = structuredClone(body);
      parse(body);
      expect(body).toEqual(before);
    });
  });

  describe('******** with a previous monitor', () => {
    const storedBody = makeBody({
      'http.url': 'https://nas.local/health',
      'http.auth': { type: 'basic', username: 'ops', password: 's3cret' },
      'http.headers': [
        { name: 'Accept', value: '*/*' },
        { name: 'X-Api-Key', value: 'k-123' },
      ],
    });
    const previous = configOf(storedBody);
    const sentBack = (set: Plain = {}) =>
      makeBody({
        'http.url': 'https://nas.local/health',
        'http.auth': { type: 'basic', username: 'ops', password: MASK },
        'http.headers': [
          { name: 'Accept', value: '*/*' },
          { name: 'X-Api-Key', value: MASK, secret: true },
        ],
        ...set,
      });

    it.each<[string, string]>([
      ['the same URL', 'https://nas.local/health'],
      ['another path and query', 'https://nas.local/other?x=1'],
      ['an explicit default port', 'https://nas.local:443/health'],
    ])('keeps the stored secrets for %s', (_what, url) => {
      const s = http(configOf(sentBack({ 'http.url': url }), previous));
      expect(s.auth).toEqual({ type: 'basic', username: 'ops', password: 's3cret' });
      expect(s.headers[1]).toEqual({ name: 'X-Api-Key', value: 'k-123', secret: true });
    });

    it('turns a GET answer sent back unchanged into the stored monitor', () => {
      const answer = { ...sentBack(), id: 1, target: 'GET https://nas.local/health', state: {}, stats: {} };
      expect(configOf(answer, previous)).toEqual(previous);
    });

    it.each<[string, Plain]>([
      ['host', { 'http.url': 'https://evil.example/health' }],
      ['scheme', { 'http.url': 'http://nas.local/health' }],
      ['port', { 'http.url': 'https://nas.local:8443/health' }],
      ['resolve_to', { 'http.resolve_to': '203.0.113.9' }],
    ])('refuses the stored secrets when the %s changed, at each secret field', (_what, set) => {
      const message = 'the target (scheme, host, port or resolve_to) changed: send the secret again';
      expect(errorsOf(sentBack(set), previous)).toEqual([
        { field: 'http.auth.password', message },
        { field: 'http.headers[1].value', message },
      ]);
    });

    it('refuses ******** without a previous monitor', () => {
      expect(fieldsOf(sentBack())).toEqual(['http.auth.password', 'http.headers[1].value']);
    });

    it('refuses ******** when the previous monitor was of another kind', () => {
      const tcp = configOf(MINIMAL.tcp);
      expect(errorsOf(sentBack(), tcp).map((e) => e.field)).toEqual(['http.auth.password', 'http.headers[1].value']);
    });

    it('takes a new real password at a new host', () => {
      const body = sentBack({
        'http.url': 'https://new.example/',
        'http.auth': { type: 'basic', username: 'ops', password: 'new' },
        'http.headers': [],
      });
      expect(http(configOf(body, previous)).auth).toEqual({ type: 'basic', username: 'ops', password: 'new' });
    });

    it('keeps the stored header value for ******** sent in a credential header marked not secret', () => {
      const body = sentBack({ 'http.headers': [{ name: 'X-Api-Key', value: MASK, secret: false }] });
      expect(http(configOf(body, previous)).headers).toEqual([{ name: 'X-Api-Key', value: 'k-123', secret: true }]);
    });
  });
});

describe('mergePatch', () => {
  const stored: Plain = {
    name: 'Web',
    kind: 'http',
    interval_s: 60,
    tags: ['lab'],
    http: { url: 'https://example.com/', method: 'GET', auth: { type: 'bearer', token: 'tok' }, headers: [] },
  };

  // The merge never carries real secrets: they come back only through the keep-rule.
  const masked: Plain = { ...stored, http: { ...(stored.http as Plain), auth: { type: 'bearer', token: MASK } } };

  it('masks stored secrets in the merged body', () => {
    expect(JSON.stringify(mergePatch(stored, { name: 'x' }))).not.toContain('tok"');
  });

  it.each<[string, Plain, Plain]>([
    ['changes nothing for an empty patch', {}, masked],
    ['replaces a common field', { name: 'Web 2' }, { ...masked, name: 'Web 2' }],
    ['replaces an array field as a whole', { tags: ['nas'] }, { ...masked, tags: ['nas'] }],
    ['sets a common field to null', { tags: null }, { ...masked, tags: null }],
    [
      'merges kind settings field by field',
      { http: { method: 'HEAD' } },
      { ...masked, http: { ...(masked.http as Plain), method: 'HEAD' } },
    ],
    [
      'replaces a nested kind setting as a whole',
      { http: { auth: null } },
      { ...masked, http: { ...(masked.http as Plain), auth: null } },
    ],
    ['clears kind settings sent as null to {}', { http: null }, { ...masked, http: {} }],
    ['keeps the settings when the same kind is named', { kind: 'http' }, masked],
    [
      'drops the old kind settings when the kind changes',
      { kind: 'tcp', tcp: { host: 'db.lan', port: 22 } },
      { name: 'Web', kind: 'tcp', interval_s: 60, tags: ['lab'], tcp: { host: 'db.lan', port: 22 } },
    ],
    [
      'drops the old kind settings when only the kind is sent',
      { kind: 'heartbeat' },
      { name: 'Web', kind: 'heartbeat', interval_s: 60, tags: ['lab'] },
    ],
    [
      'clears the new kind settings sent as null to {}',
      { kind: 'tcp', tcp: null },
      { name: 'Web', kind: 'tcp', interval_s: 60, tags: ['lab'], tcp: {} },
    ],
    [
      "passes another kind's settings on for validation to refuse",
      { tcp: { host: 'x' } },
      { ...masked, tcp: { host: 'x' } },
    ],
    ['passes unknown fields on for validation to refuse', { nope: 1 }, { ...masked, nope: 1 }],
  ])('%s', (_what, patch, merged) => {
    expect(mergePatch(stored, patch)).toEqual(merged);
  });

  it('does not change the stored monitor', () => {
    const before = structuredClone(stored);
    mergePatch(stored, { name: 'x', http: { method: 'POST' } });
    mergePatch(stored, { kind: 'tcp' });
    expect(stored).toEqual(before);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', [{ name: 'x' }]],
    ['a string', 'name=x'],
    ['a number', 1],
    ['a boolean', true],
  ])('throws 422 on field body for a patch that is %s', (_what, patch) => {
    let thrown: unknown;
    try {
      mergePatch(stored, patch);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      code: 'invalid',
      status: 422,
      field: 'body',
      fields: [{ field: 'body', message: 'must be a JSON object' }],
    });
  });

  describe('followed by parseMonitorBody, as PATCH does', () => {
    const storedBody = makeBody({
      'http.url': 'https://nas.local/health',
      'http.auth': { type: 'basic', username: 'ops', password: 's3cret' },
    });
    const previous = configOf(storedBody);
    const patched = (patch: Plain) => parse(mergePatch(storedBody, patch), previous);

    it('keeps the stored password when the patch leaves the target alone', () => {
      const r = patched({ http: { method: 'HEAD' } });
      expect(r.ok && http(r.config)).toMatchObject({
        method: 'HEAD',
        auth: { type: 'basic', username: 'ops', password: 's3cret' },
      });
    });

    it('refuses a ******** password sent with a new host', () => {
      const r = patched({
        http: { url: 'https://evil.example/', auth: { type: 'basic', username: 'ops', password: MASK } },
      });
      expect(r.ok ? [] : r.errors.map((e) => e.field)).toEqual(['http.auth.password']);
    });
    it('refuses a patch that moves the URL to another host without sending the secret again', () => {
      const r = patched({ http: { url: 'https://evil.example/' } });
      expect(r.ok ? [] : r.errors.map((e) => e.field)).toEqual(['http.auth.password']);
    });
  });
});
