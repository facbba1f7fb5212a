/**
 * What GET /metrics says, family by family (docs/metrics.md lists them): the monitors' series from
 * the engine's live records, the counters, and the process's own gauges. Pure: the caller hands
 * in one snapshot, read once; nothing here reads a table or the clock.
 */
import type { MonitorConfig } from '../../probes/monitor-config';
import { MONITOR_STATUSES, MonitorStatus } from '../../probes/status';
import type { Outcome } from '../../probes/check-result';
import { escapeLabel, labelSet, PromWriter } from './prom-text';

/** The part of a live monitor the metrics read (engine/live/live-monitor.ts). */
export interface MetricMonitor {
  id: number;
  config: MonitorConfig;
  state: {
    status: MonitorStatus;
    latency_ms: number | null;
    cert_expires_at: number | null;
  };
}

export interface MetricsSnapshot {
  now: number;
  /** In the order the exposition lists them (by slug). */
  monitors: readonly MetricMonitor[];
  /** Each monitor's labels, at the same index (monitorLabels). */
  labels: readonly MonitorLabels[];
  countsOf(id: number): Readonly<Record<Outcome, number>>;
  /** Whether a maintenance window holds the monitor now (the engine's book of windows). */
  inMaintenance(id: number): boolean;
  alerts: Iterable<Readonly<{ channel: string; ok: boolean; n: number }>>;
  incidentsOpen: number;
  blind: boolean;
  writerQueue: number;
  process: { rssBytes: number; cpuSeconds: number; startTimeSeconds: number; loopLagSeconds: number };
}

const OUTCOMES: readonly Outcome[] = ['up', 'down', 'slow', 'unknown'];

/**
 * One monitor's label sets as bytes, made when the exposition's order is made (once per change
 * of the engine's set: MetricsService) and kept with it: `{monitor,kind,group}` for the gauges,
 * `{monitor}` for the checks counter.
 */
export interface MonitorLabels {
  labels: Buffer;
  monitor: Buffer;
  cert: boolean;
}

export function monitorLabels(c: MonitorConfig): MonitorLabels {
  const slug = escapeLabel(c.slug);
  return {
    labels: Buffer.from(`monitor="${slug}",kind="${c.kind}",group="${escapeLabel(c.group ?? '')}"`),
    monitor: Buffer.from(`monitor="${slug}"`),
    cert: hasCertificate(c),
  };
}

const bytes = (s: string) => Buffer.from(s);
const CLOSE = bytes('}');
const HEAD = {
  up: bytes('farsight_monitor_up{'),
  status: bytes('farsight_monitor_status{'),
  latency: bytes('farsight_monitor_latency_seconds{'),
  cert: bytes('farsight_monitor_cert_expiry_seconds{'),
  maintenance: bytes('farsight_monitor_in_maintenance{'),
  checks: bytes('farsight_checks_total{'),
};
const STATUS_TAILS = MONITOR_STATUSES.map((w) => bytes(`,status="${w}"}`));
const RESULT_TAILS = OUTCOMES.map((o) => bytes(`,result="${o}"}`));

/** Whether the monitor checks a certificate: tls always, http only over https. */
export function hasCertificate(c: MonitorConfig): boolean {
  return c.kind === 'tls' || (c.kind === 'http' && /^https:/i.test(c.settings.url));
}

/** 1 for up and slow, 0 for down; null (no sample) while unknown or paused. */
export function upValue(status: MonitorStatus): 0 | 1 | null {
  switch (status) {
    case 'up':
    case 'slow':
      return 1;
    case 'down':
      return 0;
    case 'paused':
    case 'unknown':
      return null;
  }
}

