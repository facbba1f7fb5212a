/**
 * locations (not part of `all`; issue 41, docs/agents.md): one service and 3 agents (`node
 * dist/main.js agent`, each its own process and location), N http monitors checked from 2 of the 3
 * agents each, against the farm. Two windows, one after the other, on the same service:
 *   1. local: N monitors checked by the service itself (locations ["local"]; the remote set
 *      paused): the service's CPU per check it runs;
 *   2. remote: the local set paused, the remote set running on the agents: the service's CPU per
 *      result it ingests (POST /api/agent/results, validated, stored, judged), each agent's CPU per
 *      check beside the bare-GET floor at an agent's rate (floor.ts, same window), and the delay
 *      from a check's end to its result announced on GET /api/v1/stream (announced after the
 *      commit: durable before announced, so this is the delay to stored, plus the stream's hop).
 * Targets (issue 41): ingest ≤ 0.5 × a local check, agent ≤ 1.3 × the floor, delay p99 ≤ 2 s.
 * Results ingested are rows of `location_results`, read from the outside (bench/db.ts). The agents'
 * resident memory is read idle (connected, no monitor yet) and busy (at the window's end). With
 * --profile the first agent runs under node --cpu-prof, summarised for the remote window. With
 * --against OTHER/dist the first agent runs that build (A) and the other two this one (B), so two
 * builds of the agent are measured in the same minutes against the same service.
 */
import type { Options } from '../../harness/args';
import { Child, startChild, stopChild } from '../../harness/children';
import { removeDir, SERVICE_ENTRY, tempDir } from '../../harness/paths';
import { CpuWindow, memory } from '../../harness/proc';
import { KeyPool, Service } from '../../harness/service';
import { spread } from '../../harness/stats';
import { Sqlite } from '../db';
import { Farm } from '../farm';
import type { MonitorBody } from '../monitors';
import { atMost, metric, Metric, ScenarioResult } from '../report';
import { monotonicUs } from '../profile';
import { elapsedS, log, RunContext, Scenario, wait } from '../scenario';
import { profileDir, profileNotes } from '../service-profile';
import { StreamReader } from '../stream-reader';
import { entryOf } from './compare';
import { measureFloor } from './floor';

const NAME = 'locations';

interface Agent {
  name: string;
  id: number;
  token: string;
  child: Child | null;
  spool: string;
}

/** The two sets over one farm: local monitors on endpoints 0..n-1, remote ones on n..2n-1. */
export function locationSets(
  n: number,
  farmUrl: string,
  intervalS: number,
  agents: readonly string[],
  phase: 'local' | 'remote',
): MonitorBody[] {
  const http = (i: number) => ({ url: `${farmUrl}/e/${i}` });
  const local = Array.from({ length: n }, (_, i) => ({
    name: `local ${i}`,
    slug: `local-${i}`,
    kind: 'http',
    interval_s: intervalS,
    http: http(i),
    locations: ['local'],
    paused: phase !== 'local',
  }));
  const remote = Array.from({ length: n }, (_, i) => ({
    name: `remote ${i}`,
    slug: `remote-${i}`,
    kind: 'http',
    interval_s: intervalS,
    http: http(n + i),
    // Two places of the three, turn about, so each agent checks 2/3 of the monitors.
    locations: [agents[i % agents.length], agents[(i + 1) % agents.length]],
    paused: phase !== 'remote',
  }));
  return [...local, ...remote];
}

/** Rows of location_results so far, by location id (read from the outside, bench/db.ts). */
async function resultsByLocation(file: string): Promise<Map<number, number>> {
  const db = await Sqlite.open(file);
  try {
    const rows = await db.all<{ id: number; n: number }>(
      'SELECT location_id AS id, COUNT(*) AS n FROM location_results GROUP BY location_id',
    );
    return new Map(rows.map((r) => [r.id, r.n]));
  } finally {
    await db.close();
  }
}

/**
 * `entry`: the build to run (another tree's with --against); `profile`: a directory for the
 * agent's CPU profile (node --cpu-prof), written when it stops.
 */
function startAgent(service: Service, a: Agent, entry: string, profile?: string): Child {
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  return startChild(process.execPath, [...nodeArgs, entry, 'agent'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      FARSIGHT_AGENT_SERVER: service.url,
      FARSIGHT_AGENT_TOKEN: a.token,
      FARSIGHT_AGENT_SPOOL_DIR: a.spool,
      FARSIGHT_CANARIES: 'off',
      FARSIGHT_LOG_LEVEL: 'warn',
    },
  });
}

