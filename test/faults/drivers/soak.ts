/**
 * The soak: the built service under a steady load for a long time, watched from outside.
 *
 *   2,000 http monitors at 10 s on loopback targets, 5 % of them flapping (500 during every other
 *   15 s window), a webhook channel taking the alerts that causes, and a steady API load (reads
 *   of lists, summaries, single monitors and the timeline, and description writes, 5 a second).
 *
 * Sampled every 5 s from /proc: RSS and the number of open file descriptors of the service; every
 * 10 s what the heap holds after a full collection (gc-probe.ts, loaded into the service).
 * Measured by the targets: the gaps between two checks of each steady target, minus the
 * interval, is how late checks ran. After a warm-up (the first checks, caches, the heap finding
 * its size) the report gives the least-squares slope of RSS (MB per 5 minutes), the handle count
 * at the start and end of the window and its slope, and the lateness p50/p99/max.
 *
 * CI runs 5 minutes through test/faults/soak.e2e-spec.ts; a long run (hours) for local use:
 *   npm run build && node dist/tsc/test/faults/drivers/soak.js --minutes 180 [--monitors 2000] [--out file.json]
 * or FAULTS_SOAK_MINUTES=180 npx jest test/faults/soak.e2e-spec.ts.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { keepAliveAgent, request } from '../../../harness/http-client';
import { memory } from '../../../harness/proc';
import { KeyPool, Service } from '../../../harness/service';
import { round, spread, Spread } from '../../../harness/stats';
import { removeDir, tempDir } from '../../../harness/paths';

export interface SoakOptions {
  minutes: number;
  monitors: number;
  intervalS: number;
  /** Share of targets that flap, 0-1. */
  flapping: number;
  /** API requests per second. */
  apiRps: number;
  /** Samples before this are warm-up; default: 70 minutes in runs of 2 hours or more, else 2 minutes, or 40 % of a shorter run (the heap grows to its working size first). */
  warmupS?: number;
  /** Progress lines go here (one per minute). */
  progress?: (line: string) => void;
}

export interface SoakReport {
  minutes: number;
  monitors: number;
  warmupS: number;
  checks: number;
  /** Least-squares slope of RSS over the window after warm-up, MB per 5 minutes. */
  rssSlopeMbPer5Min: number;
  /**
   * What the service keeps alive: V8's heap plus the memory of its Buffers right after a forced
   * full collection every 10 s (gc-probe.ts), free of the garbage between collections that
   * makes RSS a saw. Median slope (medianSlope) over the window after warm-up, MB per 5 minutes,
   * and how many readings.
   */
  liveHeap: { first: number | null; last: number | null; readings: number; slopeMbPer5Min: number };
  rssMb: { first: number; last: number; max: number };
  /** Open file descriptors of the service (sockets, database files, pipes): first and last are the lowest count of the first and last minute. */
  handles: { first: number; last: number; max: number; slopePer5Min: number };
  /** |gap between two checks of a steady target − interval|, ms, after warm-up. */
  latenessMs: Spread;
  api: {
    requests: number;
    ok: number;
    p99Ms: number | null;
    errors: number;
    /** p99 per route (method and path with the monitor named by `:id`), ms. */
    p99ByRoute: Record<string, number | null>;
    /** The first errors, as `METHOD path: status or error`. */
    firstErrors: string[];
  };
  alerts: number;
  samples: { t_s: number; rss_mb: number; handles: number }[];
  /** The probe's readings of what stays alive (MB), the whole run. */
  liveSamples: { t_s: number; mb: number; rss_mb: number }[];
}

/** Least-squares slope of y over x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * The Theil-Sen slope: the median of the slopes between every two points. One reading taken while
 * a big answer or a commit was in flight (1.8 MB above its neighbours in one run) tilts a
 * least-squares line; it does not move the median.
 */
