import { kindOf } from './kuma-kinds';

const ok = (row: Record<string, unknown>) => {
  const k = kindOf(row);
  if (!k.ok) throw new Error(k.reason);
  return k;
};
const http = (over: Record<string, unknown>) => ({
  type: 'http',
  url: 'https://a.example/',
  accepted_statuscodes_json: '["200-299"]',
  ...over,
});

describe('kindOf: every Kuma type the importer maps', () => {
  it.each([
    [
      http({}),
      'http',
      {
        url: 'https://a.example/',
        method: 'GET',
        expect_status: '200-299',
        tls_verify: true,
        follow_redirects: true,
        auth: null,
        body: null,
      },
    ],
    [
      http({ ignore_tls: 1, maxredirects: 0, method: 'post', body: '{"a":1}', http_body_encoding: 'json' }),
      'http',
      { tls_verify: false, follow_redirects: false, method: 'POST', body: '{"a":1}', content_type: 'application/json' },
    ],
    [http({ body: 'a=1', http_body_encoding: 'form' }), 'http', { content_type: 'application/x-www-form-urlencoded' }],
    [
      http({ accepted_statuscodes_json: '["200-299","301","401-403"]' }),
      'http',
      { expect_status: '200-299,301,401-403' },
    ],
    [
      http({ headers: '{"X-A":"1","X-N":2}' }),
      'http',
      {
        headers: [
          { name: 'X-A', value: '1' },
          { name: 'X-N', value: '2' },
        ],
      },
    ],
    [
      http({ auth_method: 'basic', basic_auth_user: 'u', basic_auth_pass: 'p' }),
      'http',
      { auth: { type: 'basic', username: 'u', password: 'p' } },
    ],
    [
      http({ auth_method: null, basic_auth_user: 'u', basic_auth_pass: 'p' }),
      'http',
      { auth: { type: 'basic', username: 'u', password: 'p' } },
    ],
    [http({ auth_method: 'bearer', bearer_token: 't0k' }), 'http', { auth: { type: 'bearer', token: 't0k' } }],
    [http({ type: 'keyword', keyword: 'Hello' }), 'http', { body_contains: 'Hello' }],
    [http({ type: 'keyword', keyword: 'Error', invert_keyword: 1 }), 'http', { body_not_contains: 'Error' }],
    [
      http({ type: 'json-query', json_path: 'data.status', expected_value: 'ok' }),
      'http',
      { json: [{ path: '$.data.status', op: '==', value: 'ok' }] },
    ],
    [
      http({ type: 'json-query', json_path: '$.items[0].n', json_path_operator: '>', expected_value: '5' }),
      'http',
      { json: [{ path: '$.items[0].n', op: '>', value: 5 }] },
    ],
    [http({ upside_down: 1 }), 'http', { expect_status: '100-199,300-599' }],
    [http({ type: 'keyword', keyword: 'Up', upside_down: 1 }), 'http', { body_not_contains: 'Up' }],
    [
      http({ type: 'json-query', json_path: 'ok', expected_value: 'true', upside_down: 1 }),
      'http',
      { json: [{ path: '$.ok', op: '!=', value: true }] },
    ],
    [{ type: 'port', hostname: 'nas.lan', port: 22 }, 'tcp', { host: 'nas.lan', port: 22 }],
    [{ type: 'ping', hostname: '10.0.0.1' }, 'ping', { host: '10.0.0.1' }],
    [
      { type: 'dns', hostname: 'example.com', dns_resolve_type: 'MX', dns_resolve_server: '9.9.9.9', port: 53 },
      'dns',
      { name: 'example.com', record: 'MX', resolver: '9.9.9.9' },
    ],
    [
      { type: 'dns', hostname: 'example.com', dns_resolve_server: '192.168.1.2', port: 5353 },
      'dns',
      { record: 'A', resolver: '192.168.1.2:5353' },
    ],
    [{ type: 'push', push_token: 'x' }, 'heartbeat', {}],
    [
      { type: 'docker', docker_container: 'plex', docker_endpoint: 'unix:///var/run/docker.sock' },
      'docker',
      { container: 'plex', endpoint: 'unix:///var/run/docker.sock', require_healthy: true },
    ],
    [
      { type: 'postgres', database_connection_string: 'postgres://u:p@db:5432/app', database_query: 'SELECT 2' },
      'postgres',
      { url: 'postgres://u:p@db:5432/app', query: 'SELECT 2', tls: 'off' },
    ],
    [
      { type: 'postgres', database_connection_string: 'postgres://u:p@db/app?sslmode=require' },
      'postgres',
      { tls: 'require' },
    ],
    [
      { type: 'mysql', database_connection_string: 'mysql://u:p@db:3306/app' },
      'mysql',
      { url: 'mysql://u:p@db:3306/app', tls: 'off' },
    ],
    [
      { type: 'mariadb', database_connection_string: 'mariadb://u:p@db:3306/app' },
      'mysql',
      { url: 'mariadb://u:p@db:3306/app' },
    ],
    [
      { type: 'redis', database_connection_string: 'redis://:p@cache:6379' },
      'redis',
      { url: 'redis://:p@cache:6379', tls: 'off' },
    ],
    [{ type: 'redis', database_connection_string: 'rediss://cache:6380', ignore_tls: 1 }, 'redis', { tls: 'require' }],
    [
      {
        type: 'mqtt',
        hostname: 'broker.lan',
        port: 1883,
        mqtt_topic: 't',
        mqtt_success_message: 'on',
        mqtt_username: 'u',
        mqtt_password: 'p',
      },
      'mqtt',
      { url: 'mqtt://broker.lan:1883', tls: 'off', topic: 't', expect: 'on', username: 'u', password: 'p' },
    ],
    [
      { type: 'mqtt', hostname: 'mqtts://broker.lan', port: 8883 },
      'mqtt',
      { url: 'mqtts://broker.lan:8883', tls: 'verify' },
    ],
    [
      {
        type: 'mqtt',
        hostname: 'broker.lan',
        port: 1884,
        mqtt_topic: 'ups/state',
        mqtt_check_type: 'json-query',
        json_path: '$.charge',
        json_path_operator: '>',
        expected_value: '50',
      },
      'mqtt',
      { url: 'mqtt://broker.lan:1884', topic: 'ups/state', json: [{ path: '$.charge', op: '>', value: 50 }] },
    ],
    [
      { type: 'smtp', hostname: 'mail.lan', port: 465, smtp_security: 'secure' },
      'smtp',
      { host: 'mail.lan', port: 465, tls: 'implicit' },
    ],
    [{ type: 'smtp', hostname: 'mail.lan', port: 587 }, 'smtp', { tls: 'starttls' }],
    [
      { type: 'grpc-keyword', grpc_url: 'grpc.lan:50051', grpc_service_name: 'api.Orders', grpc_enable_tls: 1 },
      'grpc',
      { target: 'grpc.lan:50051', service: '', tls: 'verify' },
    ],
    [
      {
        type: 'grpc-keyword',
        grpc_url: '10.0.0.5:9090',
        grpc_service_name: 'grpc.health.v1.Health',
        grpc_method: 'Check',
        grpc_body: '{"service":"shop.Cart"}',
      },
      'grpc',
      { target: '10.0.0.5:9090', service: 'shop.Cart', tls: 'off' },
    ],
  ])('%j → %s %j', (row, kind, settings) => {
    const k = ok(row);
    expect(k.kind).toBe(kind);
    expect(k.settings).toMatchObject(settings);
  });

  it.each([
    [http({ accepted_statuscodes_json: '["200-299"' }), 'accepted_statuscodes_json is not valid JSON'],
    [
      http({ accepted_statuscodes_json: '[200]' }),
      'accepted_statuscodes_json is not a list of status codes and ranges such as "200-299"',
    ],
    [
      http({ accepted_statuscodes_json: '[]' }),
      'accepted_statuscodes_json is not a list of status codes and ranges such as "200-299"',
    ],
    [http({ headers: '{oops' }), 'headers is not valid JSON'],
    [http({ headers: '["a"]' }), 'headers is not a JSON object of header names and values'],
    [http({ url: '' }), 'it has no URL'],
    [http({ type: 'keyword', keyword: '' }), 'a keyword monitor without a keyword'],
    [
      http({ type: 'json-query', json_path: '$count(items) > 2' }),
      'the JSON query "$count(items) > 2" is a JSONata expression, not a plain path',
    ],
    [
      http({ type: 'json-query', json_path: 'a', json_path_operator: 'matches' }),
      'the JSON query operator "matches" has no counterpart here',
    ],
    [
      http({ type: 'json-query', json_path: 'a', json_path_operator: 'contains', upside_down: 1 }),
      'upside-down mode with the operator "contains" cannot be expressed',
    ],
    [
      http({ upside_down: 1, accepted_statuscodes_json: '["100-599"]' }),
      'upside-down mode over every status code cannot be expressed',
    ],
    [{ type: 'port', hostname: 'h', port: 70000 }, 'port 70000 is not a port number (1-65535)'],
    [
      { type: 'dns', hostname: 'a.example', dns_resolve_type: 'SRV' },
      'DNS record type SRV has no counterpart here (A, AAAA, CNAME, MX, TXT, NS)',
    ],
    [
      { type: 'postgres', database_connection_string: 'Server=db;Database=app' },
      'the connection string is not a postgres:// URL',
    ],
    [{ type: 'smtp', hostname: 'mail', port: 2525 }, 'SMTP port 2525: this service checks ports 25, 465 and 587'],
    [{ type: 'grpc-keyword', grpc_url: 'https://grpc.lan' }, 'the gRPC URL is not host:port'],
    [
      { type: 'mqtt', hostname: 'ws://broker.lan', port: 9001 },
      'MQTT over WebSocket has no counterpart here (mqtt:// and mqtts:// only)',
    ],
    [
      { type: 'mqtt', hostname: 'broker.lan', mqtt_topic: 't', mqtt_check_type: 'json-query', json_path: '$count(a)' },
      'the JSON query "$count(a)" is a JSONata expression, not a plain path',
    ],
    [{ type: 'real-browser' }, 'Kuma\'s "real-browser" monitors have no counterpart here'],
    [{ type: null }, 'it has no type'],
  ])('refuses %j: %s', (row, reason) => {
    expect(kindOf(row)).toEqual({ ok: false, reason });
  });

  it('imports an http monitor with NTLM authentication paused, saying why', () => {
    const k = ok(http({ auth_method: 'ntlm', basic_auth_user: 'u' }));
    expect(k.pause).toMatch(/ntlm authentication is not supported here/);
    expect(k.settings.auth).toBeNull();
  });
});
