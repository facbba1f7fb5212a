/**
 * The cost of GET /metrics at 10,000 monitors (issue 39: p99 ≤ 50 ms, a few MB allocated per
 * scrape at most), measured as built JavaScript in a process of its own: under jest the same code
 * ran four times slower, in jest's module sandbox. Shared by `bench metrics` (the time target) and
 * test/system/metrics-scale.e2e-spec.ts (the answer and the allocation): runScrapes below.
 *
 * The real MetricsService answers on a node:http server on 127.0.0.1, over live records shaped as
 * the engine keeps them (configurations from the real input parser, states that move between
 * scrapes as checks land); a keep-alive client times whole answers. Prints one JSON line.
 *
 *   node dist/tsc/harness/metrics-scrape.js [--monitors N] [--scrapes K]
 */
import * as http from 'node:http';
import * as os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { FakeClock } from '../src/common/clock';
import type { DispatcherService } from '../src/channels/dispatcher.service';
import type { BlindGate } from '../src/engine/blind/blind-gate';
import type { EngineService } from '../src/engine/engine.service';
import type { CheckWriter } from '../src/history/writer';
import { parseMonitorBody } from '../src/monitors/monitor-input';
import type { MonitorStatus } from '../src/probes/status';
import { DEFAULT_SETTINGS } from '../src/settings/settings-defaults';
import type { SettingsService } from '../src/settings/settings.service';
import type { MetricMonitor } from '../src/system/metrics/metric-families';
import { MetricsService } from '../src/system/metrics/metrics.service';
import { spread } from './stats';
import type { ScrapeReport } from './metrics-scrapes';

const STATUSES: readonly MonitorStatus[] = ['up', 'up', 'up', 'slow', 'down', 'paused', 'unknown'];

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const n = arg('monitors', 10_000);
  const scrapes = arg('scrapes', 200);
  const clock = new FakeClock(Date.UTC(2026, 10, 1, 12, 0, 0));
  const live: MetricMonitor[] = [];
  for (let i = 0; i < n; i++) {
    const body =
      i % 3 === 0
        ? { name: `Cert ${i}`, kind: 'tls', group: `rack ${i % 40}`, tls: { host: `h${i}.lan`, port: 443 } }
        : { name: `Service ${i}`, kind: 'http', group: `rack ${i % 40}`, http: { url: `https://s${i}.lan/health` } };
    const r = parseMonitorBody(body, DEFAULT_SETTINGS.defaults, null);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const state = {
      status: STATUSES[i % STATUSES.length],
      latency_ms: 20 + (i % 977) * 0.731,
      cert_expires_at: clock.now() + i * 3_600_000,
    };
    live.push({ id: i + 1, config: r.config, state });
  }
  const counts = new Map(live.map((m) => [m.id, { up: m.id * 7, down: m.id % 5, slow: m.id % 3, unknown: 0 }]));
  // The engine's side as MetricsService reads it (EngineService.liveView, the incident book's count).
  const engine = {
    liveView: () => ({ monitors: live, changes: 1, countsOf: (id: number) => counts.get(id)! }),
    incidents: { openCount: 3 },
    // One monitor in a hundred held by a maintenance window (engine/maintenance/maintenance-book.ts).
    maintenance: {
      markOf: (id: number) => (id % 100 === 0 ? { window_id: 1, title: 'Disks', ends_at: null } : null),
    },
  } as unknown as EngineService;
  const writer = { stats: { buffered: 40 } } as unknown as CheckWriter;
  const blind = { status: () => ({ active: false }) } as unknown as BlindGate;
  const dispatcher = { alertAttempts: () => [{ channel: 'ops', ok: true, n: 12 }] } as unknown as DispatcherService;
  const settings = { get: async () => ({ ...DEFAULT_SETTINGS, metrics_public: true }) } as unknown as SettingsService;
  const service = new MetricsService(engine, writer, blind, dispatcher, settings, clock, clock.now());

  const cpu: number[] = [];
  const allocated: number[] = [];
  let gcs = 0;
  const obs = new PerformanceObserver((list) => (gcs += list.getEntries().length));
  obs.observe({ entryTypes: ['gc'] });
  const server = http.createServer((req, res) => {
    const gcBefore = gcs;
    const heapBefore = process.memoryUsage().heapUsed;
    const c0 = process.cpuUsage();
    const { bytes, done } = service.scrape();
    const c = process.cpuUsage(c0);
    const grown = process.memoryUsage().heapUsed - heapBefore;
    cpu.push((c.user + c.system) / 1000);
    setImmediate(() => {
      // A collection during the scrape hides what it allocated: only clean samples count.
      if (gcs === gcBefore && grown > 0) allocated.push(grown);
    });
    res.setHeader('Content-Length', String(bytes.length));
    res.once('close', done);
    res.end(bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as import('node:net').AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const wall: number[] = [];
  let size = 0;
  for (let i = 0; i < scrapes; i++) {
    // A quarter of the states move between scrapes, as checks land (new objects, as the engine makes them).
    for (let j = i % 4; j < live.length; j += 4)
      live[j].state = { ...live[j].state, latency_ms: live[j].state.latency_ms! + 1 };
    const t0 = performance.now();
    size = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/metrics', agent }, (res) => {
          let got = 0;
          res.on('data', (chunk: Buffer) => (got += chunk.length));
          res.on('end', () => resolve(got));
        })
        .on('error', reject);
    });
    wall.push(performance.now() - t0);
  }
  await new Promise((r) => setImmediate(r));
  obs.disconnect();
  agent.destroy();
  server.close();
  const report: ScrapeReport = {
    monitors: n,
    scrapes,
    bytes: size,
    wall: spread(wall),
    cpu: spread(cpu),
    allocated: spread(allocated).p50,
    clean: allocated.length,
    load: os.loadavg()[0],
    cores: os.cpus().length,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
