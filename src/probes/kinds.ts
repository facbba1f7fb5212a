/**
 * The shape of a monitor's settings as the API speaks them (snake_case), after validation and
 * defaults. Checkers take the per-kind part; the engine takes the common part. Pure types.
 */
export const MONITOR_KINDS = [
  'http',
  'tcp',
  'ping',
  'dns',
  'tls',
  'heartbeat',
  'smtp',
  'docker',
  'redis',
  'postgres',
  'mysql',
  'mqtt',
  'grpc',
] as const;
export type MonitorKind = (typeof MONITOR_KINDS)[number];

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const IP_VERSIONS = ['auto', 'ipv4', 'ipv6'] as const;
export type IpVersion = (typeof IP_VERSIONS)[number];

export const JSON_OPS = ['==', '!=', '<', '<=', '>', '>=', 'contains', 'exists', 'not_exists'] as const;
export type JsonOp = (typeof JSON_OPS)[number];

export const DNS_RECORDS = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;
export type DnsRecord = (typeof DNS_RECORDS)[number];

export interface HttpHeader {
  name: string;
  value: string;
  secret: boolean;
}

export type HttpAuth = { type: 'basic'; username: string; password: string } | { type: 'bearer'; token: string };

export interface JsonRule {
  /** Shape `$.a.b[0]`. */
  path: string;
  op: JsonOp;
  /** Compared value; absent for exists / not_exists. */
  value?: string | number | boolean | null;
}

export interface HttpSettings {
  url: string;
  method: HttpMethod;
  headers: HttpHeader[];
  body: string | null;
  content_type: string | null;
  auth: HttpAuth | null;
  follow_redirects: boolean;
  ip_version: IpVersion;
  resolve_to: string | null;
  tls_verify: boolean;
  tls_warn_days: number;
  /** Shape `200-299,401`. */
  expect_status: string;
  body_contains: string | null;
  body_not_contains: string | null;
  json: JsonRule[];
  expect_header: { name: string; contains: string } | null;
  max_ms: number | null;
  /**
   * The SHA-256 fingerprint the leaf certificate must have (`AB:CD:…`, judge/cert-pin.ts), or null.
   * Set, it replaces verification of the chain and the name on the monitored URL's origin.
   * Last of the settings: monitors stored before it got it appended (migration CertPins).
   */
  cert_sha256: string | null;
}

export interface TcpSettings {
  host: string;
  port: number;
  send: string | null;
  expect_banner: string | null;
  ip_version: IpVersion;
}

export interface PingSettings {
  host: string;
  packets: number;
  max_loss_pct: number | null;
  ip_version: IpVersion;
}

export interface DnsSettings {
  name: string;
  record: DnsRecord;
  /** An IP with optional `:port` (IPv6 as `[::1]:53`). */
  resolver: string;
  expect: string | null;
}

export interface TlsSettings {
  host: string;
  port: number;
  sni: string | null;
  tls_warn_days: number;
  /** false accepts any certificate (self-signed, private CA, expired, another name); it is still reported. */
  tls_verify: boolean;
  /** As for http: the leaf's SHA-256 fingerprint, which replaces chain and name verification. */
  cert_sha256: string | null;
}

export interface HeartbeatSettings {
  grace_s: number;
}

export const SMTP_TLS_MODES = ['starttls', 'implicit', 'none'] as const;
export type SmtpTlsMode = (typeof SMTP_TLS_MODES)[number];

export interface SmtpSettings {
  host: string;
  port: number;
  /** starttls: upgrade after EHLO (587, 25); implicit: TLS from the first byte (465); none: plain text. */
  tls: SmtpTlsMode;
  /** As for tls: the certificate is judged and its expiry warned about (not with tls none). */
  tls_verify: boolean;
  tls_warn_days: number;
}

/** TLS to a database: none, encrypted with any certificate, or verified (chain, expiry, name). */
export const DB_TLS_MODES = ['off', 'require', 'verify'] as const;
export type DbTlsMode = (typeof DB_TLS_MODES)[number];

export interface RedisSettings {
  /** redis://[user@]host[:port][/db]: the password is the setting below, never in the URL. */
  url: string;
  /** Secret; null without AUTH. */
  password: string | null;
  tls: DbTlsMode;
}

export interface PostgresSettings {
  /** postgres://[user@]host[:port][/database]: the password is the setting below, never in the URL. */
  url: string;
  /** Secret; null to log in without one (trust, peer over TCP is not possible). */
  password: string | null;
  /** One statement that only reads (services/sql-statement.ts), run in a READ ONLY transaction. */
  query: string;
  tls: DbTlsMode;
}

/** MySQL and MariaDB: as postgres, with mysql:// (or mariadb://) URLs. */
export interface MysqlSettings {
  url: string;
  password: string | null;
  query: string;
  tls: DbTlsMode;
}

export interface DockerSettings {
  /** A container's name or id. */
  container: string;
  /** unix:///path/docker.sock, tcp://host:port or https://host:port. */
  endpoint: string;
  /** When the container has a health check, only `healthy` is up. */
  require_healthy: boolean;
}

/** An MQTT broker: connect, and with a topic, wait for its first message (docs/checks.md#mqtt). */
export interface MqttSettings {
  /** mqtt://host[:port] (1883) or mqtts://host[:port] (8883): user and password are the settings below. */
  url: string;
  username: string | null;
  /** Secret; null to connect without one. */
  password: string | null;
  tls: DbTlsMode;
  /** A topic filter (`+` and `#` allowed); null: up once the broker accepts the connection. */
  topic: string | null;
  /** Text the first message on `topic` must contain. */
  expect: string | null;
  /** Rules on the first message read as JSON, all must pass (as http's `json`). */
  json: JsonRule[];
}

/** A gRPC request header; names are lowercase (`authorization`, `x-api-key`). */
export interface GrpcMetadata {
  name: string;
  value: string;
  /** Masked in answers; names that look like credentials are always secret (as http headers). */
  secret: boolean;
}

/** A gRPC server's standard health service, grpc.health.v1.Health/Check (docs/checks.md#grpc). */
export interface GrpcSettings {
  /** host:port, an IPv6 address in brackets. */
  target: string;
  /** The service asked about; '' for the server as a whole. */
  service: string;
  tls: DbTlsMode;
  metadata: GrpcMetadata[];
}

export interface KindSettings {
  http: HttpSettings;
  tcp: TcpSettings;
  ping: PingSettings;
  dns: DnsSettings;
  tls: TlsSettings;
  heartbeat: HeartbeatSettings;
  smtp: SmtpSettings;
  docker: DockerSettings;
  redis: RedisSettings;
  postgres: PostgresSettings;
  mysql: MysqlSettings;
  mqtt: MqttSettings;
  grpc: GrpcSettings;
}

/** What a checker needs besides its kind settings. */
export interface CheckContext {
  /** Whole-check deadline: nothing may run past timeout_ms. */
  timeout_ms: number;
  /** null or 0 = off: a good check slower than this is `slow`. */
  slow_ms: number | null;
  /** false = refuse loopback, private, link-local and unique-local addresses actually connected to. */
  allow_private_targets: boolean;
}
