/**
 * floor (not part of `all`): what one http check costs at the least on this machine — a bare Node
 * GET on a fresh loopback connection at the engine's rate, in a process that does nothing else
 * (bench/http-floor.ts) — so the engine's CPU per check can be read against it. On loopback the
 * kernel runs the target's side of TCP in the caller's context too, so system time is higher than
 * on a real network. The engine scenario runs the same measurement beside its own window
 * (measureFloor), so its ratio compares two figures taken under the same load.
 */
import * as path from 'node:path';
import type { Options } from '../../harness/args';
import { startChild } from '../../harness/children';
import { Farm } from '../farm';
import { BENCH_CLI } from '../paths';
import { metric, ScenarioResult } from '../report';
import { elapsedS, RunContext, Scenario } from '../scenario';

const NAME = 'floor';
const FLOOR = path.join(path.dirname(BENCH_CLI), 'http-floor.js');

export interface FloorResult {
  requests: number;
  /** CPU per request (user + system), ms. */
  cpuMs: number;
  userMs: number;
  sysMs: number;
}

/**
 * Bare GETs at `rate` per second for `durationS` seconds against a farm of their own (so they
 * never count as checks of another scenario), in a process of their own.
 */
export async function measureFloor(rate: number, durationS: number): Promise<FloorResult> {
  const farm = await Farm.start(1000, 0);
  try {
    const child = startChild(process.execPath, [
      FLOOR,
      '--port',
      String(farm.port),
      '--endpoints',
      '1000',
      '--rate',
      String(rate),
      '--duration',
      String(durationS),
    ]);
    let out = '';
    child.proc.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const timer = setTimeout(() => child.proc.kill('SIGKILL'), (durationS + 120) * 1000);
    const code = await child.exited.finally(() => clearTimeout(timer));
    if (code !== 0) throw new Error(`http-floor failed (${code}): ${child.tail()}`);
    return JSON.parse(out.trim().split('\n').pop() as string) as FloorResult;
  } finally {
    await farm.stop();
  }
}

export const floorScenario: Scenario = {
  name: NAME,
  summary: 'CPU of a bare GET on a fresh loopback connection at the engine rate (the floor per check)',
  options: ['rate', 'duration'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const rate = o.number('rate', ctx.smoke ? 50 : 10_000 / 60);
    const durationS = o.number('duration', ctx.smoke ? 1 : 30);
    const f = await measureFloor(rate, durationS);
    return {
      scenario: NAME,
      options: { rate, duration: durationS },
      metrics: [
        metric('bare GET, CPU per request', f.cpuMs, 'ms'),
        metric('  of which user', f.userMs, 'ms'),
        metric('  of which system (kernel)', f.sysMs, 'ms'),
        metric('requests', f.requests, ''),
      ],
      notes: [
        `${Math.round(rate)} GET/s for ${durationS} s, each on a new connection (agent: false), from timers, in a process of its own`,
      ],
      elapsedS: elapsedS(started),
    };
  },
};
