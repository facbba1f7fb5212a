/**
 * What a monitor watches, in words: the one-line `target` of an answer (e.g.
 * `GET https://example.com/health`) and the bare host named in network path notices. Pure.
 */
import type { KindConfig } from './monitor-config';

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function describeTarget(m: KindConfig): string {
  switch (m.kind) {
    case 'http':
      return `${m.settings.method} ${m.settings.url}`;
    case 'tcp':
      return `tcp ${hostPort(m.settings.host, m.settings.port)}`;
    case 'ping':
      return `ping ${m.settings.host}`;
    case 'dns':
      return `dns ${m.settings.record} ${m.settings.name} @${m.settings.resolver}`;
    case 'tls':
      return `tls ${hostPort(m.settings.host, m.settings.port)}`;
    case 'heartbeat':
      return 'heartbeat';
  }
}

/** The host a monitor talks to, for path notices: no path, no credentials. */
export function describeHost(m: KindConfig): string {
  switch (m.kind) {
    case 'http':
      try {
        return new URL(m.settings.url).host;
      } catch {
        return m.settings.url;
      }
    case 'dns':
      return m.settings.resolver;
    case 'heartbeat':
      return '';
    default:
      return m.settings.host;
  }
}
