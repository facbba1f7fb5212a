import 'reflect-metadata';
import type { MonitorDto } from './dto/monitor.dto';
import { SHARED_RULES } from './monitor-rules';
import { normaliseGrpc, normaliseUrlSecret, serviceRuleErrors } from './service-rules';
import { MASK } from '../common/secrets/secrets';
import { NOTHING_STORED } from '../common/secrets/secret-fields';

type Plain = Record<string, unknown>;

const SMTP = { host: 'mail.lan', port: 587, tls: 'starttls', tls_verify: true, tls_warn_days: 14 };
const DOCKER = { container: 'web', endpoint: 'unix:///var/run/docker.sock', require_healthy: true };

const errors = (kind: 'smtp' | 'docker', settings: Plain) =>
  serviceRuleErrors(
    { kind, [kind]: { ...(kind === 'smtp' ? SMTP : DOCKER), ...settings } } as unknown as MonitorDto,
    kind,
    SHARED_RULES,
  );

describe('serviceRuleErrors', () => {
  it.each<[string, 'smtp' | 'docker', Plain, string[]]>([
    ['a valid smtp monitor', 'smtp', {}, []],
    ['an smtp host with a port', 'smtp', { host: 'mail.lan:25' }, ['smtp.host']],
    ['a unicode smtp host', 'smtp', { host: 'müller.lan' }, ['smtp.host']],
    ['an smtp URL as host', 'smtp', { host: 'smtp://mail.lan' }, ['smtp.host']],
    ['a valid docker monitor', 'docker', {}, []],
    ['a tcp endpoint', 'docker', { endpoint: 'tcp://10.0.0.2:2375' }, []],
    ['an https endpoint', 'docker', { endpoint: 'https://docker.lan' }, []],
    ['an http endpoint', 'docker', { endpoint: 'http://docker.lan' }, ['docker.endpoint']],
    ['a relative socket', 'docker', { endpoint: 'unix://docker.sock' }, ['docker.endpoint']],
    ['a port out of range', 'docker', { endpoint: 'tcp://docker.lan:99999' }, ['docker.endpoint']],
    ['a container with a path', 'docker', { container: 'web/../../info' }, ['docker.container']],
    ['a container with a query', 'docker', { container: 'web?x=1' }, ['docker.container']],
  ])('%s', (_name, kind, settings, fields) => {
    expect(errors(kind, settings).map((e) => e.field)).toEqual(fields);
  });

  it('says what an endpoint must look like', () => {
    expect(errors('docker', { endpoint: 'ssh://nas' })).toEqual([
      {
        field: 'docker.endpoint',
        message: 'must be unix:///path/to/docker.sock, tcp://host:port or https://host:port',
      },
    ]);
  });
});

describe('the URL kinds', () => {
  const redis = (settings: Plain) =>
    serviceRuleErrors(
      {
        kind: 'redis',
        redis: { url: 'redis://cache.lan', password: null, tls: 'off', ...settings },
      } as unknown as MonitorDto,
      'redis',
      SHARED_RULES,
    );

  it.each<[string, Plain, string[]]>([
    ['a plain URL', {}, []],
    ['a URL with a database number', { url: 'redis://cache.lan:6380/3' }, []],
    ['rediss:// with tls on', { url: 'rediss://cache.lan', tls: 'verify' }, []],
    ['rediss:// with tls off', { url: 'rediss://cache.lan' }, ['redis.tls']],
    ['options after ?', { url: 'redis://cache.lan/0?protocol=3' }, ['redis.url']],
    ['a unicode host', { url: 'redis://bücher.lan' }, ['redis.url']],
    ['a port out of range', { url: 'redis://cache.lan:0' }, ['redis.url']],
    ['another scheme', { url: 'http://cache.lan' }, ['redis.url']],
  ])('%s', (_name, settings, fields) => {
    expect(redis(settings).map((e) => e.field)).toEqual(fields);
  });
});

