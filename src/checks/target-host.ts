/** The host a monitor talks to, for path events (no path, no credentials). Pure. */
import type { MonitorConfig } from '../monitors/monitor-config';

export function describeHost(c: Pick<MonitorConfig, 'kind' | 'settings'>): string {
  const s = c.settings as { url?: string; host?: string; resolver?: string };
  if (c.kind === 'http' && s.url) {
    try {
      return new URL(s.url).host;
    } catch {
      return s.url;
    }
  }
  if (c.kind === 'dns') return s.resolver ?? '';
  return s.host ?? '';
}
