import type { KindConfig } from './monitor-config';
import type { MonitorKind } from './kinds';
import { describeHost, describeTarget } from './target';

type Target = KindConfig;

const http = (method: string, url: string): Target =>
  ({ kind: 'http', settings: { method, url, headers: [], auth: null } }) as unknown as Target;
const of = (kind: MonitorKind, settings: Record<string, unknown>): Target => ({ kind, settings }) as unknown as Target;

describe('describeTarget', () => {
  it.each<[string, Target, string]>([
    ['http: method and URL', http('GET', 'https://example.com/health'), 'GET https://example.com/health'],
    ['http: another method', http('POST', 'http://10.0.0.5:8080/api?x=1'), 'POST http://10.0.0.5:8080/api?x=1'],
    ['tcp: host and port', of('tcp', { host: 'db.lan', port: 5432 }), 'tcp db.lan:5432'],
    ['tcp: IPv4 address', of('tcp', { host: '192.168.1.10', port: 22 }), 'tcp 192.168.1.10:22'],
    ['tcp: IPv6 address in brackets', of('tcp', { host: '::1', port: 22 }), 'tcp [::1]:22'],
    ['tcp: long IPv6 address in brackets', of('tcp', { host: '2001:db8::5', port: 443 }), 'tcp [2001:db8::5]:443'],
    ['ping: host', of('ping', { host: 'router.lan', packets: 3 }), 'ping router.lan'],
    ['ping: IPv6 address as is', of('ping', { host: 'fe80::1', packets: 3 }), 'ping fe80::1'],
    [
      'dns: record, name and resolver',
      of('dns', { name: 'example.com', record: 'A', resolver: '1.1.1.1' }),
      'dns A example.com @1.1.1.1',
    ],
    [
      'dns: resolver with port',
      of('dns', { name: 'example.com', record: 'MX', resolver: '[::1]:5353' }),
      'dns MX example.com @[::1]:5353',
    ],
    ['tls: host and port', of('tls', { host: 'example.com', port: 443 }), 'tls example.com:443'],
    ['tls: IPv6 address in brackets', of('tls', { host: '2606:4700::1111', port: 853 }), 'tls [2606:4700::1111]:853'],
    ['heartbeat: the word only', of('heartbeat', { grace_s: 60 }), 'heartbeat'],
    [
      'smtp: host, port and TLS mode',
      of('smtp', { host: 'mail.lan', port: 465, tls: 'implicit' }),
      'smtp mail.lan:465 (implicit)',
    ],
    [
      'docker: container and endpoint',
      of('docker', { container: 'web', endpoint: 'unix:///var/run/docker.sock' }),
      'docker web @ unix:///var/run/docker.sock',
    ],
    [
      'redis: the URL, which holds no password',
      of('redis', { url: 'redis://app@cache.lan/2', tls: 'off' }),
      'redis redis://app@cache.lan/2',
    ],
    [
      'redis over TLS',
      of('redis', { url: 'redis://cache.lan', tls: 'verify' }),
      'redis redis://cache.lan (tls verify)',
    ],
    [
      'postgres: the URL',
      of('postgres', { url: 'postgres://app@db.lan/shop', tls: 'require' }),
      'postgres postgres://app@db.lan/shop (tls require)',
    ],
    [
      'mysql: the URL',
      of('mysql', { url: 'mariadb://app@db.lan/shop', tls: 'off' }),
      'mysql mariadb://app@db.lan/shop',
    ],
    ['grpc: the target', of('grpc', { target: 'api.lan:50051', service: '', tls: 'off' }), 'grpc api.lan:50051'],
    [
      'grpc: a service over TLS',
      of('grpc', { target: '[::1]:50051', service: 'shop.Cart', tls: 'require' }),
      'grpc [::1]:50051 shop.Cart (tls require)',
    ],
    [
      'mqtt: the URL alone',
      of('mqtt', { url: 'mqtt://broker.lan', topic: null, tls: 'off' }),
      'mqtt mqtt://broker.lan',
    ],
    [
      'mqtt: the URL and the topic, over TLS',
      of('mqtt', { url: 'mqtts://broker.lan:8883', topic: 'home/+/state', tls: 'verify' }),
      'mqtt mqtts://broker.lan:8883 home/+/state (tls verify)',
    ],
  ])('describes %s', (_what, monitor, text) => {
    expect(describeTarget(monitor)).toBe(text);
  });

  it('never shows basic auth credentials of an http monitor', () => {
    const m = of('http', {
      method: 'GET',
      url: 'https://example.com/',
      headers: [{ name: 'Authorization', value: 'Bearer tok', secret: true }],
      auth: { type: 'basic', username: 'ops', password: 'pw' },
    });
    expect(describeTarget(m)).toBe('GET https://example.com/');
  });
});

describe('describeHost', () => {
  it.each<[string, Target, string]>([
    [
      'http: host and port of the URL, no path or credentials',
      of('http', { url: 'https://u:p@example.com:8443/x?y=1' }),
      'example.com:8443',
    ],
    ['http: an unparsable URL as is', of('http', { url: 'not a url' }), 'not a url'],
    ['dns: the resolver', of('dns', { name: 'example.com', resolver: '1.1.1.1:53' }), '1.1.1.1:53'],
    ['tcp: the host', of('tcp', { host: 'db.lan', port: 5432 }), 'db.lan'],
    ['ping: the host', of('ping', { host: 'router.lan' }), 'router.lan'],
    ['tls: the host', of('tls', { host: 'example.com', port: 443 }), 'example.com'],
    ['heartbeat: nothing', of('heartbeat', { grace_s: 60 }), ''],
    ['smtp: the host', of('smtp', { host: 'mail.lan', port: 25 }), 'mail.lan'],
    ['docker on the local socket: nothing', of('docker', { endpoint: 'unix:///var/run/docker.sock' }), ''],
    ['docker over tcp: the host', of('docker', { endpoint: 'tcp://nas.lan:2375' }), 'nas.lan'],
    ["redis: the URL's host", of('redis', { url: 'redis://app@cache.lan:6380/2' }), 'cache.lan'],
    ["grpc: the target's host", of('grpc', { target: '[fd00::5]:50051' }), 'fd00::5'],
    ["mqtt: the URL's host", of('mqtt', { url: 'mqtts://broker.lan' }), 'broker.lan'],
  ])('names %s', (_what, monitor, host) => {
    expect(describeHost(monitor)).toBe(host);
  });
});