describe('normaliseUrlSecret', () => {
  const settings = (url: string, password: string | null = null) => ({ url, password, tls: 'off' });
  const stored = settings('redis://cache.lan:6379', 'stored-pw');

  it.each<
    [
      string,
      ReturnType<typeof settings>,
      ReturnType<typeof settings> | null,
      Plain,
      { field: string; message: string }[],
    ]
  >([
    [
      'moves a password out of the URL',
      settings('redis://:pw@cache.lan'),
      null,
      { url: 'redis://cache.lan', password: 'pw' },
      [],
    ],
    [
      'keeps the user in the URL',
      settings('redis://app:p%40ss@cache.lan/2'),
      null,
      { url: 'redis://app@cache.lan/2', password: 'p@ss' },
      [],
    ],
    [
      'refuses a password in both places',
      settings('redis://:a@cache.lan', 'b'),
      null,
      { url: 'redis://:a@cache.lan' },
      [{ field: 'redis.url', message: 'a password is given both in the URL and in password; keep one' }],
    ],
    [
      'keeps the stored password for ******** on the same server',
      settings('redis://cache.lan/1', MASK),
      stored,
      { password: 'stored-pw' },
      [],
    ],
    [
      'drops it when the host changes',
      settings('redis://evil.example', MASK),
      stored,
      { password: MASK },
      [
        {
          field: 'redis.password',
          message: 'the server (scheme, host or port of the URL) changed: send the password again',
        },
      ],
    ],
    [
      'drops it when the port changes',
      settings('redis://cache.lan:6380', MASK),
      stored,
      { password: MASK },
      [
        {
          field: 'redis.password',
          message: 'the server (scheme, host or port of the URL) changed: send the password again',
        },
      ],
    ],
    [
      'has nothing to keep without a stored monitor',
      settings('redis://cache.lan', MASK),
      null,
      { password: MASK },
      [{ field: 'redis.password', message: NOTHING_STORED }],
    ],
  ])('%s', (_name, next, previous, after, errors) => {
    expect(normaliseUrlSecret('redis', next, previous)).toEqual(errors);
    expect(next).toMatchObject(after);
  });
});

describe('mqtt settings', () => {
  const MQTT = {
    url: 'mqtt://broker.lan',
    username: null,
    password: null,
    tls: 'off',
    topic: null,
    expect: null,
    json: [],
  };
  const mqtt = (settings: Plain) =>
    serviceRuleErrors({ kind: 'mqtt', mqtt: { ...MQTT, ...settings } } as unknown as MonitorDto, 'mqtt', SHARED_RULES);

  it.each<[string, Plain, string[]]>([
    ['a broker alone', {}, []],
    ['a topic with wildcards', { topic: 'home/+/state/#' }, []],
    [
      'a topic, text and a JSON rule',
      { topic: 'ups/status', expect: 'OL', json: [{ path: '$.on', op: 'exists' }] },
      [],
    ],
    ['mqtts:// with tls on', { url: 'mqtts://broker.lan', tls: 'verify' }, []],
    ['mqtts:// with tls off', { url: 'mqtts://broker.lan' }, ['mqtt.tls']],
    ['a path in the URL', { url: 'mqtt://broker.lan/home' }, ['mqtt.url']],
    ['a websocket URL', { url: 'ws://broker.lan:9001' }, ['mqtt.url']],
    ['a unicode host', { url: 'mqtt://bücher.lan' }, ['mqtt.url']],
    ['# before the last level', { topic: 'home/#/state' }, ['mqtt.topic']],
    ['# inside a level', { topic: 'home/a#' }, ['mqtt.topic']],
    ['+ inside a level', { topic: 'home/a+/state' }, ['mqtt.topic']],
    ['a control character in the topic', { topic: 'home/\u0000' }, ['mqtt.topic']],
    ['expect without a topic', { expect: 'online' }, ['mqtt.expect']],
    ['JSON rules without a topic', { json: [{ path: '$.a', op: 'exists' }] }, ['mqtt.json']],
    ['a JSON rule with a bad path', { topic: 't', json: [{ path: 'a', op: 'exists' }] }, ['mqtt.json[0].path']],
    ['a control character in the user name', { username: 'a\nb' }, ['mqtt.username']],
  ])('%s', (_name, settings, fields) => {
    expect(mqtt(settings).map((e) => e.field)).toEqual(fields);
  });

  const settings = (url: string, username: string | null = null, password: string | null = null) => ({
    url,
    username,
    password,
    tls: 'off',
  });

  it.each<[string, ReturnType<typeof settings>, Plain, { field: string; message: string }[]]>([
    [
      'moves the user and the password out of the URL',
      settings('mqtt://u%40home:p%3Ass@broker.lan:1884'),
      { url: 'mqtt://broker.lan:1884', username: 'u@home', password: 'p:ss' },
      [],
    ],
    [
      'moves a user without a password',
      settings('mqtts://u@broker.lan'),
      { url: 'mqtts://broker.lan', username: 'u' },
      [],
    ],
    [
      'refuses two different user names',
      settings('mqtt://u@broker.lan', 'v'),
      {},
      [{ field: 'mqtt.url', message: 'a user name is given both in the URL and in username; keep one' }],
    ],
  ])('%s', (_name, next, after, errors) => {
    expect(normaliseUrlSecret('mqtt', next, null)).toEqual(errors);
    expect(next).toMatchObject(after);
  });

  it('drops the stored password when the broker changes', () => {
    const stored = settings('mqtt://broker.lan', 'u', 'stored-pw');
    const next = settings('mqtt://other.lan', 'u', MASK);
    expect(normaliseUrlSecret('mqtt', next, stored)).toEqual([
      {
        field: 'mqtt.password',
        message: 'the server (scheme, host or port of the URL) changed: send the password again',
      },
    ]);
    const same = settings('mqtt://broker.lan:1883', 'u', MASK);
    expect(normaliseUrlSecret('mqtt', same, stored)).toEqual([]);
    expect(same.password).toBe('stored-pw');
  });
});

