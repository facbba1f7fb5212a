/**
 * One Kuma monitor's type and columns → this service's `kind` and the settings under it
 * (docs/import-kuma.md "Monitors"). The kinds of extensions.md section 4 (docker, postgres, mysql,
 * redis, mqtt, smtp, grpc) are built with that section's field names whether or not this service
 * has them yet: kuma-plan.ts asks the kind list (probes/kinds.ts) and skips what it lacks. Pure;
 * how each column is used follows Kuma's server/model/monitor.js (commit 6398a958).
 */
import type { KumaRow } from './kuma-data';
import { bool, json, num, str } from './kuma-values';

export type KindResult =
  | { ok: true; kind: string; settings: Record<string, unknown>; notes: string[]; pause?: string }
  | { ok: false; reason: string };

const fail = (reason: string): KindResult => ({ ok: false, reason });

/** Kuma type → builder. A type not here is skipped with its name. */
const BUILDERS: Record<string, (r: KumaRow) => KindResult> = {
  http: (r) => http(r, 'http'),
  keyword: (r) => http(r, 'keyword'),
  'json-query': (r) => http(r, 'json-query'),
  port: tcp,
  ping,
  dns,
  push: () => ({ ok: true, kind: 'heartbeat', settings: {}, notes: [] }),
  docker,
  postgres: (r) => database(r, 'postgres'),
  mysql: (r) => database(r, 'mysql'),
  mariadb: (r) => database(r, 'mysql'),
  redis,
  mqtt,
  smtp,
  'grpc-keyword': grpc,
};

export const MAPPED_KUMA_TYPES = Object.keys(BUILDERS);

export function kindOf(row: KumaRow): KindResult {
  const type = str(row.type);
  if (type === null) return fail('it has no type');
  const build = BUILDERS[type];
  if (!build) return fail(`Kuma's "${type.slice(0, 40)}" monitors have no counterpart here`);
  return build(row);
}

// ---- http, keyword, json-query ------------------------------------------------------------------

