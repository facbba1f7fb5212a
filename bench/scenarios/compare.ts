/**
 * compare (not in `all`): two builds side by side, on copies of one database of N mixed monitors,
 * checking one farm in the same minutes, so the machine's mood (which moves CPU per check by
 * 10-20 % from one hour to the next here) weighs on both alike. Reads each service's CPU over
 * equal windows and prints B ÷ A: `--against` is A (another tree's dist/main.js, or its dist
 * directory, built with `npm run build`), this tree's build is B. Two copies of this build give
 * the method's own noise (within 1-2 % over four windows here).
 *
 * The data is created by this build: A must open its schema (the same migrations, or A newer, or
 * A older when the migrations it lacks only add tables and columns it never reads).
 *
 * `--maintenance N` and `--edges E` (issue 36) add N maintenance windows (as the engine scenario
 * makes them: one active over 1 % of the monitors, the others weekly and not active) and E
 * `depends_on` edges to the shared database, through this build's API. A build that knows them
 * runs with them; an older one, from before they existed, opens the same database without
 * reading them, which is the comparison the issue asks for: B with windows and edges against A
 * without. `--setup-in b` gives them to B's copy only (A's is copied before they are made), so two
 * copies of one build measure what the windows and edges themselves cost (`--setup-in a`: A's only).
 * Each service is asked what it holds (GET /maintenance, the monitors' `depends_on`), and the
 * answer is part of the result, so a figure never claims windows a build did not have.
 *
 * `--swap` runs this build as A and the other as B. The slots are not quite equal (a control of
 * one build against itself read B ÷ A 0.962 on a quiet machine, 0.987 another day), so a figure
 * that must hold to a few percent is the geometric mean of a run and its swapped twin.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Options } from '../../harness/args';
import { Farm } from '../farm';
import { mixedMonitors, tcpCount, withEdges } from '../monitors';
import { requestJson } from '../../harness/http-client';
import { removeDir, SERVICE_ENTRY, tempDir } from '../../harness/paths';
import { CpuWindow } from '../../harness/proc';
import { metric, Metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario, wait } from '../scenario';
import { KeyPool, Service } from '../../harness/service';
import { createWindows } from './engine';

const NAME = 'compare';

/** A main.js to run: the file itself, or the one in a dist directory. */
export function entryOf(against: string): string {
  const file = fs.existsSync(against) && fs.statSync(against).isDirectory() ? path.join(against, 'main.js') : against;
  if (!fs.existsSync(file))
    throw new Error(`--against ${against}: no ${file} (give another tree's dist/ or dist/main.js, built)`);
  return path.resolve(file);
}