export function medianSlope(points: readonly { x: number; y: number }[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j].x - points[i].x;
      if (dx !== 0) slopes.push((points[j].y - points[i].y) / dx);
    }
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length >> 1;
  return slopes.length % 2 ? slopes[mid] : (slopes[mid - 1] + slopes[mid]) / 2;
}

/**
 * The lowest handle count of each minute of samples, at the minute's middle. A minute with fewer
 * than half its samples (the last sample, taken as the run ends, opens a minute of its own) is
 * left out: its "lowest" would be one reading, taken whenever the checks in flight peaked.
 */
export function minuteFloors(
  samples: readonly { t_s: number; handles: number }[],
  perMinute = 60_000 / SAMPLE_MS,
): { t_s: number; handles: number }[] {
  const byMinute = new Map<number, number>();
  const counts = new Map<number, number>();
  for (const s of samples) {
    const m = Math.floor(s.t_s / 60);
    byMinute.set(m, Math.min(byMinute.get(m) ?? Infinity, s.handles));
    counts.set(m, (counts.get(m) ?? 0) + 1);
  }
  for (const [m, n] of counts) if (n < perMinute / 2) byMinute.delete(m);
  return [...byMinute].sort((a, b) => a[0] - b[0]).map(([m, handles]) => ({ t_s: m * 60 + 30, handles }));
}

