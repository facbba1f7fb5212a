/**
 * stream: the live stream's cost and speed. N http monitors at an interval against the farm (the
 * engine scenario's set-up: created through the API, then a restart so first checks spread).
 *   A. no stream clients: CPU and RSS of the service over one window;
 *   B. C clients on GET /stream (one of them stops reading after its first bytes), same window:
 *      the extra CPU and RSS, and the delay from each check's result to its event at each client
 *      (received − (at_ms + latency_ms); at_ms is when the check started, latency_ms its duration);
 *   C. all but a few readers leave; heartbeat failure reports (1 KB of text each, so 1 KB events)
 *      are sent in rounds, each once every reader has had the last, until `stall-mb` MB went out:
 *      the stalled client must have been cut off, and the readers must have every event.
 * Phase C exists because the kernel holds a few MB for a client that does not read before the
 * service holds anything: at the check rate of B alone that would take many minutes.
 */
import type { Options } from '../../harness/args';
import { Farm } from '../farm';
import { request, requestJson, runLoad } from '../../harness/http-client';
import { httpMonitors } from '../monitors';
import { removeDir, tempDir } from '../../harness/paths';
import { CpuUse, CpuWindow, RssSampler } from '../../harness/proc';
import { atLeast, atMost, metric, Metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario, sleep, wait } from '../scenario';
import { monotonicUs } from '../profile';
import { KeyPool, Service } from '../../harness/service';
import { profileDir, profileNotes } from '../service-profile';
import { StalledClient } from '../../harness/sse';
import { StreamReader } from '../stream-reader';
import { spread } from '../../harness/stats';

const NAME = 'stream';
const MB = 1024 * 1024;
/** Heartbeat monitors whose failure reports make phase C's events (600 reports a minute each at most). */
const REPORTERS = 32;
const REPORT_TEXT = 'x'.repeat(1000);
/** Readers kept for phase C. */
const PHASE_C_READERS = 20;
const ROUND_REPORTS = 256;

interface Window {
  cpu: CpuUse;
  rssMax: number;
}

