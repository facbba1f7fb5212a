/** The one-line description of what a monitor watches, e.g. `GET https://example.com/health`. */
import type { MonitorConfig } from './monitor-config';
import type { DnsSettings, HttpSettings, PingSettings, TcpSettings, TlsSettings } from './monitor-types';

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function describeTarget(m: Pick<MonitorConfig, 'kind' | 'settings'>): string {
  switch (m.kind) {
    case 'http': {
      const s = m.settings as HttpSettings;
      return `${s.method} ${s.url}`;
    }
    case 'tcp': {
      const s = m.settings as TcpSettings;
      return `tcp ${hostPort(s.host, s.port)}`;
    }
    case 'ping':
      return `ping ${(m.settings as PingSettings).host}`;
    case 'dns': {
      const s = m.settings as DnsSettings;
      return `dns ${s.record} ${s.name} @${s.resolver}`;
    }
    case 'tls': {
      const s = m.settings as TlsSettings;
      return `tls ${hostPort(s.host, s.port)}`;
    }
    case 'heartbeat':
      return 'heartbeat';
  }
}