describe('grpc settings', () => {
  const GRPC = { target: 'api.lan:50051', service: '', tls: 'off', metadata: [] };
  const grpc = (settings: Plain) =>
    serviceRuleErrors({ kind: 'grpc', grpc: { ...GRPC, ...settings } } as unknown as MonitorDto, 'grpc', SHARED_RULES);
  const meta = (name: string, value = 'v') => ({ metadata: [{ name, value, secret: false }] });

  it.each<[string, Plain, string[]]>([
    ['a target', {}, []],
    ['an IPv6 target and a service', { target: '[fd00::1]:443', service: 'shop.Cart' }, []],
    ['metadata', meta('x-api-key', 'abc'), []],
    ['a URL as target', { target: 'https://api.lan:443' }, ['grpc.target']],
    ['no port', { target: 'api.lan' }, ['grpc.target']],
    ['a unicode host', { target: 'bücher.lan:50051' }, ['grpc.target']],
    ['a control character in the service', { service: 'a\nb' }, ['grpc.service']],
    ['an upper-case metadata name', meta('X-Key'), ['grpc.metadata[0].name']],
    ['a grpc- metadata name', meta('grpc-timeout'), ['grpc.metadata[0].name']],
    ['a reserved metadata name', meta('content-type'), ['grpc.metadata[0].name']],
    ['binary metadata', meta('trace-bin'), ['grpc.metadata[0].name']],
    ['a metadata value with a line break', meta('x-k', 'a\r\nb: c'), ['grpc.metadata[0].value']],
  ])('%s', (_name, settings, fields) => {
    expect(grpc(settings).map((e) => e.field)).toEqual(fields);
  });

  const settings = (target: string, value: string, name = 'authorization') => ({
    target,
    service: '',
    tls: 'off' as const,
    metadata: [{ name, value, secret: false }],
  });

  it('makes credential-like metadata secret, and keeps it for ******** while the target stays', () => {
    const stored = settings('api.lan:50051', 'Bearer tok');
    expect(normaliseGrpc(stored, null)).toEqual([]);
    expect(stored.metadata[0].secret).toBe(true);
    const same = settings('API.lan:50051', MASK);
    expect(normaliseGrpc(same, stored)).toEqual([]);
    expect(same.metadata[0].value).toBe('Bearer tok');
    const moved = settings('evil.example:50051', MASK);
    expect(normaliseGrpc(moved, stored)).toEqual([
      { field: 'grpc.metadata[0].value', message: 'the target (host or port) changed: send the secret metadata again' },
    ]);
  });

  it('leaves plain metadata plain', () => {
    const plain = settings('api.lan:50051', 'eu-west', 'x-region');
    expect(normaliseGrpc(plain, null)).toEqual([]);
    expect(plain.metadata[0].secret).toBe(false);
  });
});