const BODY_TYPES: Record<string, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'application/xml',
};
const JSON_OPS = ['==', '!=', '<', '<=', '>', '>=', 'contains'];
const INVERSE_OP: Record<string, string> = { '==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
const CODE_RANGE = /^(\d{3})(?:-(\d{3}))?$/;

function http(r: KumaRow, type: 'http' | 'keyword' | 'json-query'): KindResult {
  const notes: string[] = [];
  const url = str(r.url);
  if (!url) return fail('it has no URL');
  const method = (str(r.method) ?? 'GET').toUpperCase();

  const codes = json(r.accepted_statuscodes_json);
  if (codes === undefined) return fail('accepted_statuscodes_json is not valid JSON');
  const list = codes === null ? ['200-299'] : codes;
  if (!Array.isArray(list) || list.length === 0 || !list.every((c) => typeof c === 'string' && CODE_RANGE.test(c)))
    return fail('accepted_statuscodes_json is not a list of status codes and ranges such as "200-299"');
  let expectStatus = (list as string[]).join(',');

  const rawHeaders = json(r.headers);
  if (rawHeaders === undefined) return fail('headers is not valid JSON');
  if (rawHeaders !== null && (typeof rawHeaders !== 'object' || Array.isArray(rawHeaders)))
    return fail('headers is not a JSON object of header names and values');
  const headers = Object.entries((rawHeaders ?? {}) as Record<string, unknown>).map(([name, value]) => ({
    name,
    value: typeof value === 'string' ? value : JSON.stringify(value),
  }));

  let auth: Record<string, unknown> | null = null;
  let pause: string | undefined;
  const method_ = str(r.auth_method);
  const user = str(r.basic_auth_user);
  if (method_ === 'basic' || (method_ === null && user !== null)) {
    auth = {
      type: 'basic',
      username: user ?? '',
      password: typeof r.basic_auth_pass === 'string' ? r.basic_auth_pass : '',
    };
  } else if (method_ === 'bearer') {
    const token = str(r.bearer_token);
    if (token) auth = { type: 'bearer', token };
  } else if (method_ !== null) {
    pause = `imported paused: Kuma's ${method_} authentication is not supported here, so the check would fail`;
  }

  const body = typeof r.body === 'string' && r.body !== '' ? r.body : null;
  const encoding = str(r.http_body_encoding) ?? 'json';
  const settings: Record<string, unknown> = {
    url,
    method,
    headers,
    body,
    content_type: body === null ? null : (BODY_TYPES[encoding] ?? null),
    auth,
    follow_redirects: (num(r.maxredirects) ?? 10) > 0,
    tls_verify: !bool(r.ignore_tls, false),
    expect_status: expectStatus,
  };
  const upsideDown = bool(r.upside_down, false);

  if (type === 'keyword') {
    const keyword = typeof r.keyword === 'string' ? r.keyword : '';
    if (keyword === '') return fail('a keyword monitor without a keyword');
    const invert = bool(r.invert_keyword, false) !== upsideDown;
    settings[invert ? 'body_not_contains' : 'body_contains'] = keyword;
    if (upsideDown)
      notes.push('upside-down mode: the keyword rule is inverted; a failing status code still counts as down');
  } else if (type === 'json-query') {
    const rule = jsonRule(r, upsideDown);
    if (!rule.ok) return fail(rule.reason);
    settings.json = [rule.rule];
    if (upsideDown)
      notes.push('upside-down mode: the JSON rule is inverted; a failing status code still counts as down');
  } else if (upsideDown) {
    // Up when the status is not accepted: the complement of the accepted codes among 100-599.
    expectStatus = complement(list as string[]);
    if (!expectStatus) return fail('upside-down mode over every status code cannot be expressed');
    settings.expect_status = expectStatus;
    notes.push(
      `upside-down mode: up on the other status codes (${expectStatus}); a connection failure still counts as down`,
    );
  }
  return { ok: true, kind: 'http', settings, notes, pause };
}

/** Kuma's JSON query is JSONata; a plain path (`data.items[0].status`, `$.status`) is what a JSON rule takes. */
function jsonRule(
  r: KumaRow,
  invert: boolean,
): { ok: true; rule: Record<string, unknown> } | { ok: false; reason: string } {
  const expr = str(r.json_path);
  if (!expr) return { ok: false, reason: 'a json-query monitor without a query' };
  const path = expr.replace(/^\$\.?/, '');
  if (!/^[A-Za-z_][\w-]*(?:\[\d+\])*(?:\.[A-Za-z_][\w-]*(?:\[\d+\])*)*$/.test(path))
    return { ok: false, reason: `the JSON query "${expr.slice(0, 80)}" is a JSONata expression, not a plain path` };
  let op = str(r.json_path_operator) ?? '==';
  if (!JSON_OPS.includes(op))
    return { ok: false, reason: `the JSON query operator "${op.slice(0, 20)}" has no counterpart here` };
  if (invert) {
    if (!INVERSE_OP[op]) return { ok: false, reason: `upside-down mode with the operator "${op}" cannot be expressed` };
    op = INVERSE_OP[op];
  }
  const raw = typeof r.expected_value === 'string' ? r.expected_value : String(r.expected_value ?? '');
  const value = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw;
  return { ok: true, rule: { path: `$.${path}`, op, value } };
}

function complement(accepted: string[]): string {
  const ok = new Array<boolean>(600).fill(false);
  for (const c of accepted) {
    const [, a, b] = CODE_RANGE.exec(c)!;
    for (let s = Number(a); s <= Number(b ?? a) && s < 600; s++) ok[s] = true;
  }
  const parts: string[] = [];
  for (let s = 100; s < 600; s++) {
    if (ok[s]) continue;
    let e = s;
    while (e + 1 < 600 && !ok[e + 1]) e++;
    parts.push(s === e ? String(s) : `${s}-${e}`);
    s = e;
  }
  return parts.join(',');
}

// ---- the network kinds ---------------------------------------------------------------------------

function hostPort(r: KumaRow, what: string): { host: string; port: number } | { error: string } {
  const host = str(r.hostname);
  if (!host) return { error: `a ${what} monitor without a host name` };
  const port = num(r.port);
  if (port === null || !Number.isInteger(port) || port < 1 || port > 65535)
    return { error: `port ${String(r.port).slice(0, 20)} is not a port number (1-65535)` };
  return { host, port };
}

function tcp(r: KumaRow): KindResult {
  const hp = hostPort(r, 'port');
  if ('error' in hp) return fail(hp.error);
  return { ok: true, kind: 'tcp', settings: { host: hp.host, port: hp.port }, notes: [] };
}

function ping(r: KumaRow): KindResult {
  const host = str(r.hostname);
  if (!host) return fail('a ping monitor without a host name');
  const notes =
    num(r.packet_size) !== null && num(r.packet_size) !== 56
      ? ['the packet size is not kept (pings here are 56 bytes)']
      : [];
  return { ok: true, kind: 'ping', settings: { host }, notes };
}

const DNS_RECORDS = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'];

function dns(r: KumaRow): KindResult {
  const name = str(r.hostname);
  if (!name) return fail('a DNS monitor without a name to resolve');
  const record = (str(r.dns_resolve_type) ?? 'A').toUpperCase();
  if (!DNS_RECORDS.includes(record))
    return fail(`DNS record type ${record.slice(0, 10)} has no counterpart here (${DNS_RECORDS.join(', ')})`);
  const server = str(r.dns_resolve_server) ?? '1.1.1.1';
  const port = num(r.port);
  const resolver = port && port !== 53 ? (server.includes(':') ? `[${server}]:${port}` : `${server}:${port}`) : server;
  return { ok: true, kind: 'dns', settings: { name, record, resolver }, notes: [] };
}

function docker(r: KumaRow & { docker_endpoint?: unknown }): KindResult {
  const container = str(r.docker_container);
  if (!container) return fail('a docker monitor without a container');
  const endpoint = str(r.docker_endpoint);
  return {
    ok: true,
    kind: 'docker',
    settings: { container, ...(endpoint ? { endpoint } : {}), require_healthy: true },
    notes: [],
  };
}

function database(r: KumaRow, kind: 'postgres' | 'mysql'): KindResult {
  const url = str(r.database_connection_string);
  if (!url) return fail(`a ${kind} monitor without a connection string`);
  const scheme = kind === 'postgres' ? /^postgres(ql)?:\/\//i : /^(mysql|mariadb):\/\//i;
  if (!scheme.test(url)) return fail(`the connection string is not a ${kind}:// URL`);
  const query = str(r.database_query);
  const tls = /[?&](sslmode=(require|verify-ca|verify-full)|ssl=true)/i.test(url) ? 'require' : 'off';
  return { ok: true, kind, settings: { url, ...(query ? { query } : {}), tls }, notes: [] };
}

function redis(r: KumaRow): KindResult {
  const url = str(r.database_connection_string);
  if (!url || !/^rediss?:\/\//i.test(url)) return fail('the connection string is not a redis:// or rediss:// URL');
  const tls = /^rediss:/i.test(url) ? (bool(r.ignore_tls, false) ? 'require' : 'verify') : 'off';
  return { ok: true, kind: 'redis', settings: { url, tls }, notes: [] };
}

/** Kuma's MQTT monitor (server/monitor-types/mqtt.js): a keyword in the message, or a JSON query on it. */
function mqtt(r: KumaRow): KindResult {
  const host = str(r.hostname);
  if (!host) return fail('an MQTT monitor without a host name');
  if (/^(wss?|https?):\/\//i.test(host))
    return fail('MQTT over WebSocket has no counterpart here (mqtt:// and mqtts:// only)');
  const port = num(r.port) ?? 1883;
  const base = /^mqtts?:\/\//i.test(host) ? host.replace(/\/+$/, '') : `mqtt://${host}`;
  const url = /:\d+$/.test(base.replace(/^mqtts?:\/\//i, '')) ? base : `${base}:${port}`;
  const notes: string[] = [];
  const topic = str(r.mqtt_topic);
  const settings: Record<string, unknown> = { url, tls: /^mqtts:/i.test(url) ? 'verify' : 'off' };
  if (str(r.mqtt_username)) settings.username = str(r.mqtt_username);
  if (typeof r.mqtt_password === 'string' && r.mqtt_password !== '') settings.password = r.mqtt_password;
  if (topic) {
    settings.topic = topic;
    notes.push('the first message on the topic decides, a retained one too (recent Kuma waits for a live one)');
    const check = str(r.mqtt_check_type) ?? 'keyword';
    if (check === 'json-query') {
      const rule = jsonRule(r, false);
      if (!rule.ok) return fail(rule.reason);
      settings.json = [rule.rule];
    } else if (check === 'keyword') {
      const expect = str(r.mqtt_success_message);
      if (expect) settings.expect = expect;
    } else {
      return fail(`Kuma's MQTT check type "${check.slice(0, 40)}" has no counterpart here`);
    }
  }
  return { ok: true, kind: 'mqtt', settings, notes };
}

const SMTP_TLS: Record<string, string> = { secure: 'implicit', starttls: 'starttls', nostarttls: 'none' };

function smtp(r: KumaRow): KindResult {
  const hp = hostPort(r, 'SMTP');
  if ('error' in hp) return fail(hp.error);
  if (![25, 465, 587].includes(hp.port)) return fail(`SMTP port ${hp.port}: this service checks ports 25, 465 and 587`);
  const tls = SMTP_TLS[str(r.smtp_security) ?? ''] ?? (hp.port === 465 ? 'implicit' : 'starttls');
  return { ok: true, kind: 'smtp', settings: { host: hp.host, port: hp.port, tls }, notes: [] };
}

/**
 * Kuma's gRPC monitor (server/monitor-types/grpc.js) calls any method of a .proto it is given and
 * looks for a keyword; here the check is the standard health service. When Kuma called that same
 * service (grpc.health.v1.Health/Check), the service it asked about is read from its request body.
 */
function grpc(r: KumaRow): KindResult {
  const target = str(r.grpc_url);
  if (!target || !/^[^\s/]+:\d{1,5}$/.test(target)) return fail('the gRPC URL is not host:port');
  const method = str(r.grpc_method);
  const serviceName = str(r.grpc_service_name) ?? '';
  const calledHealth = /(^|\.)Health$/.test(serviceName) && method === 'Check';
  let service = '';
  const notes: string[] = [];
  if (calledHealth) {
    const body = json(r.grpc_body);
    if (body && typeof body === 'object' && typeof (body as { service?: unknown }).service === 'string')
      service = (body as { service: string }).service;
  } else {
    notes.push(
      `Kuma called ${serviceName || 'a service'}/${method ?? 'a method'} and looked for a keyword in the answer; here the server's standard health check (grpc.health.v1) must answer SERVING`,
    );
  }
  return {
    ok: true,
    kind: 'grpc',
    settings: { target, service, tls: bool(r.grpc_enable_tls, false) ? 'verify' : 'off' },
    notes,
  };
}