export const compareScenario: Scenario = {
  name: NAME,
  summary: 'two builds side by side on one farm (--against OTHER/dist): CPU per check of each, and B ÷ A',
  options: ['against', 'monitors', 'warmup', 'duration', 'windows', 'maintenance', 'edges', 'setup-in', 'swap'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const entries = [entryOf(o.string('against', SERVICE_ENTRY)), SERVICE_ENTRY];
    if (o.flag('swap')) entries.reverse();
    const n = o.number('monitors', ctx.smoke ? 20 : 10_000);
    const warmupS = o.number('warmup', ctx.smoke ? 1 : 70);
    const windowS = o.number('duration', ctx.smoke ? 2 : 60);
    const windows = Math.max(1, o.number('windows', ctx.smoke ? 1 : 4));
    const maintenance = o.number('maintenance', 0);
    const edgesAsked = o.number('edges', 0);
    const setupIn = o.string('setup-in', 'both');
    if (!['both', 'a', 'b'].includes(setupIn)) throw new Error(`--setup-in takes both, a or b, not ${setupIn}`);
    const farm = await Farm.start(n, tcpCount(n));
    const base = tempDir(NAME);
    const dirs = [tempDir(`${NAME}-a`), tempDir(`${NAME}-b`)];
    const services: Service[] = [];
    try {
      log(NAME, `creating ${n} monitors at 60 s, ${edgesAsked} dependency edges, ${maintenance} maintenance windows`);
      const first = await Service.start({ dataDir: base });
      let keys: KeyPool;
      const { bodies } = withEdges(mixedMonitors(n, farm, 60), edgesAsked);
      try {
        keys = await first.adminKeys(KeyPool.sizeFor(edgesAsked + 2 * maintenance + 100));
        if (setupIn === 'both') {
          await first.createMonitors(keys, bodies);
          if (maintenance > 0) await createWindows(first, keys, maintenance, await first.monitorIds(keys));
        } else {
          await first.createMonitors(keys, mixedMonitors(n, farm, 60));
        }
      } finally {
        await first.stop();
      }
      if (setupIn !== 'both') {
        // The bare copy first, then the windows and edges, through the API, into the other.
        const [bare, full] = setupIn === 'b' ? [dirs[0], dirs[1]] : [dirs[1], dirs[0]];
        fs.cpSync(base, bare, { recursive: true });
        const again = await Service.start({ dataDir: base });
        try {
          if (maintenance > 0) await createWindows(again, keys, maintenance, await again.monitorIds(keys));
          await addEdges(again, keys, bodies);
        } finally {
          await again.stop();
        }
        fs.cpSync(base, full, { recursive: true });
      } else for (const dir of dirs) fs.cpSync(base, dir, { recursive: true });
      for (let i = 0; i < 2; i++) services.push(await Service.start({ dataDir: dirs[i], entry: entries[i] }));
      const held = await Promise.all(services.map((s) => heldBy(s, keys)));
      log(NAME, `A (${entries[0]}) and B (${entries[1]}) started; warming up ${warmupS} s`);
      await wait(NAME, 'warm-up', warmupS * 1000);
      const metrics: Metric[] = [metric('monitors', n, '')];
      ['A', 'B'].forEach((name, i) =>
        metrics.push(
          metric(`${name}: maintenance windows it holds`, held[i].windows, ''),
          metric(`${name}: dependency edges it holds`, held[i].edges, ''),
        ),
      );
      const totals = [0, 0];
      const checks = (n * windowS) / 60;
      for (let w = 1; w <= windows; w++) {
        const cpu = services.map((s) => new CpuWindow(s.pid));
        await wait(NAME, `window ${w}/${windows}`, windowS * 1000);
        const [a, b] = cpu.map((c) => c.read());
        totals[0] += a.cpuMs;
        totals[1] += b.cpuMs;
        metrics.push(
          metric(`window ${w}: A, CPU per check`, a.cpuMs / checks, 'ms'),
          metric(`window ${w}: A, of it on the main thread`, a.mainMs / checks, 'ms'),
          metric(`window ${w}: B, CPU per check`, b.cpuMs / checks, 'ms'),
          metric(`window ${w}: B, of it on the main thread`, b.mainMs / checks, 'ms'),
          metric(`window ${w}: B ÷ A`, a.cpuMs > 0 ? b.cpuMs / a.cpuMs : null, '×'),
        );
      }
      metrics.push(metric('all windows: B ÷ A', totals[0] > 0 ? totals[1] / totals[0] : null, '×'));
      return {
        scenario: NAME,
        options: {
          against: entries[0],
          monitors: n,
          warmup: warmupS,
          duration: windowS,
          windows,
          maintenance,
          edges: edgesAsked,
          setup_in: setupIn,
          swap: o.flag('swap'),
        },
        metrics,
        notes: [
          `A = ${entries[0]}, B = ${entries[1]}: one database of ${n} mixed monitors at 60 s copied for each, one farm, the same minutes`,
          `CPU per check = the process's CPU in the window ÷ ${checks} (the checks due in it)`,
          ...['A', 'B'].map((name, i) => `${name} holds ${describeHeld(held[i])}`),
        ],
        elapsedS: elapsedS(started),
      };
    } finally {
      for (const s of services) await s.stop();
      await farm.stop();
      for (const dir of [base, ...dirs]) {
        if (ctx.keep) log(NAME, `kept ${dir}`);
        else removeDir(dir);
      }
    }
  },
};

/** The edges of withEdges() on monitors that exist without them: one PATCH each, four at a time. */
async function addEdges(service: Service, keys: KeyPool, bodies: readonly Record<string, unknown>[]): Promise<void> {
  const todo = bodies.filter((b) => Array.isArray(b.depends_on));
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const b = todo[next++];
      await requestJson('PATCH', `${service.url}/api/v1/monitors/slug:${String(b.slug)}`, {
        headers: keys.header(),
        body: { depends_on: b.depends_on },
      });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** What a build holds of the windows and edges: null when it does not know them (older than issue 36). */
interface Held {
  windows: number | null;
  edges: number | null;
}

/** Asks a running build for its windows (GET /maintenance) and its monitors' `depends_on`. */
async function heldBy(service: Service, keys: KeyPool): Promise<Held> {
  const windows = await everyItem<unknown>(service, keys, 'maintenance');
  const monitors = (await everyItem<{ depends_on?: unknown[] }>(service, keys, 'monitors')) ?? [];
  const known = monitors.some((m) => Array.isArray(m.depends_on));
  return {
    windows: windows === null ? null : windows.length,
    edges: known ? monitors.reduce((sum, m) => sum + (m.depends_on?.length ?? 0), 0) : null,
  };
}

/** Every item of a list route, following next_cursor; null when the build has no such route (404). */
async function everyItem<T>(service: Service, keys: KeyPool, route: string): Promise<T[] | null> {
  const items: T[] = [];
  let before: string | number | null = null;
  do {
    const q = new URLSearchParams({ limit: '500' });
    if (before !== null) q.set('before', String(before));
    const page: { items?: T[]; next_cursor?: string | number | null } = await requestJson(
      'GET',
      `${service.url}/api/v1/${route}?${q}`,
      { headers: keys.header() },
      [200, 404],
    );
    if (!Array.isArray(page.items)) return null;
    items.push(...page.items);
    before = page.next_cursor ?? null;
  } while (before !== null);
  return items;
}

function describeHeld(h: Held): string {
  const w = h.windows === null ? 'no maintenance windows (it does not know them)' : `${h.windows} maintenance windows`;
  const e = h.edges === null ? 'no dependency edges (it does not know depends_on)' : `${h.edges} dependency edges`;
  return `${w} and ${e}`;
}