export const locationsScenario: Scenario = {
  name: NAME,
  summary:
    'one service and 3 agents, N monitors each checked from 2 places: ingest CPU vs a local check, agent CPU vs the floor, delay',
  options: ['monitors', 'interval', 'warmup', 'duration', 'against'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 12 : 10_000);
    const intervalS = o.number('interval', ctx.smoke ? 10 : 60);
    const warmupS = o.number('warmup', ctx.smoke ? 3 : intervalS);
    // A smoke window of one interval: each agent has checked each of its monitors in it (a shorter
    // one could hold no result of an agent whose checks ran late on a loaded machine).
    const durationS = o.number('duration', ctx.smoke ? intervalS : Math.max(60, intervalS));
    const notes: string[] = [];
    const prof = profileDir(ctx, NAME);
    // --against: the first agent runs another build (A), the other two this one (B), side by side.
    const against = o.has('against') ? entryOf(o.string('against', '')) : null;
    const farm = await Farm.start(2 * n, 0);
    const dir = tempDir(NAME);
    let service: Service | null = null;
    const agents: Agent[] = [];
    let stream: StreamReader | null = null;
    try {
      service = await Service.start({ dataDir: `${dir}/service` });
      const keys = await service.adminKeys(KeyPool.sizeFor(50));
      // Locations are added with the owner's fresh session, as the Locations page does (an admin key may too).
      for (let a = 0; a < 3; a++) {
        const loc = await service.createLocation(`bench-${a + 1}`);
        agents.push({ name: loc.name, id: loc.id, token: loc.token, child: null, spool: `${dir}/spool-${a + 1}` });
      }
      const names = agents.map((a) => a.name);
      log(NAME, `creating ${2 * n} monitors at ${intervalS} s (data ${dir})`);
      await service.createMonitors(keys, locationSets(n, farm.url, intervalS, names, 'local'));

      // 1. The service checks the local set itself.
      await wait(NAME, 'local warm-up', warmupS * 1000);
      const c0 = await farm.counts();
      const localCpu = new CpuWindow(service.pid);
      await wait(NAME, 'local window', durationS * 1000);
      const localUsed = localCpu.read();
      const localChecks = (await farm.counts()).total - c0.total;
      const perLocal = localChecks > 0 ? localUsed.cpuMs / localChecks : null;

      // 2. The agents check the remote set; the service only ingests. With --profile the first
      // agent runs under --cpu-prof (the service is not profiled here: its ingest is a small share).
      agents.forEach(
        (a, i) =>
          (a.child = startAgent(service!, a, i === 0 && against ? against : SERVICE_ENTRY, i === 0 ? prof : undefined)),
      );
      // Idle: connected, an empty assignment, nothing to check yet.
      await wait(NAME, 'agents idle', 5_000);
      const idleRss = agents.map((a) => memory(a.child!.pid).rss);
      await service.createMonitors(keys, locationSets(n, farm.url, intervalS, names, 'remote'));
      stream = await StreamReader.open(`${service.url}/api/v1/stream`, keys.header());
      await wait(NAME, 'remote warm-up', warmupS * 1000);
      const r0 = await resultsByLocation(service.dbFile);
      const serviceCpu = new CpuWindow(service.pid);
      const agentCpu = agents.map((a) => new CpuWindow(a.child!.pid));
      const perAgentRate = (2 * n) / intervalS / agents.length;
      const floorRun = measureFloor(perAgentRate, durationS).then(
        (f) => f,
        (err: unknown) => {
          notes.push(`the floor could not be measured: ${err instanceof Error ? err.message : String(err)}`);
          return null;
        },
      );
      stream.measuring = true;
      const fromUs = monotonicUs();
      await wait(NAME, 'remote window', durationS * 1000);
      const measured = { fromUs, toUs: monotonicUs() };
      stream.measuring = false;
      const busyRss = agents.map((a) => memory(a.child!.pid).rss);
      const serviceUsed = serviceCpu.read();
      const agentUsed = agentCpu.map((w) => w.read());
      const r1 = await resultsByLocation(service.dbFile);
      const floor = await floorRun;
      // An agent that fell behind says why (a refused or timed-out POST, a full spool): its last warnings.
      for (const a of agents) {
        const said = (a.child?.tail() ?? '').split('\n').filter((l) => / (WARN|ERROR) /.test(l));
        if (said.length)
          notes.push(`agent ${a.name} said (last ${Math.min(3, said.length)}): ${said.slice(-3).join(' | ')}`);
      }

      const perAgent = agents.map((a) => (r1.get(a.id) ?? 0) - (r0.get(a.id) ?? 0));
      const ingested = perAgent.reduce((x, y) => x + y, 0);
      const perIngest = ingested > 0 ? serviceUsed.cpuMs / ingested : null;
      const agentMs = agentUsed.reduce((x, u) => x + u.cpuMs, 0);
      const perAgentCheck = ingested > 0 ? agentMs / ingested : null;
      const agentUserMs = agentUsed.reduce((x, u) => x + u.userMs, 0);
      const agentMainMs = agentUsed.reduce((x, u) => x + u.mainMs, 0);
      const mb = (bytes: number[]) => bytes.reduce((x, y) => x + y, 0) / bytes.length / 1024 / 1024;
      /** One agent's CPU per check: each checks 2/3 of the monitors, so their figures compare. */
      const perCheckOf = (i: number) => (perAgent[i] > 0 ? agentUsed[i].cpuMs / perAgent[i] : null);
      const checksB = perAgent[1] + perAgent[2];
      const perCheckB = checksB > 0 ? (agentUsed[1].cpuMs + agentUsed[2].cpuMs) / checksB : null;
      const perCheckA = perCheckOf(0);
      const sideBySide: Metric[] = against
        ? [
            metric('A: agent 1 (--against) CPU per check', perCheckA, 'ms'),
            metric('A: agent 1 RSS idle', mb([idleRss[0]]), 'MB'),
            metric('A: agent 1 RSS busy', mb([busyRss[0]]), 'MB'),
            metric('B: agents 2 and 3 (this build) CPU per check', perCheckB, 'ms'),
            metric('B ÷ A, CPU per check', perCheckA && perCheckB !== null ? perCheckB / perCheckA : null, '×'),
            metric('B: agents 2 and 3 RSS idle', mb(idleRss.slice(1)), 'MB'),
            metric('B: agents 2 and 3 RSS busy', mb(busyRss.slice(1)), 'MB'),
          ]
        : agents.map((a, i) => metric(`agent ${i + 1} CPU per check`, perCheckOf(i), 'ms'));
      const delays = spread(stream.delays);
      const expectedPerMin = (2 * n * 60) / intervalS;
      const windowMin = serviceUsed.wallMs / 60_000;
      const atTarget = n >= 10_000 && intervalS <= 60;

      const metrics: Metric[] = [
        metric('monitors (each from 2 of 3 agents)', n, ''),
        metric('service CPU per local check', perLocal, 'ms'),
        metric('service CPU per ingested result', perIngest, 'ms'),
        metric(
          'ingest ÷ local check',
          perIngest !== null && perLocal ? perIngest / perLocal : null,
          '×',
          atTarget ? atMost(0.5) : undefined,
        ),
        metric('service CPU while ingesting', serviceUsed.pctOfCore, '% of a core'),
        metric('agent CPU per check', perAgentCheck, 'ms'),
        metric('  of which user', ingested > 0 ? agentUserMs / ingested : null, 'ms'),
        metric('  of which the main thread', ingested > 0 ? agentMainMs / ingested : null, 'ms'),
        metric('bare-GET floor at an agent rate, same run', floor?.cpuMs ?? null, 'ms'),
        metric('  of which user', floor?.userMs ?? null, 'ms'),
        metric(
          'agent CPU per check ÷ floor',
          perAgentCheck !== null && floor && floor.cpuMs > 0 ? perAgentCheck / floor.cpuMs : null,
          '×',
          atTarget ? atMost(1.3) : undefined,
        ),
        metric('agent RSS idle (connected, no monitor), mean of 3', mb(idleRss), 'MB'),
        metric('agent RSS busy (end of the window), mean of 3', mb(busyRss), 'MB'),
        ...sideBySide,
        metric('check to stored (announced) p50', delays.p50, 'ms'),
        metric('check to stored (announced) p99', delays.p99, 'ms', atMost(2000)),
        metric('check to stored (announced) max', delays.max, 'ms'),
        metric('results ingested per minute', ingested / windowMin, '/min'),
        metric('results per minute expected', expectedPerMin, '/min'),
      ];
      notes.push(
        `local window: ${localChecks} checks by the service in ${Math.round(localUsed.wallMs / 1000)} s; remote window: ${ingested} results ingested (${perAgent.join(' + ')} by agent) in ${Math.round(serviceUsed.wallMs / 1000)} s, after ${warmupS} s warm-ups`,
        `delay = stream event received − (check start + latency), ${delays.n} check events of the remote window; the stream announces a result after its commit`,
        floor
          ? `floor: ${floor.requests} bare GETs at ${perAgentRate.toFixed(1)}/s (one agent's rate) beside the window, in a process of their own`
          : 'floor: not measured',
      );
      if (prof) {
        // The profile is written when the agent exits (its memory above is the profiler's too).
        await Promise.all(agents.flatMap((a) => (a.child ? [stopChild(a.child)] : [])));
        notes.push(...profileNotes(prof, measured, 'the first agent'));
      }
      return {
        scenario: NAME,
        options: { monitors: n, interval: intervalS, warmup: warmupS, duration: durationS, against: against ?? '' },
        metrics,
        notes,
        elapsedS: elapsedS(started),
      };
    } finally {
      await stream?.close();
      await Promise.all(agents.flatMap((a) => (a.child ? [stopChild(a.child)] : [])));
      if (service) await service.stop();
      await farm.stop();
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};
