/**
 * An estimate of the bytes the checks send out per day (GET /diagnostics `egress`), for owners
 * on metered links. Pure. Counts what this machine sends (IPv4 headers included), for a check
 * that goes as planned: one attempt, no redirects, no re-checks after failures, no name lookups
 * (those are usually answered by a local cache). docs/diagnostics.md gives the figures below.
 */
import type { MonitorConfig } from '../probes/monitor-config';
import { MONITOR_KINDS, MonitorKind } from '../probes/kinds';

/** IPv4 (20) + TCP with the timestamp option (32). */
export const PACKET_HEADER_BYTES = 52;
/** What this side sends to open and close a TCP connection: SYN (60), the handshake ACK, FIN and two ACKs. */
export const TCP_OPEN_CLOSE_BYTES = 60 + 4 * PACKET_HEADER_BYTES;
/** A TLS 1.3 client's part of a handshake (ClientHello with SNI, ALPN and key shares; Finished; close_notify), in packets. */
export const TLS_CLIENT_BYTES = 600 + 3 * PACKET_HEADER_BYTES;
/** One ICMP echo request: IPv4 (20) + ICMP (8) + 56 bytes of data. */
export const PING_PACKET_BYTES = 84;
/** One DNS query over UDP without the name: IPv4 (20) + UDP (8) + DNS header (12) + type and class (4) + EDNS (11) + name framing (2). */
export const DNS_QUERY_BYTES = 57;
/** Request headers the checker adds besides the user's (Host, User-Agent, Connection, Accept-Encoding): an allowance. */
export const HTTP_OWN_HEADER_BYTES = 90;
/** A TLS record's header and tag around the request. */
export const TLS_RECORD_BYTES = 22;

/** One SMTP command line (EHLO with an address literal is the longest): an allowance. */
export const SMTP_COMMAND_BYTES = 30;
/** `GET /containers/<name>/json HTTP/1.1` with Host and Connection, without the name. */
export const DOCKER_REQUEST_BYTES = 70;

/** One RESP command (AUTH with a password is the longest): an allowance. */
export const REDIS_COMMAND_BYTES = 40;

/** MQTT's CONNECT (with a user and password), SUBSCRIBE and DISCONNECT: an allowance. */
export const MQTT_SESSION_BYTES = 120;

/** HTTP/2's preface and SETTINGS and the Check call's own headers (path, authority, content-type, te): an allowance. */
export const GRPC_CALL_BYTES = 200;

/** A SQL session's own messages (startup, login, BEGIN READ ONLY, ROLLBACK, terminate): an allowance. */
export const SQL_SESSION_BYTES = 300;

export const DAY_S = 86_400;

export interface KindEgress {
  monitors: number;
  checks_per_day: number;
  bytes_per_day: number;
}

export interface EgressEstimate {
  bytes_per_day: number;
  checks_per_day: number;
  /** Only kinds that have running monitors. */
  by_kind: Partial<Record<MonitorKind, KindEgress>>;
}

