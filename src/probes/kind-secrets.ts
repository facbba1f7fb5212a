/**
 * Which settings of each kind are secret: declared once here, used to mask answers and keep
 * ******** (monitors/secrets.ts) and to seal values at rest (catalog/monitors.repository.ts).
 */
import type { SecretSchema } from '../common/secrets/secret-fields';
import type { MonitorKind } from './kinds';

/**
 * The secret fields of http settings. Stored headers are matched by name (any case) and, for
 * repeated names, by their order among the secret headers of that name.
 */
export const HTTP_SECRETS: SecretSchema = [
  { path: 'auth.password' },
  { path: 'auth.token' },
  { path: 'headers[*].value', when: (h) => Boolean(h.secret), key: (h) => String(h.name).toLowerCase() },
];

/** The secret fields of each kind's settings; kinds without secrets declare none. */
export const KIND_SECRETS: Record<MonitorKind, SecretSchema> = {
  http: HTTP_SECRETS,
  tcp: [],
  ping: [],
  dns: [],
  tls: [],
  heartbeat: [],
  smtp: [],
  docker: [],
  redis: [{ path: 'password' }],
  postgres: [{ path: 'password' }],
  mysql: [{ path: 'password' }],
  mqtt: [{ path: 'password' }],
  grpc: [{ path: 'metadata[*].value', when: (h) => Boolean(h.secret), key: (h) => String(h.name).toLowerCase() }],
};
