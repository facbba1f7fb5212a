/**
 * startup: cold start to healthy — from spawning `node dist/main.js serve` to the first OK answer
 * of GET /api/health — with N monitors in the database (created through the API in a first run),
 * repeated R times; an empty database for comparison. "Cold" is the process: the OS file cache is
 * warm, as on a service restart. With --binary FILE, the single executable (npm run package) too.
 */
import * as fs from 'node:fs';
import type { Options } from '../../harness/args';
import { Farm } from '../farm';
import { mixedMonitors, tcpCount } from '../monitors';
import { removeDir, tempDir } from '../../harness/paths';
import { memory } from '../../harness/proc';
import { monotonicUs, ProfileWindow } from '../profile';
import { atMost, metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario } from '../scenario';
import { Service } from '../../harness/service';
import { profileDir, profileNotes } from '../service-profile';
import { spread } from '../../harness/stats';

const NAME = 'startup';
const MB = 1024 * 1024;

export const startupScenario: Scenario = {
  name: NAME,
  summary: 'cold start to healthy with N monitors (and with none)',
  options: ['monitors', 'repeat', 'binary'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 100 : 10_000);
    const repeat = Math.max(1, o.number('repeat', ctx.smoke ? 1 : 3));
    const binary = o.string('binary', '');
    const farm = await Farm.start(n, tcpCount(n));
    const dir = tempDir(NAME);
    const empty = tempDir(`${NAME}-empty`);
    try {
      const emptyTimes: number[] = [];
      let emptyRss = 0;
      for (let r = 0; r < repeat; r++) {
        const s = await Service.start({ dataDir: empty });
        emptyTimes.push(s.startupMs);
        emptyRss = Math.max(emptyRss, memory(s.pid).rss);
        await s.stop();
      }

      log(NAME, `creating ${n} monitors`);
      const first = await Service.start({ dataDir: dir });
      let createMs: number;
      try {
        const keys = await first.adminKeys(1);
        const t0 = performance.now();
        await first.createMonitors(keys, mixedMonitors(n, farm, 60));
        createMs = performance.now() - t0;
      } finally {
        await first.stop();
      }

      const times: number[] = [];
      let rss = 0;
      for (let r = 0; r < repeat; r++) {
        const s = await Service.start({ dataDir: dir });
        times.push(s.startupMs);
        rss = Math.max(rss, memory(s.pid).rss);
        await s.stop();
        log(NAME, `start ${r + 1}/${repeat} with ${n} monitors: ${Math.round(s.startupMs)} ms`);
      }
      // With --profile, one more start under --cpu-prof (not timed: profiling slows it a little).
      const prof = profileDir(ctx, NAME);
      let window: ProfileWindow | undefined;
      if (prof) {
        const fromUs = monotonicUs();
        const s = await Service.start({ dataDir: dir, profileDir: prof });
        window = { fromUs, toUs: monotonicUs() };
        await s.stop();
      }
      const binaryTimes: number[] = [];
      if (binary) {
        for (let r = 0; r < repeat; r++) {
          const s = await Service.start({ dataDir: dir, binary });
          binaryTimes.push(s.startupMs);
          await s.stop();
        }
      }
      const t = spread(times);
      const e = spread(emptyTimes);
      return {
        scenario: NAME,
        options: { monitors: n, repeat },
        metrics: [
          metric(`start to healthy, ${n} monitors (median)`, t.p50, 'ms', atMost(1000)),
          metric(`start to healthy, ${n} monitors (worst)`, t.max, 'ms'),
          metric('start to healthy, empty database (median)', e.p50, 'ms'),
          metric(`RSS just after start, ${n} monitors`, rss / MB, 'MB'),
          metric('RSS just after start, empty database', emptyRss / MB, 'MB'),
          metric(`creating ${n} monitors (bulk)`, createMs, 'ms'),
          ...(binary
            ? [
                metric(
                  `single binary: start to healthy, ${n} monitors (median)`,
                  spread(binaryTimes).p50,
                  'ms',
                  atMost(1000),
                ),
                metric('single binary: size', fs.statSync(binary).size / MB, 'MB', atMost(120)),
              ]
            : []),
        ],
        notes: [
          `${repeat} starts each; from spawn to the first {ok:true} of GET /api/health (polled every 5 ms); migrations already applied`,
          ...profileNotes(prof, window),
        ],
        elapsedS: elapsedS(started),
      };
    } finally {
      await farm.stop();
      removeDir(empty);
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};
