/**
 * engine: N monitors (80 % http, 10 % tcp, 10 % dns) at one interval against the farm, the service
 * running as its own process. Monitors are created through the API (POST /monitors/bulk), then the
 * service is restarted, so their checks are spread over the interval as after any start; with
 * `--start bulk` the service that created them is measured as it is (a bulk-created set puts its
 * checks after the first on each monitor's own phase: the two should cost the same). After a warm-up of at
 * least one interval, one window is measured:
 *   CPU of the service process (/proc/<pid>/stat, all threads) as % of one core and per check,
 *   RSS (max during the window, and the process's peak), lateness from the farm (|gap − interval|
 *   between consecutive hits of each endpoint), checks per minute achieved vs expected, database
 *   growth, bytes handed to write() per check (wchar); and, beside the window, the bare-GET floor
 *   at the same rate (floor.ts), so CPU per check is read as a multiple of it measured under the
 *   same load. After a graceful stop, results lost = checks the farm saw − rows stored.
 */
import type { Options } from '../../harness/args';
import { measureDb } from '../db';
import { Farm } from '../farm';
import { requestJson } from '../../harness/http-client';
import { mixedMonitors, tcpCount } from '../monitors';
import { removeDir, tempDir } from '../../harness/paths';
import { bytesWritten, CpuWindow, memory, RssSampler } from '../../harness/proc';
import { monotonicUs } from '../profile';
import { atMost, metric, Metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario, wait } from '../scenario';
import { Service } from '../../harness/service';
import { profileDir, profileNotes } from '../service-profile';
import { measureFloor } from './floor';

const NAME = 'engine';
const MB = 1024 * 1024;