export const streamScenario: Scenario = {
  name: NAME,
  summary:
    'N http monitors, then C SSE clients (one stalled): extra CPU and RSS, check-to-client delay p50/p99, the stalled client cut off',
  options: ['monitors', 'clients', 'interval', 'warmup', 'duration', 'stall-mb'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 20 : 1000);
    const clients = Math.max(2, o.number('clients', ctx.smoke ? 10 : 500));
    const intervalS = o.number('interval', ctx.smoke ? 10 : 60);
    const warmupS = o.number('warmup', ctx.smoke ? 1 : intervalS);
    const durationS = o.number('duration', ctx.smoke ? 2 : Math.max(60, intervalS));
    const stallMb = o.number('stall-mb', ctx.smoke ? 1 : 10);
    const notes: string[] = [];

    const farm = await Farm.start(n, 0);
    const dir = tempDir(NAME);
    let service: Service | null = null;
    const readers: StreamReader[] = [];
    try {
      log(NAME, `creating ${n} http monitors at ${intervalS} s and ${REPORTERS} heartbeat monitors (data ${dir})`);
      service = await Service.start({ dataDir: dir });
      const keys = await service.adminKeys(KeyPool.sizeFor(clients + REPORTERS + 100));
      await service.createMonitors(keys, httpMonitors(n, farm, intervalS));
      const reportPaths = await heartbeatReporters(service, keys);
      await service.stop();
      service = null;

      const prof = profileDir(ctx, NAME);
      service = await Service.start({ dataDir: dir, profileDir: prof });
      const svc = service;
      const streamUrl = `${svc.url}/api/v1/stream`;
      const reportUrls = reportPaths.map((p) => `${svc.url}${p}`);
      log(NAME, `restarted (pid ${svc.pid}); warming up ${warmupS} s`);
      await wait(NAME, 'warm-up', warmupS * 1000);

      log(NAME, `A: no stream clients, ${durationS} s`);
      const a = await measure(svc.pid, durationS);

      log(NAME, `B: opening ${clients} stream clients (one stalls)`);
      const stalled = await StalledClient.open(streamUrl, keys.header());
      for (let i = 0; i < clients - 1; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(50, clients - 1 - i) }, () => StreamReader.open(streamUrl, keys.header())),
        );
        readers.push(...batch);
      }
      await until(() => readers.every((r) => r.lastSeq >= 0), 'every client to get hello', 30_000);
      for (const r of readers) r.measuring = true;
      const checks0 = readers.map((r) => r.checks);
      const events0 = readers.map((r) => r.events);
      const harness = new CpuWindow(process.pid);
      log(NAME, `B: ${clients} stream clients, ${durationS} s`);
      const fromUs = monotonicUs();
      const b = await measure(svc.pid, durationS);
      const window = { fromUs, toUs: monotonicUs() };
      const harnessUsed = harness.read();
      for (const r of readers) r.measuring = false;
      const delays = readers.flatMap((r) => r.delays);
      const d = spread(delays);
      const perReader = readers.map((r, i) => r.checks - checks0[i]);
      const writes = readers.reduce((s, r, i) => s + r.events - events0[i], 0);
      const gapsB = readers.reduce((s, r) => s + r.gaps, 0);
      const endedB = readers.filter((r) => r.ended).length;

      log(
        NAME,
        `C: ${Math.min(PHASE_C_READERS, readers.length)} readers stay; failure reports of 1 KB until ${stallMb} MB went out`,
      );
      const keep = readers.slice(0, PHASE_C_READERS);
      const keepGapsB = keep.reduce((s, r) => s + r.gaps, 0);
      await Promise.all(readers.slice(PHASE_C_READERS).map((r) => r.close()));
      const c = await burst(keep, reportUrls, stallMb * MB);
      const stall = await stalled.resume(15_000);
      const gapsC = keep.reduce((s, r) => s + r.gaps, 0) - keepGapsB;
      const endedC = keep.filter((r) => r.ended).length;
      await Promise.all(keep.map((r) => r.close()));
      await svc.stop();
      service = null;

      const extraCpu = b.cpu.pctOfCore - a.cpu.pctOfCore;
      const pct = (ms: number, w: CpuUse) => (100 * ms) / w.wallMs;
      const metrics: Metric[] = [
        metric('monitors', n, ''),
        metric('stream clients (one of them stalled)', clients, ''),
        metric('CPU of the service without clients', a.cpu.pctOfCore, '% of a core'),
        metric(`CPU of the service with ${clients} clients`, b.cpu.pctOfCore, '% of a core'),
        metric('extra CPU for the clients', extraCpu, '% of a core'),
        metric('  of which user', pct(b.cpu.userMs, b.cpu) - pct(a.cpu.userMs, a.cpu), '% of a core'),
        metric('  of which system (kernel: sockets)', pct(b.cpu.sysMs, b.cpu) - pct(a.cpu.sysMs, a.cpu), '% of a core'),
        metric('  on the main thread', pct(b.cpu.mainMs, b.cpu) - pct(a.cpu.mainMs, a.cpu), '% of a core'),
        metric('  per 100 clients', (extraCpu * 100) / clients, '% of a core'),
        metric(
          '  per event written to a client',
          writes > 0 ? ((extraCpu / 100) * b.cpu.wallMs * 1000) / writes : null,
          'µs',
        ),
        metric('RSS max without clients', a.rssMax / MB, 'MB'),
        metric(`RSS max with ${clients} clients`, b.rssMax / MB, 'MB'),
        metric('RSS growth for the clients', (b.rssMax - a.rssMax) / MB, 'MB', atMost(50)),
        metric('delay check result → client p50', d.p50, 'ms'),
        metric('delay check result → client p99', d.p99, 'ms', atMost(100)),
        metric('delay check result → client max', d.max, 'ms'),
        metric('check events per reading client in B (fewest)', Math.min(...perReader), ''),
        metric('check events per reading client in B (most)', Math.max(...perReader), ''),
        metric('events lost at reading clients (gaps)', gapsB + gapsC, '', atMost(0)),
        metric('reading clients cut off or ended', endedB + endedC, '', atMost(0)),
        metric('stalled client cut off', stall.cut ? 1 : 0, '', atLeast(1)),
        metric('  bytes it took before the cut (kernel buffers)', stall.bytes / MB, 'MB'),
        metric('C: failure reports sent', c.sent, ''),
        metric('C: event bytes sent to each reader', c.bytes / MB, 'MB'),
        metric('harness CPU in B (the clients)', harnessUsed.pctOfCore, '% of a core'),
      ];
      notes.push(
        `windows of ${durationS} s after a ${warmupS} s warm-up; ${d.n} check events timed across ${readers.length} reading clients`,
        "delay = time the event was read by the client − (at_ms + latency_ms) of the check, both on this machine's clock: at_ms is when the check started, so at_ms + latency_ms is when its result existed",
        `phase C: ${keep.length} readers stayed; ${c.rounds} rounds of up to ${ROUND_REPORTS} heartbeat failure reports (1 KB each) over ${REPORTERS} monitors, each round once every reader had the last`,
        `the clients run in the harness process (${Math.round(harnessUsed.pctOfCore)} % of a core in B): on 2 cores they compete with the service, so the delays include some harness time`,
      );
      if (!c.complete) notes.push(`phase C stopped early: ${c.why}`);
      notes.push(...profileNotes(prof, window));
      return {
        scenario: NAME,
        options: {
          monitors: n,
          clients,
          interval: intervalS,
          warmup: warmupS,
          duration: durationS,
          'stall-mb': stallMb,
        },
        metrics,
        notes,
        elapsedS: elapsedS(started),
      };
    } finally {
      await Promise.all(readers.map((r) => r.close()));
      if (service) await service.stop();
      await farm.stop();
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};

