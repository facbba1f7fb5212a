/**
 * metrics: GET /metrics at 10,000 monitors (issue 39: ≤ 50 ms p99 of the service's CPU per scrape,
 * a few MB allocated at most). Runs the scrape driver (harness/metrics-scrape.ts, built
 * JavaScript) in a process of its own: the real MetricsService on node:http over live records shaped
 * as the engine keeps them, a keep-alive client timing whole answers. The figures are targets here,
 * never in a test: on a machine shared with other work the p99 measures the others too.
 */
import type { Options } from '../../harness/args';
import { runScrapes } from '../../harness/metrics-scrapes';
import { atMost, metric, ScenarioResult } from '../report';
import { elapsedS, RunContext, Scenario } from '../scenario';

const NAME = 'metrics';

export const metricsScenario: Scenario = {
  name: NAME,
  summary: 'GET /metrics over live engine records: CPU and time per scrape, bytes allocated',
  options: ['monitors', 'scrapes'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const monitors = o.number('monitors', ctx.smoke ? 200 : 10_000);
    const scrapes = o.number('scrapes', ctx.smoke ? 20 : 500);
    const r = await runScrapes(monitors, scrapes);
    return {
      scenario: NAME,
      options: { monitors, scrapes },
      metrics: [
        metric('scrape, service CPU p50', r.cpu.p50, 'ms'),
        metric('scrape, service CPU p99', r.cpu.p99, 'ms', atMost(50)),
        metric('scrape, answer p50', r.wall.p50, 'ms'),
        metric('scrape, answer p99', r.wall.p99, 'ms', atMost(50)),
        metric('allocated per scrape (median)', r.allocated === null ? null : r.allocated / 1e6, 'MB', atMost(4)),
        metric('answer size', r.bytes / 1e6, 'MB'),
      ],
      notes: [
        `${scrapes} scrapes of ${monitors} monitors, one keep-alive client; a quarter of the states move between scrapes`,
        `allocation: median heap growth of the ${r.clean} scrapes without a collection; load average ${r.load.toFixed(1)} on ${r.cores} cores`,
      ],
      elapsedS: elapsedS(started),
    };
  },
};