/** Writes the whole exposition for one snapshot. */
export function writeMetrics(w: PromWriter, snap: MetricsSnapshot): void {
  const ms = snap.monitors;
  const ls = snap.labels;
  const n = ms.length;
  w.family(
    'farsight_monitor_up',
    'gauge',
    'Whether the monitor is up (1: up or slow, 0: down); absent while unknown or paused.',
  );
  for (let i = 0; i < n; i++) {
    const v = upValue(ms[i].state.status);
    if (v !== null) w.sampleOf(HEAD.up, ls[i].labels, CLOSE, v);
  }
  w.family('farsight_monitor_status', 'gauge', 'The monitor status: 1 for the current status word, 0 for the others.');
  for (let i = 0; i < n; i++) {
    const status = ms[i].state.status;
    for (let k = 0; k < MONITOR_STATUSES.length; k++) {
      w.sampleOf(HEAD.status, ls[i].labels, STATUS_TAILS[k], MONITOR_STATUSES[k] === status ? 1 : 0);
    }
  }
  w.family('farsight_monitor_latency_seconds', 'gauge', 'Latency of the last check, in seconds.');
  for (let i = 0; i < n; i++) {
    const latency = ms[i].state.latency_ms;
    if (latency !== null) w.sampleOf(HEAD.latency, ls[i].labels, CLOSE, latency / 1000);
  }
  w.family(
    'farsight_monitor_cert_expiry_seconds',
    'gauge',
    'Seconds until the certificate seen by the last check expires (negative once expired).',
  );
  for (let i = 0; i < n; i++) {
    const at = ms[i].state.cert_expires_at;
    if (at !== null && ls[i].cert) w.sampleOf(HEAD.cert, ls[i].labels, CLOSE, Math.round((at - snap.now) / 1000));
  }
  w.family(
    'farsight_monitor_in_maintenance',
    'gauge',
    'Whether a maintenance window holds the monitor now (1) or not (0).',
  );
  for (let i = 0; i < n; i++) w.sampleOf(HEAD.maintenance, ls[i].labels, CLOSE, snap.inMaintenance(ms[i].id) ? 1 : 0);
  w.family('farsight_checks_total', 'counter', 'Check results since the service started, by monitor and result.');
  for (let i = 0; i < n; i++) {
    const counts = snap.countsOf(ms[i].id);
    for (let k = 0; k < OUTCOMES.length; k++)
      w.sampleOf(HEAD.checks, ls[i].monitor, RESULT_TAILS[k], counts[OUTCOMES[k]]);
  }
  writeServiceFamilies(w, snap);
}

function writeServiceFamilies(w: PromWriter, snap: MetricsSnapshot): void {
  w.family(
    'farsight_alerts_total',
    'counter',
    'Alert delivery attempts since the service started, by channel name and outcome.',
  );
  const alerts = [...snap.alerts].sort((a, b) => cmp(a.channel, b.channel) || Number(b.ok) - Number(a.ok));
  for (const a of alerts)
    w.sample(
      `farsight_alerts_total${labelSet([
        ['channel', a.channel],
        ['ok', String(a.ok)],
      ])}`,
      a.n,
    );
  w.family('farsight_incidents_open', 'gauge', 'Incidents open now.');
  w.sample('farsight_incidents_open', snap.incidentsOpen);
  w.family(
    'farsight_blind',
    'gauge',
    'Whether the service has lost its own network (1), so failed checks are not counted.',
  );
  w.sample('farsight_blind', snap.blind ? 1 : 0);
  w.family('farsight_writer_queue_length', 'gauge', "Check results waiting for the writer's next commit.");
  w.sample('farsight_writer_queue_length', snap.writerQueue);
  w.family(
    'farsight_event_loop_lag_seconds',
    'gauge',
    "The 99th percentile of the event loop's delay over the last minute, in seconds.",
  );
  w.sample('farsight_event_loop_lag_seconds', snap.process.loopLagSeconds);
  w.family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.');
  w.sample('process_resident_memory_bytes', snap.process.rssBytes);
  w.family('process_cpu_seconds_total', 'counter', 'Total user and system CPU time spent in seconds.');
  w.sample('process_cpu_seconds_total', snap.process.cpuSeconds);
  w.family('process_start_time_seconds', 'gauge', 'Start time of the process since the Unix epoch in seconds.');
  w.sample('process_start_time_seconds', snap.process.startTimeSeconds);
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
