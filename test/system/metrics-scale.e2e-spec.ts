/**
 * GET /metrics at 10,000 monitors (issue 39: ≤ 50 ms p99, a few MB allocated per scrape at most),
 * measured by the driver test/system/drivers/metrics-scrape.ts as built JavaScript (run
 * `npm run build` first). The figures are printed for the record; the bounds fail the test when a
 * change makes a scrape dearer. The service's CPU per scrape is held to 50 ms: on a machine shared
 * with other suites the wall clock mostly measures the others (both are printed).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../../harness/paths';
import type { ScrapeReport } from './drivers/metrics-scrape';

const DRIVER = path.join(ROOT, 'dist', 'tsc', 'test', 'system', 'drivers', 'metrics-scrape.js');

describe('GET /metrics at 10,000 monitors', () => {
  it('writes a scrape in at most 50 ms of CPU at the 99th percentile and allocates under 4 MB', () => {
    expect(fs.existsSync(DRIVER)).toBe(true);
    const out = spawnSync(process.execPath, [DRIVER, '--monitors', '10000', '--scrapes', '200'], {
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(out.stderr).toBe('');
    const r = JSON.parse(out.stdout) as ScrapeReport;
    const ms = (v: number | null) => (v === null ? 'n/a' : v.toFixed(1));
    process.stdout.write(
      `metrics at ${r.monitors} monitors, ${r.scrapes} scrapes: ${(r.bytes / 1e6).toFixed(2)} MB per answer; ` +
        `answer p50 ${ms(r.wall.p50)} ms, p99 ${ms(r.wall.p99)} ms; CPU p50 ${ms(r.cpu.p50)} ms, p99 ${ms(r.cpu.p99)} ms; ` +
        `allocated ${((r.allocated ?? NaN) / 1e6).toFixed(2)} MB (median of ${r.clean} scrapes without a collection); ` +
        `load average ${r.load.toFixed(1)} on ${r.cores} cores\n`,
    );
    expect(r.bytes).toBeGreaterThan(1e6);
    expect(r.cpu.p99).toBeLessThanOrEqual(50);
    expect(r.clean).toBeGreaterThan(10);
    expect(r.allocated).toBeLessThanOrEqual(4e6);
  }, 300_000);
});
