/**
 * Defaults of every monitor field. Common timing defaults come from the service settings; the
 * rest are fixed by the spec. `null` sent for a field that has a default means "back to the default".
 */
import type { MonitorDefaults } from '../settings/settings-defaults';
import type { MonitorKind } from '../probes/kinds';

type Plain = Record<string, unknown>;

/**
 * The defaults of the common fields for a new monitor of `kind`. A heartbeat's interval has its own
 * range (30 s and up), so a service default below it (settings allow 10 s) is raised to 30 s there.
 */
export function commonDefaults(d: Readonly<MonitorDefaults>, kind?: string): Plain {
  return {
    group: null,
    tags: [],
    description: null,
    runbook_url: null,
    interval_s: kind === 'heartbeat' ? Math.max(d.interval_s, HEARTBEAT_INTERVAL.min) : d.interval_s,
    timeout_ms: d.timeout_ms,
    confirm_after: d.confirm_after,
    retry_interval_s: d.retry_interval_s,
    recover_after: d.recover_after,
    slow_ms: null,
    slow_after: d.slow_after,
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
}

/** Heartbeats are checked far less often: their interval has its own range and a default that fits it. */
export const HEARTBEAT_INTERVAL = { min: 30, max: 2_592_000 };
export const CHECK_INTERVAL = { min: 10, max: 86_400 };

export const KIND_DEFAULTS: Record<MonitorKind, Plain> = {
  http: {
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
  },
  tcp: { send: null, expect_banner: null, ip_version: 'auto' },
  ping: { packets: 3, max_loss_pct: null, ip_version: 'auto' },
  dns: { record: 'A', resolver: '1.1.1.1', expect: null },
  tls: { port: 443, sni: null, tls_warn_days: 14, tls_verify: true, cert_sha256: null },
  heartbeat: { grace_s: 60 },
  smtp: { port: 587, tls: 'starttls', tls_verify: true, tls_warn_days: 14 },
  docker: { endpoint: 'unix:///var/run/docker.sock', require_healthy: true },
  redis: { password: null, tls: 'off' },
  postgres: { password: null, query: 'SELECT 1', tls: 'off' },
  mysql: { password: null, query: 'SELECT 1', tls: 'off' },
};

/** Fields a monitor must be given (no default). */
export const REQUIRED_KIND_FIELDS: Record<MonitorKind, string[]> = {
  http: ['url'],
  tcp: ['host', 'port'],
  ping: ['host'],
  dns: ['name'],
  tls: ['host'],
  heartbeat: [],
  smtp: ['host'],
  docker: ['container'],
  redis: ['url'],
  postgres: ['url'],
  mysql: ['url'],
};

/** Fills defaults into a plain object: absent or null fields that have a default take it. */
export function withDefaults(input: Plain, defaults: Plain): Plain {
  const out: Plain = { ...input };
  for (const [k, v] of Object.entries(defaults)) {
    if (out[k] === undefined || (out[k] === null && v !== null)) out[k] = structuredClone(v);
  }
  return out;
}
