/**
 * What a checker returns: facts about one probe, already judged (outcome and error).
 * Pure data; the wire shape is made by toCheckResultDto.
 */
import { toIso } from '../common/time';

export type Outcome = 'up' | 'down' | 'slow' | 'unknown';

export interface CheckError {
  code: CheckErrorCode;
  message: string;
}

/**
 * The documented set of `error.code` values (docs/checks.md lists when each is used).
 * Keep this list and the doc in step.
 */
export const CHECK_ERROR_CODES = [
  'timeout', // the whole check passed timeout_ms
  'dns', // the name did not resolve (or resolved to no address of the wanted family)
  'refused', // connection refused
  'reset', // connection reset or closed early
  'unreachable', // network or host unreachable
  'connect', // any other socket error while connecting
  'tls', // TLS handshake failed for a reason other than the certificate
  'cert_expired', // certificate expired or not yet valid
  'cert_invalid', // untrusted chain or self-signed, or name mismatch
  'cert_pin', // cert_sha256 is set and the leaf certificate has another fingerprint
  'status', // protocol status not in expect_status
  'redirects', // more than 5 redirects, or a redirect loop
  'body', // body_contains / body_not_contains failed
  'json', // a json rule failed, or the body is not JSON
  'header', // expect_header failed
  'too_slow', // slower than max_ms
  'banner', // tcp expect_banner did not match
  'no_reply', // ping: no reply came back
  'packet_loss', // ping: loss above max_loss_pct
  'nxdomain', // dns: the name does not exist
  'servfail', // dns: the resolver failed
  'no_answer', // dns: no record of that type
  'expect', // dns: no answer contains `expect`; mqtt: the message does not contain `expect`
  'protocol', // the peer spoke something we did not understand
  'private_target', // allow_private_targets is false and the address is private
  'heartbeat', // heartbeat: no ping arrived in time, or a failure was reported
  'tls_required', // TLS was asked for and the server does not offer it (or the server demands it and tls is off)
  'auth_failed', // the server refused the credentials (or the API its caller)
  'permission', // docker: the socket exists but the service user may not open it
  'not_found', // docker: no such container
  'not_running', // docker: the container exists but does not run
  'unhealthy', // docker: the container's health check does not say healthy
  'db_not_found', // the database named in the URL does not exist
  'query_failed', // the server answered the query (or PING) with an error
  'connect_failed', // mqtt: the broker refused the connection for a reason other than the credentials
  'not_authorized', // mqtt: the broker refused the subscription; grpc: PERMISSION_DENIED
  'no_message', // mqtt: no message arrived on the topic within the timeout
  'not_serving', // grpc: the health check answered NOT_SERVING (or UNKNOWN)
  'service_unknown', // grpc: the health service does not know the service asked about
  'no_health_service', // grpc: the server does not implement grpc.health.v1.Health
] as const;
export type CheckErrorCode = (typeof CHECK_ERROR_CODES)[number];

export interface CheckPhases {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  ttfb_ms: number | null;
}

export interface CertInfo {
  /** Epoch ms. */
  not_after: number;
  issuer: string;
  subject: string;
}

export interface CheckResult {
  /** Epoch ms when the check started. */
  at_ms: number;
  outcome: Outcome;
  /** Whole check, milliseconds; null when nothing was measured. */
  latency_ms: number | null;
  phases: CheckPhases;
  /** Protocol status code (HTTP status, DNS rcode), null when none. */
  status: number | null;
  error: CheckError | null;
  cert: CertInfo | null;
  detail: string | null;
}

export const NO_PHASES: CheckPhases = Object.freeze({
  dns_ms: null,
  connect_ms: null,
  tls_ms: null,
  ttfb_ms: null,
});

export interface CheckResultDto {
  at: string;
  at_ms: number;
  outcome: Outcome;
  latency_ms: number | null;
  phases: CheckPhases;
  status: number | null;
  error: CheckError | null;
  cert: { not_after: string; issuer: string; subject: string } | null;
  detail: string | null;
}

export function toCheckResultDto(r: CheckResult): CheckResultDto {
  return {
    at: toIso(r.at_ms),
    at_ms: r.at_ms,
    outcome: r.outcome,
    latency_ms: r.latency_ms,
    phases: { ...r.phases },
    status: r.status,
    error: r.error ? { code: r.error.code, message: r.error.message } : null,
    cert: r.cert ? { not_after: toIso(r.cert.not_after), issuer: r.cert.issuer, subject: r.cert.subject } : null,
    detail: r.detail,
  };
}