export function handleCount(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

const FLAP_MS = 15_000;
const SAMPLE_MS = 5_000;
const PROBE_MS = 10_000;
const GC_PROBE = path.join(__dirname, 'gc-probe.js');
/** gc-probe.ts's line: bytes of heap and of Buffers alive after a forced full collection, and RSS then. */
export const GC_PROBE_LINE = /^gc-probe: heap (\d+) external (\d+) rss (\d+)$/;

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  // A long run's warm-up ends after every monitor's first fold (about an hour: until then each
  // monitor's rollup contributions and latency histograms are held in memory and still grow;
  // docs/storage.md); a short run's after two minutes.
  const warmupS = o.warmupS ?? (o.minutes >= 120 ? 70 * 60 : Math.min(120, Math.round(o.minutes * 60 * 0.4)));
  const dir = tempDir('soak');
  const flaps = (i: number) => i % Math.round(1 / o.flapping) === 0;
  const targets = await startSoakTargets(flaps);
  const receiver = await startCountingReceiver();
  let service: Service | null = null;
  try {
    const live: { t_s: number; mb: number; rss_mb: number }[] = [];
    let liveStart = Date.now();
    service = await Service.start({
      dataDir: dir,
      nodeArgs: ['--expose-gc', '--require', GC_PROBE],
      onLine: (line) => {
        const m = GC_PROBE_LINE.exec(line);
        if (m)
          live.push({
            t_s: (Date.now() - liveStart) / 1000,
            mb: (Number(m[1]) + Number(m[2])) / 1e6,
            rss_mb: Number(m[3]) / 1e6,
          });
      },
    });
    const keys: KeyPool = await service.adminKeys(2);
    const [writeKey, readKey] = keys.keys;
    await request('POST', `${service.url}/api/v1/channels`, {
      headers: { Authorization: `Bearer ${writeKey}` },
      body: {
        kind: 'webhook',
        name: 'soak',
        config: { url: receiver.url, secret: 'soak-signing-secret-0123456789', headers: [] },
      },
    });
    await service.createMonitors(
      new KeyPool([writeKey]),
      Array.from({ length: o.monitors }, (_, i) => ({
        name: `soak ${i}`,
        slug: `soak-${i}`,
        kind: 'http',
        interval_s: o.intervalS,
        http: { url: `${targets.url}/t/${i}` },
      })),
    );
    // Monitors are named by slug (`slug:soak-<i>`): no list of 2,000 ids to fetch first.
    const ids = Array.from({ length: o.monitors }, (_, i) => `slug:soak-${i}`);
    const started = Date.now();
    liveStart = started;
    live.length = 0;
    const end = started + o.minutes * 60_000;
    const pid = service.pid;
    const samples: SoakReport['samples'] = [];
    const sample = () => {
      const t = (Date.now() - started) / 1000;
      samples.push({ t_s: round(t, 1) ?? t, rss_mb: round(memory(pid).rss / 1e6, 2) ?? 0, handles: handleCount(pid) });
    };
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    const prober = setInterval(() => process.kill(pid, 'SIGUSR2'), PROBE_MS);
    let lastMinute = 0;
    const progress = setInterval(() => {
      const min = Math.floor((Date.now() - started) / 60_000);
      if (min > lastMinute && o.progress) {
        lastMinute = min;
        const s = samples[samples.length - 1];
        o.progress(`soak: ${min}/${o.minutes} min, RSS ${s.rss_mb} MB, ${s.handles} handles`);
      }
    }, 1000);

    // Steady API load: one request every 1/apiRps s, never more than 4 at once.
    const api = {
      requests: 0,
      ok: 0,
      errors: 0,
      ms: [] as number[],
      byRoute: new Map<string, number[]>(),
      firstErrors: [] as string[],
    };
    const agent = keepAliveAgent(4);
    const url = service.url;
    const one = async (n: number) => {
      const id = ids[n % ids.length];
      const auth = { Authorization: `Bearer ${n % 5 === 4 ? writeKey : readKey}` };
      const calls: [string, string, unknown?][] = [
        ['GET', '/api/v1/monitors?limit=50'],
        ['GET', '/api/v1/summary'],
        ['GET', `/api/v1/monitors/${id}`],
        ['GET', '/api/v1/events?limit=20'],
        ['PATCH', `/api/v1/monitors/${ids[n % 50]}`, { description: `soak write ${n}` }],
      ];
      const [method, p, body] = calls[n % calls.length];
      api.requests++;
      const route = `${method} ${p.replace(id, ':id').replace(ids[n % 50], ':id')}`;
      const failed = (why: string) => {
        api.errors++;
        if (api.firstErrors.length < 10) api.firstErrors.push(`${method} ${p}: ${why}`);
      };
      try {
        const a = await request(method, `${url}${p}`, { headers: auth, body, agent, timeoutMs: 10_000 });
        api.ms.push(a.ms);
        const list = api.byRoute.get(route) ?? [];
        list.push(a.ms);
        api.byRoute.set(route, list);
        if (a.status >= 200 && a.status < 300) api.ok++;
        else failed(`HTTP ${a.status} ${a.body.slice(0, 200)}`);
      } catch (err) {
        failed(err instanceof Error ? err.message : String(err));
      }
    };
    let inFlight = 0;
    let n = 0;
    const loadTimer = setInterval(() => {
      if (inFlight >= 4) return;
      inFlight++;
      void one(n++).finally(() => inFlight--);
    }, 1000 / o.apiRps);

    await new Promise((r) => setTimeout(r, end - Date.now()));
    clearInterval(loadTimer);
    clearInterval(sampler);
    clearInterval(prober);
    clearInterval(progress);
    sample();
    agent.destroy();
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 50));

    const window = samples.filter((s) => s.t_s >= warmupS);
    const fiveMin = 300;
    const rssSlope = slope(window.map((s) => ({ x: s.t_s, y: s.rss_mb }))) * fiveMin;
    // The count swings with the checks in flight (a socket each): the floor of each minute is what a leak raises.
    const floors = minuteFloors(window);
    const handleSlope = slope(floors.map((f) => ({ x: f.t_s, y: f.handles }))) * fiveMin;
    const liveWindow = live.filter((g) => g.t_s >= warmupS);
    const liveSlope = medianSlope(liveWindow.map((g) => ({ x: g.t_s, y: g.mb }))) * fiveMin;
    const lateness = targets.lateness(o.intervalS * 1000, started + warmupS * 1000, (i) => !flaps(i));
    const checks = targets.total();
    await service.stop();
    service = null;
    return {
      minutes: o.minutes,
      monitors: o.monitors,
      warmupS,
      checks,
      rssSlopeMbPer5Min: round(rssSlope, 3) ?? 0,
      liveHeap: {
        first: round(liveWindow[0]?.mb ?? NaN, 2) ?? null,
        last: round(liveWindow[liveWindow.length - 1]?.mb ?? NaN, 2) ?? null,
        readings: liveWindow.length,
        slopeMbPer5Min: round(liveSlope, 3) ?? 0,
      },
      rssMb: {
        first: window[0].rss_mb,
        last: window[window.length - 1].rss_mb,
        max: Math.max(...samples.map((s) => s.rss_mb)),
      },
      handles: {
        first: floors[0].handles,
        last: floors[floors.length - 1].handles,
        max: Math.max(...window.map((s) => s.handles)),
        slopePer5Min: round(handleSlope, 2) ?? 0,
      },
      latenessMs: lateness,
      api: {
        requests: api.requests,
        ok: api.ok,
        p99Ms: round(spread(api.ms).p99),
        errors: api.errors,
        p99ByRoute: Object.fromEntries([...api.byRoute].map(([r, ms]) => [r, round(spread(ms).p99)])),
        firstErrors: api.firstErrors,
      },
      alerts: receiver.count(),
      samples,
      liveSamples: live.map((g) => ({
        t_s: round(g.t_s, 1) ?? g.t_s,
        mb: round(g.mb, 2) ?? g.mb,
        rss_mb: round(g.rss_mb, 2) ?? g.rss_mb,
      })),
    };
  } finally {
    if (service) await service.stop().catch(() => undefined);
    await Promise.all([targets.close(), receiver.close()]);
    removeDir(dir);
  }
}

