/**
 * The gRPC health check's pure parts: the target (`host:port`), the two messages of
 * grpc.health.v1.Health/Check in protobuf's wire format, and the verdict on the answer or on the
 * call's status. The service is defined in code (grpc.ts), not read from a .proto file: its
 * messages have one field each, written and read here by hand.
 * Sources: https://github.com/grpc/grpc/blob/master/doc/health-checking.md (the service and its
 * statuses), https://protobuf.dev/programming-guides/encoding/ (the wire format),
 * https://grpc.github.io/grpc/core/md_doc_statuscodes.html (status codes).
 */
import { isIP } from 'node:net';
import type { CheckError } from '../check-result';
import { clip } from '../judge/clip';
import { failure } from '../checkers/result-builders';

export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';

/** HealthCheckResponse.ServingStatus. */
export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

/** `host:port` (an IPv6 address in brackets), or a sentence saying what is wrong. */
export function parseGrpcTarget(text: string): { host: string; port: number } | string {
  const m = /^(\[[^\]]*\]|[^:[\]/]*):(\d{1,5})$/.exec(text);
  if (!m) return 'must be host:port, e.g. grpc.home.lan:50051 or [::1]:50051 (no scheme, no path)';
  const bracketed = m[1].startsWith('[');
  const host = bracketed ? m[1].slice(1, -1) : m[1];
  const port = Number(m[2]);
  if (bracketed ? isIP(host) !== 6 : !isIP(host) && !(HOST_NAME.test(host) && !/^[\d.]+$/.test(host)))
    return `${host || 'the host'} is not a host name or an IP address (names are ASCII: write an internationalised name in its xn-- form)`;
  if (port < 1 || port > 65535) return 'the port must be from 1 to 65535';
  return { host, port };
}

/** HealthCheckRequest {string service = 1}: empty for the server as a whole (field left out). */
export function encodeHealthRequest(service: string): Buffer {
  if (service === '') return Buffer.alloc(0);
  const text = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from([0x0a]), varint(text.length), text]);
}

/** HealthCheckResponse {ServingStatus status = 1}: the status number, or what is wrong with the bytes. */
export function decodeHealthResponse(bytes: Buffer): number | string {
  let status = 0;
  let at = 0;
  while (at < bytes.length) {
    const key = readVarint(bytes, at);
    if (key === null) return 'a field key is cut short';
    at = key.next;
    const field = Math.floor(key.value / 8);
    const wire = key.value % 8;
    if (wire === 0) {
      const v = readVarint(bytes, at);
      if (v === null) return 'a number is cut short';
      at = v.next;
      if (field === 1) status = v.value;
    } else if (wire === 2) {
      const len = readVarint(bytes, at);
      if (len === null || len.next + len.value > bytes.length) return 'a field is longer than the message';
      at = len.next + len.value;
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
      if (at > bytes.length) return 'a field is longer than the message';
    } else {
      return `wire type ${wire} is not protobuf's`;
    }
  }
  return status;
}

/** SERVING is up; the service's other statuses say why not. */
export function judgeServing(status: number, service: string): CheckError | null {
  const name = SERVING_STATUS[status] ?? `status ${status}`;
  const what = service === '' ? 'the server' : `service ${JSON.stringify(service)}`;
  if (status === 1) return null;
  if (status === 3) return failure('service_unknown', `the health service does not know ${what} (SERVICE_UNKNOWN)`);
  return failure('not_serving', `the health check says ${what} is ${name}`);
}

/** gRPC status codes by number. */
const STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/**
 * A call that ended with a status other than OK. UNAVAILABLE (the connection) is the checker's to
 * read (grpc.ts), since its details carry the socket's or TLS's error; the rest are the server's
 * answers, judged here.
 */
export function judgeCallStatus(code: number, details: string, service: string): CheckError {
  const said = clip(details.replace(/[^\x20-\x7e]/g, '?'), 200);
  const name = STATUS_NAMES[code] ?? `status ${code}`;
  const tail = said === '' ? '' : `: ${said}`;
  switch (code) {
    case 5:
      return failure(
        'service_unknown',
        `the health service does not know service ${JSON.stringify(service)} (NOT_FOUND${tail})`,
      );
    case 12:
      return failure(
        'no_health_service',
        `the server has no health service: grpc.health.v1.Health/Check is UNIMPLEMENTED there${tail}`,
      );
    case 16:
      return failure('auth_failed', `the server refused the call's credentials (UNAUTHENTICATED${tail})`);
    case 7:
      return failure('not_authorized', `the server does not allow the health check (PERMISSION_DENIED${tail})`);
  }
  return failure('query_failed', `the health check failed with ${name}${tail}`);
}

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** A varint of at most 10 bytes (a negative enum takes 10), or null when cut short. */
function readVarint(bytes: Buffer, at: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 10; i++) {
    value += (bytes[i] & 0x7f) * scale;
    scale *= 128;
    if ((bytes[i] & 0x80) === 0) return { value, next: i + 1 };
  }
  return null;
}
