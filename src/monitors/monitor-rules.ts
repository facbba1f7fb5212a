/**
 * Rules of a monitor body that span fields or need parsing. Runs after the DTO checks (types and
 * bounds) passed, on a body with defaults filled in. Pure: returns field errors, changes nothing.
 */
import * as net from 'node:net';
import { parseExpectStatus } from '../probes/judge/expect-status';
import { normalizeCertSha256 } from '../probes/judge/cert-pin';
import { parseJsonPath } from '../probes/judge/json-path';
import type { FieldError } from '../common/http/api-error';
import { fieldValueProblem, isFieldName } from '../common/validation/text-rules';
import { parseIso } from '../common/time';
import type { HttpAuthDto, HttpSettingsDto, JsonRuleDto } from './dto/kind-settings.dto';
import { MAX_BODY_BYTES } from './dto/kind-settings.dto';
import type { MonitorDto } from './dto/monitor.dto';
import { CHECK_INTERVAL, HEARTBEAT_INTERVAL } from './monitor-defaults';
import type { MonitorKind } from '../probes/kinds';
import { serviceRuleErrors } from './service-rules';

const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

const CERT_SHA256_MESSAGE =
  'must be the SHA-256 fingerprint of the certificate: 64 hex digits, with or without colons (openssl x509 -noout -fingerprint -sha256 prints it), or null';

export function isHostOrIp(text: string): boolean {
  if (net.isIP(text) !== 0) return true;
  // RFC 1123 2.1: a host name is never all digits and dots, so 999.1.1.1 is a bad address, not a name.
  return HOSTNAME.test(text) && !/^[\d.]+$/.test(text);
}

/** An IP with optional port: `1.1.1.1`, `1.1.1.1:5353`, `::1`, `[::1]:5353`. */
export function parseResolver(text: string): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(text);
  const host = m ? m[1] : text;
  const port = m?.[2] === undefined ? 53 : Number(m[2]);
  if (!net.isIP(host) || port < 1 || port > 65535) return null;
  return { host, port };
}

export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export function monitorRuleErrors(m: MonitorDto, raw: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message });
  const kind = m.kind as MonitorKind;

  if (typeof raw[kind] !== 'object' || raw[kind] === null || Array.isArray(raw[kind])) {
    add(kind, `required: the ${kind} settings object`);
  }

  const range = kind === 'heartbeat' ? HEARTBEAT_INTERVAL : CHECK_INTERVAL;
  if (m.interval_s < range.min || m.interval_s > range.max) {
    add('interval_s', `must be from ${range.min} to ${range.max} for a ${kind} monitor`);
  }
  if (kind !== 'heartbeat' && m.timeout_ms > m.interval_s * 1000)
    add('timeout_ms', 'must not be longer than the interval');
  if (m.retry_interval_s > m.interval_s) add('retry_interval_s', 'must not be longer than the interval');
  if (m.remind_every_min !== 0 && m.remind_every_min < 5)
    add('remind_every_min', 'must be 0 (never) or from 5 to 10080');
  if (m.runbook_url !== null && !isHttpUrl(m.runbook_url)) add('runbook_url', 'must be an http or https URL');
  if (m.muted_until !== null && parseIso(m.muted_until) === null) {
    add('muted_until', 'must be an RFC 3339 time such as 2026-12-01T08:00:00.000Z, or null');
  }

  // Probe locations (docs/agents.md): a quorum no listing could reach is a mistake to name now.
  if (m.quorum !== null && m.quorum > m.locations.length)
    add('quorum', `must be from 1 to ${m.locations.length} (the number of locations), or null for a majority`);
  if (kind === 'heartbeat' && (m.locations.length !== 1 || m.locations[0] !== 'local'))
    add('locations', 'a heartbeat monitor receives pings at the service: its only location is "local"');

  if (kind === 'http' && m.http) httpRuleErrors(m.http, add);
  if (kind === 'tcp' && m.tcp && !isHostOrIp(m.tcp.host)) add('tcp.host', 'must be a host name or an IP address');
  if (kind === 'ping' && m.ping && !isHostOrIp(m.ping.host)) add('ping.host', 'must be a host name or an IP address');
  if (kind === 'tls' && m.tls) {
    if (!isHostOrIp(m.tls.host)) add('tls.host', 'must be a host name or an IP address');
    if (m.tls.sni !== null && !HOSTNAME.test(m.tls.sni)) add('tls.sni', 'must be a host name');
    if (m.tls.cert_sha256 !== null && !normalizeCertSha256(m.tls.cert_sha256))
      add('tls.cert_sha256', CERT_SHA256_MESSAGE);
  }
  if (kind === 'dns' && m.dns) {
    if (!HOSTNAME.test(m.dns.name)) add('dns.name', 'must be a domain name');
    if (!parseResolver(m.dns.resolver))
      add('dns.resolver', 'must be an IP address with an optional :port, e.g. 1.1.1.1 or [2606:4700::1111]:53');
  }
  errors.push(...serviceRuleErrors(m, kind, isHostOrIp));
  return errors;
}

