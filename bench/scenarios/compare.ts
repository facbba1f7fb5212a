/**
 * compare (not in `all`): two builds side by side, on copies of one database of N mixed monitors,
 * checking one farm in the same minutes, so the machine's mood (which moves CPU per check by
 * 10-20 % from one hour to the next here) weighs on both alike. Reads each service's CPU over
 * equal windows and prints B ÷ A: `--against` is A (another tree's dist/main.js, or its dist
 * directory, built with `npm run build`), this tree's build is B. Two copies of this build give
 * the method's own noise (within 1-2 % over four windows here).
 *
 * The data is created by this build: A must open its schema (the same migrations, or A newer).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Options } from '../../harness/args';
import { Farm } from '../farm';
import { mixedMonitors, tcpCount } from '../monitors';
import { removeDir, SERVICE_ENTRY, tempDir } from '../../harness/paths';
import { CpuWindow } from '../../harness/proc';
import { metric, Metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario, wait } from '../scenario';
import { Service } from '../../harness/service';

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
  options: ['against', 'monitors', 'warmup', 'duration', 'windows'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const entries = [entryOf(o.string('against', SERVICE_ENTRY)), SERVICE_ENTRY];
    const n = o.number('monitors', ctx.smoke ? 20 : 10_000);
    const warmupS = o.number('warmup', ctx.smoke ? 1 : 70);
    const windowS = o.number('duration', ctx.smoke ? 2 : 60);
    const windows = Math.max(1, o.number('windows', ctx.smoke ? 1 : 4));
    const farm = await Farm.start(n, tcpCount(n));
    const base = tempDir(NAME);
    const dirs = [tempDir(`${NAME}-a`), tempDir(`${NAME}-b`)];
    const services: Service[] = [];
    try {
      log(NAME, `creating ${n} monitors at 60 s`);
      const first = await Service.start({ dataDir: base });
      try {
        await first.createMonitors(await first.adminKeys(1), mixedMonitors(n, farm, 60));
      } finally {
        await first.stop();
      }
      for (const dir of dirs) fs.cpSync(base, dir, { recursive: true });
      for (let i = 0; i < 2; i++) services.push(await Service.start({ dataDir: dirs[i], entry: entries[i] }));
      log(NAME, `A (${entries[0]}) and B (${entries[1]}) started; warming up ${warmupS} s`);
      await wait(NAME, 'warm-up', warmupS * 1000);
      const metrics: Metric[] = [metric('monitors', n, '')];
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
        options: { against: entries[0], monitors: n, warmup: warmupS, duration: windowS, windows },
        metrics,
        notes: [
          `A = ${entries[0]}, B = ${entries[1]}: one database of ${n} mixed monitors at 60 s copied for each, one farm, the same minutes`,
          `CPU per check = the process's CPU in the window ÷ ${checks} (the checks due in it)`,
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
