import type { MonitorConfig } from '../probes/monitor-config';
import {
  bytesPerCheck,
  DNS_QUERY_BYTES,
  egressEstimate,
  HTTP_OWN_HEADER_BYTES,
  PACKET_HEADER_BYTES,
  PING_PACKET_BYTES,
  TCP_OPEN_CLOSE_BYTES,
  TLS_CLIENT_BYTES,
  TLS_RECORD_BYTES,
} from './egress';

const common = {
  name: 'm',
  slug: 'm',
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
const http = (over: Record<string, unknown> = {}, common_: Record<string, unknown> = {}) =>
  ({
    ...common,
    ...common_,
    kind: 'http',
    settings: {
      url: 'http://nas.lan/health',
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
      ...over,
    },
  }) as MonitorConfig;
const of = (kind: string, settings: Record<string, unknown>, over: Record<string, unknown> = {}) =>
  ({ ...common, ...over, kind, settings }) as unknown as MonitorConfig;

// `GET /health HTTP/1.1\r\n` is 22 bytes; the host `nas.lan` 7 (+2).
const PLAIN_GET = TCP_OPEN_CLOSE_BYTES + 22 + HTTP_OWN_HEADER_BYTES + 9 + PACKET_HEADER_BYTES;

describe('bytesPerCheck', () => {
  it.each<[string, MonitorConfig, number]>([
    ['a plain GET', http(), PLAIN_GET],
    [
      'a GET over https adds the TLS handshake and a record',
      http({ url: 'https://nas.lan/health' }),
      PLAIN_GET + TLS_CLIENT_BYTES + TLS_RECORD_BYTES,
    ],
    ['the query string counts', http({ url: 'http://nas.lan/health?x=1' }), PLAIN_GET + 4],
    [
      'each header counts (`X-A: b\\r\\n` is 8)',
      http({ headers: [{ name: 'X-A', value: 'b', secret: false }] }),
      PLAIN_GET + 8,
    ],
    [
      'a bearer token (`Authorization: Bearer abc\\r\\n` is 27)',
      http({ auth: { type: 'bearer', token: 'abc' } }),
      PLAIN_GET + 27,
    ],
    [
      'basic auth (`Authorization: Basic dTpw\\r\\n` is 27)',
      http({ auth: { type: 'basic', username: 'u', password: 'p' } }),
      PLAIN_GET + 27,
    ],
    [
      'a body with its type',
      http({ method: 'POST', body: '{"a":1}', content_type: 'application/json' }),
      PLAIN_GET + 1 + 7 + 16 + 16 + 20,
    ],
    ['a tcp connect', of('tcp', { host: 'db', port: 5432, send: null }), TCP_OPEN_CLOSE_BYTES],
    [
      'a tcp connect that sends text',
      of('tcp', { host: 'db', port: 25, send: 'QUIT\r\n' }),
      TCP_OPEN_CLOSE_BYTES + 6 + PACKET_HEADER_BYTES,
    ],
    ['a tls handshake', of('tls', { host: 'x', port: 443 }), TCP_OPEN_CLOSE_BYTES + TLS_CLIENT_BYTES],
    ['three pings', of('ping', { host: 'x', packets: 3 }), 3 * PING_PACKET_BYTES],
    ['a DNS query (example.com is 11)', of('dns', { name: 'example.com.', record: 'A' }), DNS_QUERY_BYTES + 11],
    ['a heartbeat sends nothing', of('heartbeat', { grace_s: 60 }), 0],
    ['smtp in plain text: EHLO and QUIT', of('smtp', { host: 'm', port: 25, tls: 'none' }), 268 + 2 * (30 + 52)],
    [
      'smtp with STARTTLS: two EHLOs, STARTTLS, QUIT',
      of('smtp', { host: 'm', port: 587, tls: 'starttls' }),
      268 + 756 + 4 * (30 + 52),
    ],
    [
      'docker on the local socket sends nothing',
      of('docker', { container: 'web', endpoint: 'unix:///run/docker.sock' }),
      0,
    ],
    ['redis: PING only', of('redis', { url: 'redis://c', password: null, tls: 'off' }), 268 + 92],
    [
      'redis: AUTH, SELECT and PING over TLS',
      of('redis', { url: 'redis://c/2', password: 'p', tls: 'verify' }),
      268 + 756 + 3 * 92,
    ],
    [
      'postgres: SELECT 1 in plain text',
      of('postgres', { url: 'postgres://d/x', password: null, query: 'SELECT 1', tls: 'off' }),
      268 + 300 + 8 + 5 * 52,
    ],
    ['docker over tcp', of('docker', { container: 'web', endpoint: 'tcp://nas:2375' }), 268 + 70 + 3 + 52],
  ])('%s', (_what, config, bytes) => {
    expect(bytesPerCheck(config)).toBe(bytes);
  });
});

describe('egressEstimate', () => {
  it('multiplies by the checks a day of each running monitor and sums by kind', () => {
    const est = egressEstimate([
      http({}, { interval_s: 60 }),
      http({}, { interval_s: 30 }),
      http({}, { interval_s: 10, paused: true }),
      of('ping', { host: 'x', packets: 1 }, { interval_s: 86_400 }),
      of('heartbeat', { grace_s: 60 }, { interval_s: 3600 }),
    ]);
    expect(est).toEqual({
      bytes_per_day: (1440 + 2880) * PLAIN_GET + PING_PACKET_BYTES,
      checks_per_day: 1440 + 2880 + 1 + 24,
      by_kind: {
        http: { monitors: 2, checks_per_day: 4320, bytes_per_day: 4320 * PLAIN_GET },
        ping: { monitors: 1, checks_per_day: 1, bytes_per_day: PING_PACKET_BYTES },
        heartbeat: { monitors: 1, checks_per_day: 24, bytes_per_day: 0 },
      },
    });
  });

  it('is zero without running monitors', () => {
    expect(egressEstimate([])).toEqual({ bytes_per_day: 0, checks_per_day: 0, by_kind: {} });
  });
});