export const engineScenario: Scenario = {
  name: NAME,
  summary: 'N mixed monitors at an interval against the farm: CPU, RSS, lateness, lost results',
  options: ['monitors', 'interval', 'warmup', 'duration', 'node-args', 'start', 'maintenance'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 20 : 10_000);
    const intervalS = o.number('interval', ctx.smoke ? 10 : 60);
    const warmupS = o.number('warmup', ctx.smoke ? 2 : intervalS);
    const durationS = o.number('duration', ctx.smoke ? 3 : Math.max(60, intervalS));
    const nodeArgs = o
      .string('node-args', '')
      .split(' ')
      .filter((a) => a !== '');
    const start = o.string('start', 'restart');
    // --maintenance N: N maintenance windows (issue 36), so the cost of windows on the check path shows.
    const windowCount = o.number('maintenance', 0);
    if (start !== 'restart' && start !== 'bulk') throw new Error(`--start takes restart or bulk, not ${start}`);
    const notes: string[] = [];
    if (!ctx.smoke && (warmupS < intervalS || durationS < intervalS)) {
      notes.push(
        `warm-up ${warmupS} s or window ${durationS} s is shorter than the interval ${intervalS} s: figures are not steady-state`,
      );
    }

    const farm = await Farm.start(n, tcpCount(n));
    const dir = tempDir(NAME);
    let service: Service | null = null;
    const prof = profileDir(ctx, NAME);
    try {
      log(NAME, `creating ${n} monitors at ${intervalS} s (farm pid ${farm.pid}, data ${dir})`);
      service = await Service.start(start === 'bulk' ? { dataDir: dir, profileDir: prof, nodeArgs } : { dataDir: dir });
      const keys = await service.adminKeys(1);
      const createStarted = performance.now();
      await service.createMonitors(keys, mixedMonitors(n, farm, intervalS));
      const createMs = performance.now() - createStarted;
      if (windowCount > 0) {
        await createWindows(service, keys, windowCount, await service.monitorIds(keys));
        notes.push(
          `${windowCount} maintenance windows: one active (1 % of the monitors), the others weekly, not active`,
        );
      }
      let restartMs: number | null = null;
      if (start === 'restart') {
        await service.stop();
        service = null;
      }
      const before = await measureDb(`${dir}/farsight.db`);

      await farm.reset();
      if (!service) {
        service = await Service.start({ dataDir: dir, profileDir: prof, nodeArgs });
        restartMs = service.startupMs;
        log(
          NAME,
          `restarted with ${n} monitors in ${Math.round(service.startupMs)} ms (pid ${service.pid}); warming up ${warmupS} s`,
        );
      } else {
        log(NAME, `measuring the service that created them (pid ${service.pid}); warming up ${warmupS} s`);
      }
      const pid = service.pid;
      const rss = new RssSampler(pid);
      await wait(NAME, 'warm-up', warmupS * 1000);

      const cpu = new CpuWindow(pid);
      const written0 = bytesWritten(pid);
      const fromUs = monotonicUs();
      const farmCpu = new CpuWindow(farm.pid);
      const from = Date.now();
      const c0 = await farm.counts();
      const d0 = await measureDb(service.dbFile);
      const rssWindow = new RssSampler(pid);
      // The floor at the engine's rate, beside the window: both figures under the same load.
      const floorRun = measureFloor(n / intervalS, durationS).then(
        (f) => f,
        (err: unknown) => {
          notes.push(`the floor could not be measured: ${err instanceof Error ? err.message : String(err)}`);
          return null;
        },
      );
      log(NAME, `measuring ${durationS} s`);
      await wait(NAME, 'measuring', durationS * 1000);
      const used = cpu.read();
      const written = bytesWritten(pid) - written0;
      const toUs = monotonicUs();
      const farmUsed = farmCpu.read();
      const to = Date.now();
      const c1 = await farm.counts();
      const d1 = await measureDb(service.dbFile);
      rssWindow.stop();
      rss.stop();
      const peak = memory(pid).peak;
      const summary = await requestJson<{ checks_per_min: number }>('GET', `${service.url}/api/v1/summary`, {
        headers: keys.header(),
      });
      const late = await farm.lateness(intervalS, from, to);

      const serviceOutput = service.child.tail().split('\n').slice(-3);
      await service.stop();
      service = null;
      const final = await measureDb(`${dir}/farsight.db`);
      const floor = await floorRun;
      const farmTotal = (await farm.counts()).total;
      const stored = final.rows - before.rows;

      const checks = c1.total - c0.total;
      const windowMin = used.wallMs / 60_000;
      const cpuPerCheck = checks > 0 ? used.cpuMs / checks : null;
      const expectedPerMin = (n * 60) / intervalS;
      const rows = d1.rows - d0.rows;
      const growthPerHour = ((d1.logicalBytes - d0.logicalBytes) / used.wallMs) * 3_600_000;
      const atTarget = n >= 10_000 && intervalS <= 60;
      const ratio = cpuPerCheck !== null && floor && floor.cpuMs > 0 ? cpuPerCheck / floor.cpuMs : null;

      const metrics: Metric[] = [
        metric('monitors', n, ''),
        metric('CPU of the service', used.pctOfCore, '% of a core', atTarget ? atMost(10) : undefined),
        metric('CPU per check', cpuPerCheck, 'ms', atMost(0.4)),
        metric('  of which user', checks > 0 ? used.userMs / checks : null, 'ms'),
        metric('  of which system (kernel)', checks > 0 ? used.sysMs / checks : null, 'ms'),
        metric('  on the main thread', checks > 0 ? used.mainMs / checks : null, 'ms'),
        metric('  on other threads (sqlite3, dns, GC)', checks > 0 ? (used.cpuMs - used.mainMs) / checks : null, 'ms'),
        metric('bare-GET floor at this rate, same run', floor?.cpuMs ?? null, 'ms'),
        metric('CPU per check ÷ floor', ratio, '×', atTarget ? atMost(1.25) : undefined),
        metric(
          'CPU projected for 10,000 at 60 s',
          cpuPerCheck === null ? null : (cpuPerCheck * 10_000) / 60 / 10,
          '% of a core',
          atMost(10),
        ),
        metric('RSS max over the run (VmHWM, from the start)', peak / MB, 'MB', atMost(250)),
        metric('RSS max in window', rssWindow.max / MB, 'MB'),
        metric('RSS at the end of the window', rssWindow.samples[rssWindow.samples.length - 1] / MB, 'MB'),
        metric('lateness p50', late.p50, 'ms'),
        metric('lateness p99', late.p99, 'ms', atMost(1000)),
        metric('lateness max', late.max, 'ms'),
        metric('checks per minute', checks / windowMin, '/min'),
        metric('checks per minute expected', expectedPerMin, '/min'),
        metric('checks per minute (service says)', summary.checks_per_min, '/min'),
        metric('results lost', Math.max(0, farmTotal - stored), '', atMost(0)),
        metric('database growth per hour', growthPerHour / MB, 'MB/h'),
        metric(
          'bytes written per check (wchar: WAL, checkpoints, sockets)',
          checks > 0 ? written / checks : null,
          'B',
          atMost(2048),
        ),
        metric(
          'database growth per check',
          rows > 0 ? (d1.logicalBytes - d0.logicalBytes) / rows : null,
          'B',
          atMost(40),
        ),
        metric('farm CPU', farmUsed.pctOfCore, '% of a core'),
        metric('start to healthy with these monitors', restartMs, 'ms'),
      ];
      notes.push(
        `window ${Math.round(used.wallMs / 1000)} s after a ${warmupS} s warm-up; ${checks} checks seen by the farm, ${rows} rows stored in the window`,
        `lateness = |gap between consecutive hits of one endpoint − ${intervalS} s| at the farm, ${late.n} gaps over ${late.endpoints} endpoints (includes each check's own duration)`,
        `results lost = checks the farm saw since the ${start === 'bulk' ? 'creation' : 'restart'} (${farmTotal}) − rows stored (${stored}), after a graceful stop`,
        start === 'bulk'
          ? 'measured without a restart: the checks are spread by the bulk create itself (--start bulk)'
          : 'measured after a restart (--start bulk measures the service that created them)',
        `created ${n} monitors in ${Math.round(createMs)} ms (POST /monitors/bulk, 1,000 per request)`,
        `RSS every 10 s from the ${start === 'bulk' ? 'creation' : 'restart'}, MB: ${rss.samples
          .filter((_, i) => i % 10 === 0)
          .map((b) => Math.round(b / MB))
          .join(' ')}`,
        floor
          ? `floor: ${floor.requests} bare GETs at ${Math.round((n / intervalS) * 10) / 10}/s beside the window, in a process of their own with a farm of their own (${floor.userMs.toFixed(3)} ms user + ${floor.sysMs.toFixed(3)} ms system each)`
          : 'floor: not measured',
        'CPU time and bytes written are what to compare between runs on a shared machine: other work on the same cores stretches wall-clock figures (lateness, start time) but not the CPU a check uses or the bytes it writes',
        ...profileNotes(prof, { fromUs, toUs }),
      );
      if (nodeArgs.length)
        notes.push(`service ran with node ${nodeArgs.join(' ')}; its last output:`, ...serviceOutput);
      return {
        scenario: NAME,
        options: { monitors: n, interval: intervalS, warmup: warmupS, duration: durationS, start },
        metrics,
        notes,
        elapsedS: elapsedS(started),
      };
    } finally {
      if (service) await service.stop();
      await farm.stop();
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};

/**
 * `count` maintenance windows over the monitors: the first active by hand over 1 % of them (the
 * check path asks which active window holds a monitor), the others weekly windows of 20 monitors
 * each on a day and hour that are not now (the engine keeps their next boundaries).
 */
export async function createWindows(
  service: Service,
  keys: Awaited<ReturnType<Service['adminKeys']>>,
  count: number,
  ids: number[],
): Promise<void> {
  const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const now = new Date();
  for (let i = 0; i < count; i++) {
    const monitors = i === 0 ? ids.filter((_, j) => j % 100 === 0) : ids.slice((i * 20) % ids.length).slice(0, 20);
    const hour = (now.getUTCHours() + 6 + (i % 12)) % 24;
    const schedule =
      i === 0
        ? { kind: 'manual' }
        : {
            kind: 'weekly',
            days: [days[i % 7]],
            start_time: `${String(hour).padStart(2, '0')}:00`,
            duration_min: 30,
            tz: 'UTC',
          };
    const w = await requestJson<{ id: number }>('POST', `${service.url}/api/v1/maintenance`, {
      headers: keys.header(),
      body: { title: `Bench window ${i + 1}`, monitors, schedule },
    });
    if (i === 0)
      await requestJson(
        'POST',
        `${service.url}/api/v1/maintenance/${w.id}/start`,
        { headers: keys.header(), body: {} },
        [200],
      );
  }
}