/** GET /t/<i>: 200, or 500 in every other 15 s window for flapping targets; the time of each hit is kept. */
async function startSoakTargets(flaps: (i: number) => boolean) {
  const hits = new Map<number, number[]>();
  let total = 0;
  const server = http.createServer((req, res) => {
    const m = /^\/t\/(\d+)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const i = Number(m[1]);
    total++;
    let list = hits.get(i);
    if (!list) hits.set(i, (list = []));
    list.push(Date.now());
    if (list.length > 2000) list.splice(0, 1000);
    const bad = flaps(i) && Math.floor((Date.now() + i * 7919) / FLAP_MS) % 2 === 1;
    res.writeHead(bad ? 500 : 200, { 'Content-Type': 'text/plain' }).end(bad ? 'flapping' : 'ok');
  });
  const close = closer(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    total: () => total,
    lateness(intervalMs: number, from: number, steady: (i: number) => boolean): Spread {
      const drift: number[] = [];
      for (const [i, list] of hits) {
        if (!steady(i)) continue;
        for (let k = 1; k < list.length; k++)
          if (list[k] >= from) drift.push(Math.abs(list[k] - list[k - 1] - intervalMs));
      }
      return spread(drift);
    },
    close,
  };
}

async function startCountingReceiver() {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(200).end('ok');
    });
  });
  const close = closer(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => n, close };
}

function closer(server: http.Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (require.main === module) {
  const minutes = Number(argValue('minutes') ?? '60');
  const monitors = Number(argValue('monitors') ?? '2000');
  const out = argValue('out');
  runSoak({
    minutes,
    monitors,
    intervalS: 10,
    flapping: 0.05,
    apiRps: 5,
    progress: (l) => process.stderr.write(`${l}\n`),
  })
    .then((r) => {
      const { samples, liveSamples, ...summary } = r;
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      if (out) fs.writeFileSync(out, JSON.stringify(r, null, 2));
      process.stderr.write(
        `soak: ${samples.length} samples, ${liveSamples.length} live-heap readings${out ? ` in ${out}` : ''}\n`,
      );
      process.exit(0);
    })
    .catch((err: unknown) => {
      process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
