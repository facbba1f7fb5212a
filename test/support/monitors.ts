/** Factories for monitor bodies: sensible defaults, override what the test is about. */
export function httpMonitor(over: Record<string, unknown> = {}, http: Record<string, unknown> = {}) {
  return { name: 'Web', kind: 'http', http: { url: 'https://example.com/health', ...http }, ...over };
}

export function tcpMonitor(over: Record<string, unknown> = {}) {
  return { name: 'Database', kind: 'tcp', tcp: { host: 'db.lan', port: 5432 }, ...over };
}

export function heartbeatMonitor(over: Record<string, unknown> = {}) {
  return { name: 'Nightly backup', kind: 'heartbeat', interval_s: 86400, heartbeat: { grace_s: 600 }, ...over };
}
