import { parseMonitorBody } from '../../monitors/monitor-input';
import type { MonitorConfig } from '../../probes/monitor-config';
import type { MonitorStatus } from '../../probes/status';
import { DEFAULT_SETTINGS } from '../../settings/settings-defaults';
import {
  hasCertificate,
  MetricMonitor,
  MetricsSnapshot,
  monitorLabels,
  upValue,
  writeMetrics,
} from './metric-families';
import { PromWriter } from './prom-text';

function config(body: Record<string, unknown>): MonitorConfig {
  const r = parseMonitorBody(body, DEFAULT_SETTINGS.defaults, null);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

const NOW = Date.UTC(2026, 10, 1, 12, 0, 0);
const site = config({ name: 'Site', slug: 'site', kind: 'http', group: 'web', http: { url: 'https://site.lan/' } });
const plain = config({ name: 'Plain', slug: 'plain', kind: 'http', http: { url: 'http://plain.lan/' } });
const tls = config({ name: 'Cert', slug: 'cert', kind: 'tls', tls: { host: 'cert.lan', port: 443 } });
const tcp = config({ name: 'Db', slug: 'db', kind: 'tcp', tcp: { host: 'db.lan', port: 5432 } });

function monitor(
  id: number,
  c: MonitorConfig,
  status: MonitorStatus,
  over: Partial<MetricMonitor['state']> = {},
): MetricMonitor {
  return { id, config: c, state: { status, latency_ms: null, cert_expires_at: null, ...over } };
}

function render(over: Partial<MetricsSnapshot>): string[] {
  const w = new PromWriter(128);
  const monitors = over.monitors ?? [];
  writeMetrics(w, {
    labels: monitors.map((m) => monitorLabels(m.config)),
    now: NOW,
    monitors: [],
    countsOf: () => ({ up: 0, down: 0, slow: 0, unknown: 0 }),
    inMaintenance: () => false,
    alerts: [],
    incidentsOpen: 0,
    blind: false,
    writerQueue: 0,
    process: { rssBytes: 1, cpuSeconds: 0.5, startTimeSeconds: 1_700_000_000, loopLagSeconds: 0.001 },
    ...over,
  });
  return w.bytes().toString('utf8').split('\n');
}

describe('metric families', () => {
  it.each([
    ['up', 1],
    ['slow', 1],
    ['down', 0],
    ['unknown', null],
    ['paused', null],
  ] as [MonitorStatus, number | null][])('farsight_monitor_up of a monitor that is %s is %p', (status, v) => {
    expect(upValue(status)).toBe(v);
  });

  it.each([
    [site, true],
    [plain, false],
    [tls, true],
    [tcp, false],
  ])('has a certificate series: %# (%p)', (c, has) => {
    expect(hasCertificate(c)).toBe(has);
  });

  it('writes the seconds left on a certificate only for monitors that check one', () => {
    const lines = render({
      monitors: [
        monitor(1, site, 'up', { cert_expires_at: NOW + 86_400_000 }),
        monitor(2, plain, 'up', { cert_expires_at: NOW + 5_000 }),
        monitor(3, tls, 'up', { cert_expires_at: NOW - 2_000 }),
      ],
    });
    expect(lines.filter((l) => l.startsWith('farsight_monitor_cert_expiry_seconds{'))).toEqual([
      'farsight_monitor_cert_expiry_seconds{monitor="site",kind="http",group="web"} 86400',
      'farsight_monitor_cert_expiry_seconds{monitor="cert",kind="tls",group=""} -2',
    ]);
  });

  it('writes one status series per status word, 1 for the current one, and latency in seconds', () => {
    const lines = render({ monitors: [monitor(4, tcp, 'slow', { latency_ms: 1250 })] });
    expect(lines.filter((l) => l.startsWith('farsight_monitor_status{'))).toEqual([
      'farsight_monitor_status{monitor="db",kind="tcp",group="",status="up"} 0',
      'farsight_monitor_status{monitor="db",kind="tcp",group="",status="down"} 0',
      'farsight_monitor_status{monitor="db",kind="tcp",group="",status="slow"} 1',
      'farsight_monitor_status{monitor="db",kind="tcp",group="",status="paused"} 0',
      'farsight_monitor_status{monitor="db",kind="tcp",group="",status="unknown"} 0',
    ]);
    expect(lines).toContain('farsight_monitor_latency_seconds{monitor="db",kind="tcp",group=""} 1.25');
  });

  it('says a monitor is in maintenance when the lookup holds it', () => {
    const lines = render({
      monitors: [monitor(4, tcp, 'up'), monitor(1, site, 'up')],
      inMaintenance: (id) => id === 1,
    });
    expect(lines).toContain('farsight_monitor_in_maintenance{monitor="db",kind="tcp",group=""} 0');
    expect(lines).toContain('farsight_monitor_in_maintenance{monitor="site",kind="http",group="web"} 1');
  });

  it('lists alert counters by channel name, successes first, with names escaped', () => {
    const lines = render({
      alerts: [
        { channel: 'pager', ok: false, n: 2 },
        { channel: 'Ops "night"', ok: true, n: 1 },
        { channel: 'pager', ok: true, n: 5 },
      ],
    });
    expect(lines.filter((l) => l.startsWith('farsight_alerts_total{'))).toEqual([
      'farsight_alerts_total{channel="Ops \\"night\\"",ok="true"} 1',
      'farsight_alerts_total{channel="pager",ok="true"} 5',
      'farsight_alerts_total{channel="pager",ok="false"} 2',
    ]);
  });

  it('names every family with HELP and TYPE once, before its samples', () => {
    const lines = render({ monitors: [monitor(4, tcp, 'down', { latency_ms: 3 })], blind: true, incidentsOpen: 2 });
    const types = lines.filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]);
    expect(new Set(types).size).toBe(types.length);
    for (const [i, line] of lines.entries()) {
      if (line === '' || line.startsWith('#')) continue;
      const name = /^[a-z_]+/.exec(line)?.[0];
      const typeAt = lines.indexOf(`# TYPE ${name} ${name?.endsWith('_total') ? 'counter' : 'gauge'}`);
      expect(typeAt).toBeGreaterThanOrEqual(0);
      expect(typeAt).toBeLessThan(i);
    }
    expect(lines).toContain('farsight_blind 1');
    expect(lines).toContain('farsight_incidents_open 2');
    expect(lines).toContain('process_cpu_seconds_total 0.5');
  });
});