/** Bytes one check of this monitor sends. Heartbeats send nothing: the watched job calls in. */
export function bytesPerCheck(c: MonitorConfig): number {
  switch (c.kind) {
    case 'http': {
      const s = c.settings;
      let url: URL;
      try {
        url = new URL(s.url);
      } catch {
        return 0;
      }
      const line = `${s.method} ${url.pathname}${url.search} HTTP/1.1\r\n`.length;
      const headers = s.headers.reduce((n, h) => n + Buffer.byteLength(`${h.name}: ${h.value}\r\n`), 0);
      // `Authorization: Bearer <token>\r\n` or `Authorization: Basic <base64 of user:password>\r\n`.
      const auth =
        s.auth === null
          ? 0
          : s.auth.type === 'bearer'
            ? 24 + Buffer.byteLength(s.auth.token)
            : 23 + 4 * Math.ceil(Buffer.byteLength(`${s.auth.username}:${s.auth.password}`) / 3);
      const body =
        s.body === null ? 0 : Buffer.byteLength(s.body) + (s.content_type ? 16 + s.content_type.length : 0) + 20;
      const request = line + headers + auth + body + HTTP_OWN_HEADER_BYTES + url.host.length + 2;
      const https = url.protocol === 'https:';
      return TCP_OPEN_CLOSE_BYTES + (https ? TLS_CLIENT_BYTES + TLS_RECORD_BYTES : 0) + request + PACKET_HEADER_BYTES;
    }
    case 'tcp':
      return (
        TCP_OPEN_CLOSE_BYTES + (c.settings.send === null ? 0 : Buffer.byteLength(c.settings.send) + PACKET_HEADER_BYTES)
      );
    case 'tls':
      return TCP_OPEN_CLOSE_BYTES + TLS_CLIENT_BYTES;
    case 'ping':
      return c.settings.packets * PING_PACKET_BYTES;
    case 'dns':
      return DNS_QUERY_BYTES + c.settings.name.replace(/\.$/, '').length;
    case 'heartbeat':
      return 0;
    case 'smtp':
      // EHLO (twice with STARTTLS) and QUIT, each a packet of its own.
      return (
        TCP_OPEN_CLOSE_BYTES +
        (c.settings.tls === 'none' ? 0 : TLS_CLIENT_BYTES) +
        (c.settings.tls === 'starttls' ? 4 : 2) * (SMTP_COMMAND_BYTES + PACKET_HEADER_BYTES)
      );
    case 'redis':
      // AUTH (when set), SELECT (when not 0) and PING, a packet each; TLS when asked for.
      return (
        TCP_OPEN_CLOSE_BYTES +
        (c.settings.tls === 'off' ? 0 : TLS_CLIENT_BYTES) +
        (1 + (c.settings.password === null ? 0 : 1) + (/\/[1-9]\d*$/.test(c.settings.url) ? 1 : 0)) *
          (REDIS_COMMAND_BYTES + PACKET_HEADER_BYTES)
      );
    case 'postgres':
    case 'mysql':
      // Startup, password, BEGIN, the query (Parse, Bind, Execute, Sync) and ROLLBACK: an allowance plus the query.
      return (
        TCP_OPEN_CLOSE_BYTES +
        (c.settings.tls === 'off' ? 0 : TLS_CLIENT_BYTES + 8 + PACKET_HEADER_BYTES) +
        SQL_SESSION_BYTES +
        Buffer.byteLength(c.settings.query) +
        5 * PACKET_HEADER_BYTES
      );
    case 'mqtt':
      // CONNECT, SUBSCRIBE (with a topic) and DISCONNECT, a packet each; the message received is not ours.
      return (
        TCP_OPEN_CLOSE_BYTES +
        (c.settings.tls === 'off' ? 0 : TLS_CLIENT_BYTES) +
        MQTT_SESSION_BYTES +
        (c.settings.topic === null ? 2 : 3) * PACKET_HEADER_BYTES +
        (c.settings.topic === null ? 0 : Buffer.byteLength(c.settings.topic))
      );
    case 'grpc':
      // HTTP/2's preface and SETTINGS, the Check call's headers (and metadata) and its 5-byte-framed request.
      return (
        TCP_OPEN_CLOSE_BYTES +
        (c.settings.tls === 'off' ? 0 : TLS_CLIENT_BYTES) +
        GRPC_CALL_BYTES +
        c.settings.metadata.reduce((n, m) => n + m.name.length + m.value.length, 0) +
        Buffer.byteLength(c.settings.service) +
        3 * PACKET_HEADER_BYTES
      );
    case 'docker': {
      // Over the local socket nothing leaves the machine.
      if (c.settings.endpoint.startsWith('unix:')) return 0;
      const tls = c.settings.endpoint.startsWith('https:') ? TLS_CLIENT_BYTES + TLS_RECORD_BYTES : 0;
      return TCP_OPEN_CLOSE_BYTES + tls + DOCKER_REQUEST_BYTES + c.settings.container.length + PACKET_HEADER_BYTES;
    }
  }
}

/** Checks per day of a running monitor. */
export function checksPerDay(c: Pick<MonitorConfig, 'interval_s'>): number {
  return DAY_S / c.interval_s;
}

/** The estimate over every running (not paused) monitor, rounded to whole bytes and checks. */
export function egressEstimate(configs: readonly MonitorConfig[]): EgressEstimate {
  const by: Partial<Record<MonitorKind, { monitors: number; checks: number; bytes: number }>> = {};
  for (const c of configs) {
    if (c.paused) continue;
    const k = (by[c.kind] ??= { monitors: 0, checks: 0, bytes: 0 });
    const n = checksPerDay(c);
    k.monitors += 1;
    k.checks += n;
    k.bytes += n * bytesPerCheck(c);
  }
  const out: EgressEstimate = { bytes_per_day: 0, checks_per_day: 0, by_kind: {} };
  for (const kind of MONITOR_KINDS) {
    const k = by[kind];
    if (!k) continue;
    out.by_kind[kind] = {
      monitors: k.monitors,
      checks_per_day: Math.round(k.checks),
      bytes_per_day: Math.round(k.bytes),
    };
    out.checks_per_day += k.checks;
    out.bytes_per_day += k.bytes;
  }
  out.checks_per_day = Math.round(out.checks_per_day);
  out.bytes_per_day = Math.round(out.bytes_per_day);
  return out;
}