/**
 * Heartbeat monitors that never miss a deadline during the run; the paths of their failure-report
 * URLs (the service gets another port when it restarts).
 */
async function heartbeatReporters(service: Service, keys: KeyPool): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < REPORTERS; i++) {
    const m = await requestJson<{ heartbeat_url: string }>('POST', `${service.url}/api/v1/monitors`, {
      headers: keys.header(),
      body: {
        name: `reporter ${i}`,
        slug: `reporter-${i}`,
        kind: 'heartbeat',
        interval_s: 86400,
        heartbeat: { grace_s: 3600 },
      },
    });
    paths.push(`${new URL(m.heartbeat_url).pathname}/fail`);
  }
  return paths;
}

async function measure(pid: number, durationS: number): Promise<Window> {
  const cpu = new CpuWindow(pid);
  const rss = new RssSampler(pid);
  await wait(NAME, 'measuring', durationS * 1000);
  const used = cpu.read();
  rss.stop();
  return { cpu: used, rssMax: rss.max };
}

/** Rounds of failure reports until `bytes` of events went out, each round once every reader has had it. */
async function burst(
  readers: StreamReader[],
  urls: string[],
  bytes: number,
): Promise<{ sent: number; bytes: number; rounds: number; complete: boolean; why: string }> {
  const bytes0 = Math.min(...readers.map((r) => r.bytes));
  let sent = 0;
  let rounds = 0;
  while (Math.min(...readers.map((r) => r.bytes)) - bytes0 < bytes) {
    if (sent >= urls.length * 500)
      return {
        sent,
        bytes: Math.min(...readers.map((r) => r.bytes)) - bytes0,
        rounds,
        complete: false,
        why: "the reporters' rate limits are near",
      };
    const target = readers.map((r) => r.checks + ROUND_REPORTS);
    const first = sent;
    const load = await runLoad({
      concurrency: 16,
      requests: ROUND_REPORTS,
      task: (i, agent) =>
        request('POST', urls[(first + i) % urls.length], {
          body: REPORT_TEXT,
          headers: { 'Content-Type': 'text/plain' },
          agent,
          timeoutMs: 10_000,
        }),
    });
    if ((load.statuses[200] ?? 0) !== ROUND_REPORTS)
      throw new Error(`failure reports were refused: ${JSON.stringify(load.statuses)} ${load.firstError}`);
    sent += ROUND_REPORTS;
    rounds += 1;
    await until(
      () => readers.every((r, i) => r.checks >= target[i] || r.ended),
      'every reader to get the round',
      30_000,
    );
  }
  return { sent, bytes: Math.min(...readers.map((r) => r.bytes)) - bytes0, rounds, complete: true, why: '' };
}

async function until(ready: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!ready()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