function httpRuleErrors(h: HttpSettingsDto, add: (field: string, message: string) => void): void {
  if (!isHttpUrl(h.url)) add('http.url', 'must be an http:// or https:// URL with a host');
  if (h.resolve_to !== null && !net.isIP(h.resolve_to)) add('http.resolve_to', 'must be an IP address');
  if (h.cert_sha256 !== null && !normalizeCertSha256(h.cert_sha256)) add('http.cert_sha256', CERT_SHA256_MESSAGE);
  const status = parseExpectStatus(h.expect_status);
  if (!status.ok) add('http.expect_status', status.message);
  if (h.body !== null && Buffer.byteLength(h.body) > MAX_BODY_BYTES) add('http.body', 'must be at most 64 KB');
  if (h.auth) authErrors(h.auth, add);
  // Whatever is sent as a header must be a valid RFC 9110 field, or every check fails when Node refuses it.
  const headerValue = (field: string, text: string) => {
    const problem = fieldValueProblem(text);
    if (problem) add(field, problem);
  };
  h.headers.forEach((header, i) => {
    if (!isFieldName(header.name)) add(`http.headers[${i}].name`, HEADER_NAME_MESSAGE);
    headerValue(`http.headers[${i}].value`, header.value);
  });
  if (h.expect_header) {
    if (!isFieldName(h.expect_header.name)) add('http.expect_header.name', HEADER_NAME_MESSAGE);
    // Compared with a received header value: text no header can carry would never match.
    headerValue('http.expect_header.contains', h.expect_header.contains);
  }
  if (h.content_type !== null) headerValue('http.content_type', h.content_type);
  h.json.forEach((rule, i) => jsonRuleErrors(rule, `http.json[${i}]`, add));
}

const HEADER_NAME_MESSAGE = "must be a valid HTTP header name (letters, digits and !#$%&'*+.^_`|~-)";

function authErrors(a: HttpAuthDto, add: (field: string, message: string) => void): void {
  if (a.type === 'basic') {
    if (a.username === undefined) add('http.auth.username', 'required for basic auth');
    if (a.password === undefined) add('http.auth.password', 'required for basic auth');
    if (a.token !== undefined) add('http.auth.token', 'belongs to bearer auth, not basic');
    if (a.username?.includes(':')) add('http.auth.username', 'must not contain ":"');
  } else {
    if (a.token === undefined || a.token === '') add('http.auth.token', 'required for bearer auth');
    // Sent as `Authorization: Bearer <token>` (basic credentials are base64-encoded, so any text fits there).
    const problem = a.token === undefined ? null : fieldValueProblem(a.token);
    if (problem) add('http.auth.token', problem);
    if (a.username !== undefined) add('http.auth.username', 'belongs to basic auth, not bearer');
    if (a.password !== undefined) add('http.auth.password', 'belongs to basic auth, not bearer');
  }
}

function jsonRuleErrors(rule: JsonRuleDto, path: string, add: (field: string, message: string) => void): void {
  const parsed = parseJsonPath(rule.path);
  if (!parsed.ok) add(`${path}.path`, parsed.message);
  const needsValue = rule.op !== 'exists' && rule.op !== 'not_exists';
  if (needsValue && rule.value === undefined) add(`${path}.value`, `required for op ${rule.op}`);
  if (!needsValue && rule.value !== undefined && rule.value !== null)
    add(`${path}.value`, `op ${rule.op} takes no value`);
  if (['<', '<=', '>', '>='].includes(rule.op) && rule.value !== undefined) {
    const v = rule.value;
    const numeric =
      typeof v === 'number' || (typeof v === 'string' && /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(v));
    if (!numeric) add(`${path}.value`, `op ${rule.op} compares numbers: give a number`);
  }
}
