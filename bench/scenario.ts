/** What every scenario gets and gives back. */
import type { Options } from '../harness/args';
import type { ScenarioResult } from './report';

export interface RunContext {
  /** Tiny sizes and a few seconds (the test suite's smoke run): figures mean nothing then. */
  smoke: boolean;
  /** Where JSON results and CPU profiles go. */
  resultsDir: string;
  /** Run the service under `node --cpu-prof` and summarise the profile. */
  profile: boolean;
  /** Keep temp data dirs (their paths are logged). */
  keep: boolean;
}

export interface Scenario {
  name: string;
  summary: string;
  /** The options it reads (checked before anything runs, so a typo never costs a long run). */
  options: readonly string[];
  run(o: Options, ctx: RunContext): Promise<ScenarioResult>;
}

/** Progress goes to stderr so stdout is only the table. */
export function log(scenario: string, message: string): void {
  const t = new Date().toISOString().slice(11, 19);
  process.stderr.write(`${t} [${scenario}] ${message}\n`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sleeps in steps, logging how much is left, so a long wait does not look like a hang. */
export async function wait(scenario: string, what: string, ms: number): Promise<void> {
  const end = performance.now() + ms;
  let left = ms;
  while (left > 0) {
    if (ms >= 20_000) log(scenario, `${what}: ${Math.ceil(left / 1000)} s left`);
    await sleep(Math.min(left, 30_000));
    left = end - performance.now();
  }
}

export function elapsedS(startedAt: number): number {
  return Math.round((performance.now() - startedAt) / 100) / 10;
}
