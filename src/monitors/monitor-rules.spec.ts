import 'reflect-metadata';
import type { MonitorDto } from './dto/monitor.dto';
import { isHostOrIp, isHttpUrl, monitorRuleErrors, parseResolver } from './monitor-rules';
import type { MonitorKind } from '../probes/kinds';
import { makeHttp } from '../../test/checkers/factories';

type Plain = Record<string, unknown>;

/** Valid settings of each kind, defaults filled in as the DTO check sees them. */
const KIND_SETTINGS: Record<MonitorKind, Plain> = {
  http: { ...makeHttp('https://nas.local/health') },
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

/** A monitor that passes every rule; tests change one part of it. */
function makeMonitor(overrides: Plain = {}, settings: Plain = {}): MonitorDto {
  const kind = (overrides.kind ?? 'http') as MonitorKind;
  return {
    name: 'NAS',
    kind,
    group: null,
    tags: [],
    description: null,
    runbook_url: null,
    interval_s: 60,
    timeout_ms: 10_000,
    confirm_after: 2,
    retry_interval_s: 10,
    recover_after: 1,
    slow_ms: null,
    slow_after: 3,
    alert_on_slow: false,
    channels: null,
    locations: ['local'],
    quorum: null,
    remind_every_min: 0,
    paused: false,
    muted_until: null,
    public: false,
    public_name: null,
    public_group: null,
    sort: 0,
    [kind]: { ...structuredClone(KIND_SETTINGS[kind]), ...settings },
    ...overrides,
  } as unknown as MonitorDto;
}

/** The body as it came in: the rules look at it to see whether the kind's settings object was sent. */
const rawOf = (m: MonitorDto): Plain => structuredClone(m) as unknown as Plain;

const errorsOf = (m: MonitorDto, raw: Plain = rawOf(m)) => monitorRuleErrors(m, raw);
const fieldsOf = (m: MonitorDto, raw?: Plain) => errorsOf(m, raw).map((e) => e.field);
const http = (settings: Plain, overrides: Plain = {}) => makeMonitor({ ...overrides, kind: 'http' }, settings);

const CHECK_KINDS: MonitorKind[] = [
  'http',
  'tcp',
  'ping',
  'dns',
  'tls',
  'smtp',
  'docker',
  'redis',
  'postgres',
  'mysql',
];

describe('monitorRuleErrors', () => {
  it.each([...CHECK_KINDS, 'heartbeat' as const])('finds nothing wrong with a valid %s monitor', (kind) => {
    expect(errorsOf(makeMonitor({ kind, interval_s: 60 }))).toEqual([]);
  });

  describe('interval_s', () => {
    // A short timeout and retry keep the other interval rules quiet at the low end.
    const quiet = { timeout_ms: 500, retry_interval_s: 5 };

    it.each(
      CHECK_KINDS.flatMap((kind) =>
        (
          [
            [9, false],
            [10, true],
            [86_400, true],
            [86_401, false],
          ] as const
        ).map(([s, ok]) => [kind, s, ok] as const),
      ),
    )('%s monitor: interval %i accepted: %s', (kind, interval_s, ok) => {
      expect(fieldsOf(makeMonitor({ kind, interval_s, ...quiet }))).toEqual(ok ? [] : ['interval_s']);
    });

    it.each<[string, Plain, string[]]>([
      ['a quorum within the locations', { locations: ['local', 'vps'], quorum: 2 }, []],
      ['a quorum above the locations', { locations: ['local', 'vps'], quorum: 3 }, ['quorum']],
      ['a null quorum (a majority)', { locations: ['local', 'vps', 'home'], quorum: null }, []],
      ['a heartbeat checked only locally', { kind: 'heartbeat', locations: ['local'] }, []],
      ['a heartbeat from an agent', { kind: 'heartbeat', locations: ['vps'] }, ['locations']],
      ['a heartbeat from local and an agent', { kind: 'heartbeat', locations: ['local', 'vps'] }, ['locations']],
    ])('locations and quorum: %s', (_, overrides, fields) => {
      expect(fieldsOf(makeMonitor(overrides))).toEqual(fields);
    });

    it.each<[number, boolean]>([
      [10, false],
      [29, false],
      [30, true],
      [86_401, true],
      [2_592_000, true],
      [2_592_001, false],
    ])('heartbeat monitor: interval %i accepted: %s', (interval_s, ok) => {
      expect(fieldsOf(makeMonitor({ kind: 'heartbeat', interval_s, ...quiet }))).toEqual(ok ? [] : ['interval_s']);
    });

    it.each<[MonitorKind, number, string]>([
      ['http', 9, 'must be from 10 to 86400 for a http monitor'],
      ['heartbeat', 29, 'must be from 30 to 2592000 for a heartbeat monitor'],
    ])('names the range of the kind (%s, %i)', (kind, interval_s, message) => {
      expect(errorsOf(makeMonitor({ kind, interval_s, ...quiet }))).toEqual([{ field: 'interval_s', message }]);
    });
  });

  it.each<[string, string[], Plain]>([
    ['timeout equal to the interval', [], { interval_s: 10, timeout_ms: 10_000, retry_interval_s: 5 }],
    ['timeout 1 ms above the interval', ['timeout_ms'], { interval_s: 10, timeout_ms: 10_001, retry_interval_s: 5 }],
    ['timeout far above the interval', ['timeout_ms'], { interval_s: 30, timeout_ms: 60_000 }],
    [
      'heartbeat timeout above the interval (no checks run)',
      [],
      { kind: 'heartbeat', interval_s: 30, timeout_ms: 60_000 },
    ],
    ['retry equal to the interval', [], { interval_s: 60, retry_interval_s: 60 }],
    ['retry above the interval', ['retry_interval_s'], { interval_s: 60, retry_interval_s: 61 }],
    [
      'heartbeat retry above the interval',
      ['retry_interval_s'],
      { kind: 'heartbeat', interval_s: 30, retry_interval_s: 31 },
    ],
    [
      'timeout and retry both above the interval',
      ['timeout_ms', 'retry_interval_s'],
      { interval_s: 10, timeout_ms: 20_000, retry_interval_s: 11 },
    ],
  ])('%s → errors at %j', (_what, fields, overrides) => {
    expect(fieldsOf(makeMonitor(overrides))).toEqual(fields);
  });

  it.each<[number, boolean]>([
    [0, true],
    [1, false],
    [4, false],
    [5, true],
    [10_080, true],
  ])('remind_every_min %i accepted: %s', (remind_every_min, ok) => {
    expect(fieldsOf(makeMonitor({ remind_every_min }))).toEqual(ok ? [] : ['remind_every_min']);
  });

  it.each<[string | null, boolean]>([
    [null, true],
    ['https://wiki.lan/runbooks/nas', true],
    ['http://10.0.0.2:8080/nas?x=1', true],
    ['ftp://wiki.lan/runbook.txt', false],
    ['javascript:alert(1)', false],
    ['mailto:ops@example.com', false],
    ['wiki.lan/runbook', false],
    ['', false],
  ])('runbook_url %j accepted: %s', (runbook_url, ok) => {
    expect(fieldsOf(makeMonitor({ runbook_url }))).toEqual(ok ? [] : ['runbook_url']);
  });

  it.each<[string | null, boolean]>([
    [null, true],
    ['2026-12-01T08:00:00.000Z', true],
    ['2026-12-01T08:00:00Z', true],
    ['2026-12-01T08:00:00+02:00', true],
    ['2026-12-01', false],
    ['2026-12-01 08:00:00Z', false],
    ['2026-02-31T00:00:00Z', false],
    ['tomorrow', false],
    ['1764576000000', false],
  ])('muted_until %j accepted: %s', (muted_until, ok) => {
    expect(fieldsOf(makeMonitor({ muted_until }))).toEqual(ok ? [] : ['muted_until']);
  });

  describe('the kind settings object', () => {
    it.each<[string, (raw: Plain) => void]>([
      ['missing', (raw) => delete raw.http],
      ['null', (raw) => (raw.http = null)],
      ['an array', (raw) => (raw.http = [])],
      ['a string', (raw) => (raw.http = 'https://nas.local/')],
    ])('is required: refused when %s in the body', (_what, change) => {
      const m = makeMonitor();
      const raw = rawOf(m);
      change(raw);
      expect(errorsOf(m, raw)).toEqual([{ field: 'http', message: 'required: the http settings object' }]);
    });

    it('is required for a heartbeat too, although all its fields have defaults', () => {
      const m = makeMonitor({ kind: 'heartbeat' });
      const raw = rawOf(m);
      delete raw.heartbeat;
      expect(fieldsOf(m, raw)).toEqual(['heartbeat']);
    });
  });

  describe('http', () => {
    it.each<[string, boolean]>([
      ['https://example.com', true],
      ['http://10.0.0.1:8080/status?full=1', true],
      ['http://[::1]:8080/', true],
      ['HTTPS://EXAMPLE.COM/', true],
      ['ftp://example.com/', false],
      ['example.com', false],
      ['http://', false],
      ['https://exa mple.com/', false],
      ['file:///etc/passwd', false],
      ['javascript:alert(1)', false],
    ])('url %j accepted: %s', (url, ok) => {
      expect(fieldsOf(http({ url }))).toEqual(ok ? [] : ['http.url']);
    });

    it.each<[string | null, boolean]>([
      [null, true],
      ['203.0.113.5', true],
      ['2001:db8::1', true],
      ['example.com', false],
      ['203.0.113.256', false],
      ['[2001:db8::1]', false],
      ['', false],
    ])('resolve_to %j accepted: %s', (resolve_to, ok) => {
      expect(fieldsOf(http({ resolve_to }))).toEqual(ok ? [] : ['http.resolve_to']);
    });

    it.each<[string, string | null]>([
      ['200-299,401', null],
      ['200', null],
      ['2xx', '"2xx" is not a status code or range; use codes and ranges like 200-299,401'],
      ['', 'expected status is empty; use codes and ranges like 200-299,401'],
      ['299-200', 'range 299-200 runs backwards; write 200-299'],
    ])('expect_status %j → %j', (expect_status, message) => {
      expect(errorsOf(http({ expect_status }))).toEqual(
        message === null ? [] : [{ field: 'http.expect_status', message }],
      );
    });

    it.each<[string, boolean, string | null]>([
      ['no body', true, null],
      ['64 KB of ascii exactly', true, 'a'.repeat(65_536)],
      ['64 KB and one byte of ascii', false, 'a'.repeat(65_537)],
      ['64 KB of two-byte é exactly', true, 'é'.repeat(32_768)],
      ['one two-byte é too many', false, 'é'.repeat(32_769)],
      ['three-byte € past 64 KB in 21,846 characters', false, '€'.repeat(21_846)],
      ['64 KB of four-byte emoji exactly', true, '😀'.repeat(16_384)],
      ['one four-byte emoji too many', false, '😀'.repeat(16_385)],
    ])('body with %s accepted: %s', (_what, ok, body) => {
      expect(errorsOf(http({ body }))).toEqual(ok ? [] : [{ field: 'http.body', message: 'must be at most 64 KB' }]);
    });

    it.each<[string, string[], Plain]>([
      ['complete basic auth', [], { type: 'basic', username: 'ops', password: 'pw' }],
      ['basic auth with an empty password', [], { type: 'basic', username: 'ops', password: '' }],
      ['basic auth without a username', ['http.auth.username'], { type: 'basic', password: 'pw' }],
      ['basic auth without a password', ['http.auth.password'], { type: 'basic', username: 'ops' }],
      ['basic auth without anything', ['http.auth.username', 'http.auth.password'], { type: 'basic' }],
      ['basic auth with a token', ['http.auth.token'], { type: 'basic', username: 'ops', password: 'pw', token: 't' }],
      [
        'basic auth with ":" in the username',
        ['http.auth.username'],
        { type: 'basic', username: 'ops:x', password: 'pw' },
      ],
      ['complete bearer auth', [], { type: 'bearer', token: 'tok' }],
      ['bearer auth without a token', ['http.auth.token'], { type: 'bearer' }],
      ['bearer auth with an empty token', ['http.auth.token'], { type: 'bearer', token: '' }],
      ['bearer auth with a username', ['http.auth.username'], { type: 'bearer', token: 'tok', username: 'ops' }],
      ['bearer auth with a password', ['http.auth.password'], { type: 'bearer', token: 'tok', password: 'pw' }],
      ['a bearer token ending in a line feed', ['http.auth.token'], { type: 'bearer', token: 'tok\n' }],
      ['a bearer token with CR LF inside', ['http.auth.token'], { type: 'bearer', token: 'tok\r\nX-Evil: 1' }],
      ['a bearer token with a right-to-left override', ['http.auth.token'], { type: 'bearer', token: 'tok\u202e' }],
      ['a bearer token with a character beyond Latin-1', ['http.auth.token'], { type: 'bearer', token: 'tok\u2603' }],
      [
        'basic auth with a line feed in the password (sent base64-encoded)',
        [],
        { type: 'basic', username: 'ops', password: 'p\nw' },
      ],
    ])('%s → errors at %j', (_what, fields, auth) => {
      expect(fieldsOf(http({ auth }))).toEqual(fields);
    });

    it.each<[string, string[], Plain[]]>([
      [
        'ordinary headers',
        [],
        [
          { name: 'Accept', value: 'application/json' },
          { name: 'X-Trace_1', value: 'a b; c=d' },
        ],
      ],
      ['a name with a space', ['http.headers[0].name'], [{ name: 'X Custom', value: 'v' }]],
      ['a name with a colon', ['http.headers[0].name'], [{ name: 'X-Bad:', value: 'v' }]],
      ['a value with CRLF', ['http.headers[0].value'], [{ name: 'X-A', value: 'v\r\nInjected: 1' }]],
      ['a value with a bare LF', ['http.headers[0].value'], [{ name: 'X-A', value: 'v\nx' }]],
      ['a value with a NUL', ['http.headers[0].value'], [{ name: 'X-A', value: 'v\0' }]],
      ['a value with DEL', ['http.headers[0].value'], [{ name: 'X-A', value: 'v\u007f' }]],
      ['a value with a bell', ['http.headers[0].value'], [{ name: 'X-A', value: 'v\u0007' }]],
      ['a value with a right-to-left override', ['http.headers[0].value'], [{ name: 'X-A', value: 'v\u202e' }]],
      ['a value with a character beyond Latin-1', ['http.headers[0].value'], [{ name: 'X-A', value: '\u2603' }]],
      ['a value with a tab and Latin-1 letters', [], [{ name: 'X-A', value: 'caf\u00e9\tb' }]],
      ['a name with a right-to-left override', ['http.headers[0].name'], [{ name: 'X-A\u202e', value: 'v' }]],
      [
        'a bad second header',
        ['http.headers[1].name', 'http.headers[1].value'],
        [
          { name: 'Accept', value: '*/*' },
          { name: 'Bad Name', value: 'a\r\n' },
        ],
      ],
    ])('headers with %s → errors at %j', (_what, fields, headers) => {
      expect(fieldsOf(http({ headers }))).toEqual(fields);
    });

    it.each<[string, string[], Plain]>([
      ['a valid expect_header', [], { expect_header: { name: 'X-Version', contains: '2' } }],
      [
        'an expect_header name with a space',
        ['http.expect_header.name'],
        { expect_header: { name: 'X Version', contains: '2' } },
      ],
      ['a content_type', [], { content_type: 'application/json; charset=utf-8' }],
      ['a content_type with CRLF', ['http.content_type'], { content_type: 'text/plain\r\nX-Evil: 1' }],
      ['a content_type with DEL', ['http.content_type'], { content_type: 'text/plain\u007f' }],
      ['a content_type with a right-to-left override', ['http.content_type'], { content_type: 'text/\u202eplain' }],
      [
        'an expect_header name with a line feed',
        ['http.expect_header.name'],
        { expect_header: { name: 'X-Version\n', contains: '2' } },
      ],
      [
        'an expect_header text with a line feed',
        ['http.expect_header.contains'],
        { expect_header: { name: 'X-Version', contains: '2\n' } },
      ],
    ])('%s → errors at %j', (_what, fields, settings) => {
      expect(fieldsOf(http(settings))).toEqual(fields);
    });

    it.each<[string, { field: string; message: string }[], Plain]>([
      ['== with a value', [], { path: '$.status', op: '==', value: 'ok' }],
      ['== with null as the value', [], { path: '$.error', op: '==', value: null }],
      ['contains with a value', [], { path: '$.tags', op: 'contains', value: 'prod' }],
      ['exists without a value', [], { path: '$.ok', op: 'exists' }],
      ['exists with null as the value', [], { path: '$.ok', op: 'exists', value: null }],
      ['not_exists without a value', [], { path: '$.error', op: 'not_exists' }],
      ['> with a number', [], { path: '$.uptime', op: '>', value: 5 }],
      ['>= with a numeric string', [], { path: '$.uptime', op: '>=', value: '-1.5e3' }],
      [
        'a path without $',
        [
          {
            field: 'http.json[0].path',
            message: 'json path must start with $; write it like $.a.b[0] or $["key with space"]',
          },
        ],
        { path: 'status', op: '==', value: 'ok' },
      ],
      [
        'a path the parser does not understand',
        [
          {
            field: 'http.json[0].path',
            message: 'json path "$..a" is not understood at position 1; write it like $.a.b[0] or $["key with space"]',
          },
        ],
        { path: '$..a', op: 'exists' },
      ],
      [
        '== without a value',
        [{ field: 'http.json[0].value', message: 'required for op ==' }],
        { path: '$.status', op: '==' },
      ],
      [
        'exists with a value',
        [{ field: 'http.json[0].value', message: 'op exists takes no value' }],
        { path: '$.ok', op: 'exists', value: true },
      ],
      [
        'not_exists with a value',
        [{ field: 'http.json[0].value', message: 'op not_exists takes no value' }],
        { path: '$.ok', op: 'not_exists', value: 'x' },
      ],
      [
        '> with a non-numeric string',
        [{ field: 'http.json[0].value', message: 'op > compares numbers: give a number' }],
        { path: '$.uptime', op: '>', value: 'abc' },
      ],
      [
        '< with a boolean',
        [{ field: 'http.json[0].value', message: 'op < compares numbers: give a number' }],
        { path: '$.uptime', op: '<', value: true },
      ],
      [
        '<= with null',
        [{ field: 'http.json[0].value', message: 'op <= compares numbers: give a number' }],
        { path: '$.uptime', op: '<=', value: null },
      ],
      [
        '> without a value, reported once',
        [{ field: 'http.json[0].value', message: 'required for op >' }],
        { path: '$.uptime', op: '>' },
      ],
    ])('json rule with %s → %j', (_what, errors, rule) => {
      expect(errorsOf(http({ json: [rule] }))).toEqual(errors);
    });

    it('reports a json rule at its own index', () => {
      const json = [
        { path: '$.ok', op: 'exists' },
        { path: '$.n', op: '>', value: 'many' },
      ];
      expect(fieldsOf(http({ json }))).toEqual(['http.json[1].value']);
    });
  });

  describe('host names of tcp, ping and tls', () => {
    const hosts: [string, boolean][] = [
      ['db.lan', true],
      ['localhost', true],
      ['192.168.1.10', true],
      ['::1', true],
      ['2001:db8::5', true],
      ['bad host', false],
      ['http://db.lan', false],
      ['db.lan:5432', false],
      ['[::1]', false],
      ['-db.lan', false],
    ];
    it.each((['tcp', 'ping', 'tls'] as const).flatMap((kind) => hosts.map(([host, ok]) => [kind, host, ok] as const)))(
      '%s host %j accepted: %s',
      (kind, host, ok) => {
        expect(errorsOf(makeMonitor({ kind }, { host }))).toEqual(
          ok ? [] : [{ field: `${kind}.host`, message: 'must be a host name or an IP address' }],
        );
      },
    );

    it.each<[string | null, boolean]>([
      [null, true],
      ['example.com', true],
      ['mail.example.com.', true],
      ['::1', false],
      ['bad sni', false],
    ])('tls sni %j accepted: %s', (sni, ok) => {
      expect(fieldsOf(makeMonitor({ kind: 'tls' }, { sni }))).toEqual(ok ? [] : ['tls.sni']);
    });
  });

  describe('cert_sha256 (a pinned certificate)', () => {
    const HEX = 'ab'.repeat(32);
    it.each(
      (['http', 'tls'] as const).flatMap((kind) =>
        (
          [
            [null, true],
            [HEX, true],
            [`SHA256 Fingerprint=${HEX.toUpperCase().match(/../g)!.join(':')}`, true],
            ['ab'.repeat(20), false],
            ['not a fingerprint', false],
          ] as const
        ).map(([pin, ok]) => [kind, pin, ok] as const),
      ),
    )('%s cert_sha256 %j accepted: %s', (kind, cert_sha256, ok) => {
      const errors = errorsOf(makeMonitor({ kind }, { cert_sha256 }));
      expect(errors.map((e) => e.field)).toEqual(ok ? [] : [`${kind}.cert_sha256`]);
      if (!ok) expect(errors[0].message).toMatch(/^must be the SHA-256 fingerprint of the certificate: 64 hex digits/);
    });
  });

  describe('dns', () => {
    it.each<[string, boolean]>([
      ['example.com', true],
      ['example.com.', true],
      ['_dmarc.example.com', true],
      ['localhost', true],
      ['bad name.com', false],
      ['example..com', false],
      ['https://example.com', false],
      ['::1', false],
    ])('name %j accepted: %s', (name, ok) => {
      expect(fieldsOf(makeMonitor({ kind: 'dns' }, { name }))).toEqual(ok ? [] : ['dns.name']);
    });

    it.each<[string, boolean]>([
      ['1.1.1.1', true],
      ['1.1.1.1:5353', true],
      ['[::1]:53', true],
      ['::1', true],
      ['[2606:4700::1111]', true],
      ['1.1.1.1:0', false],
      ['1.1.1.1:65536', false],
      ['example.com', false],
      ['example.com:53', false],
    ])('resolver %j accepted: %s', (resolver, ok) => {
      expect(fieldsOf(makeMonitor({ kind: 'dns' }, { resolver }))).toEqual(ok ? [] : ['dns.resolver']);
    });
  });

  it('reports every broken rule at once', () => {
    const m = http(
      { url: 'ftp://x', resolve_to: 'nope', expect_status: 'x', headers: [{ name: 'A B', value: 'v' }] },
      { interval_s: 5, remind_every_min: 3, runbook_url: 'wiki', muted_until: 'soon' },
    );
    expect(fieldsOf(m)).toEqual([
      'interval_s',
      'timeout_ms',
      'retry_interval_s',
      'remind_every_min',
      'runbook_url',
      'muted_until',
      'http.url',
      'http.resolve_to',
      'http.expect_status',
      'http.headers[0].name',
    ]);
  });

  it('does not change the monitor or the raw body', () => {
    const m = http({ auth: { type: 'basic', username: 'ops', password: 'pw' }, json: [{ path: '$.a', op: 'exists' }] });
    const raw = rawOf(m);
    const before = [structuredClone(m), structuredClone(raw)];
    monitorRuleErrors(m, raw);
    expect([m, raw]).toEqual(before);
  });
});

describe('parseResolver', () => {
  it.each<[string, { host: string; port: number }]>([
    ['1.1.1.1', { host: '1.1.1.1', port: 53 }],
    ['1.1.1.1:5353', { host: '1.1.1.1', port: 5353 }],
    ['9.9.9.9:1', { host: '9.9.9.9', port: 1 }],
    ['9.9.9.9:65535', { host: '9.9.9.9', port: 65535 }],
    ['[::1]:53', { host: '::1', port: 53 }],
    ['[2606:4700::1111]:5353', { host: '2606:4700::1111', port: 5353 }],
    ['[::1]', { host: '::1', port: 53 }],
    ['::1', { host: '::1', port: 53 }],
    ['2606:4700::1111', { host: '2606:4700::1111', port: 53 }],
    // Without brackets a trailing :53 is part of the IPv6 address, not a port.
    ['::1:53', { host: '::1:53', port: 53 }],
  ])('reads %j', (text, parsed) => {
    expect(parseResolver(text)).toEqual(parsed);
  });

  it.each<[string]>([
    ['1.1.1.1:0'],
    ['1.1.1.1:65536'],
    ['1.1.1.1:123456'],
    ['1.1.1.1:'],
    ['1.1.1.1:dns'],
    ['[::1]:'],
    ['[::1'],
    ['example.com'],
    ['example.com:53'],
    ['999.1.1.1'],
    [' 1.1.1.1'],
    [''],
  ])('refuses %j', (text) => {
    expect(parseResolver(text)).toBeNull();
  });
});

describe('isHostOrIp', () => {
  it.each<[string, boolean]>([
    ['example.com', true],
    ['example.com.', true],
    ['localhost', true],
    ['nas', true],
    ['my_host.local', true],
    ['xn--bcher-kva.de', true],
    [`${'a'.repeat(63)}.com`, true],
    ['192.168.1.10', true],
    ['::1', true],
    ['fe80::1', true],
    ['2001:db8::5', true],
    ['', false],
    ['bad host', false],
    ['-db.lan', false],
    ['db-.lan', false],
    ['db..lan', false],
    [`${'a'.repeat(64)}.com`, false],
    ['db.lan:5432', false],
    ['[::1]', false],
    ['http://db.lan', false],
    ['bücher.de', false],
  ])('%j is a host name or IP: %s', (text, ok) => {
    expect(isHostOrIp(text)).toBe(ok);
  });

  it('refuses a name longer than 253 characters', () => {
    expect(isHostOrIp(`${'a.'.repeat(127)}ab`)).toBe(false);
  });
  it.each<[string]>([['999.1.1.1'], ['192.168.1.300']])('refuses the invalid IPv4 address %j', (text) => {
    expect(isHostOrIp(text)).toBe(false);
  });
});

describe('isHttpUrl', () => {
  it.each<[string, boolean]>([
    ['http://example.com', true],
    ['https://example.com/path?q=1#f', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['http://10.0.0.1:8080', true],
    ['http://[::1]/', true],
    ['https://user:pw@example.com/', true],
    ['ftp://example.com', false],
    ['ws://example.com', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['mailto:ops@example.com', false],
    ['example.com', false],
    ['//example.com', false],
    ['http://', false],
    ['', false],
  ])('%j is an http URL: %s', (text, ok) => {
    expect(isHttpUrl(text)).toBe(ok);
  });
});
