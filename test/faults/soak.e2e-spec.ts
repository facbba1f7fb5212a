/**
 * The shortened soak for CI (drivers/soak.ts): 5 minutes, 2,000 monitors at 10 s, 5 % flapping,
 * a steady API load. After a two-minute warm-up: what the service keeps alive shows no leak
 * (median slope under 3 MB per 5 minutes; 1 MB in runs of 2 hours or more), nor does RSS; the
 * number of open handles does not grow; checks run less than 1 s late at p99.
 * FAULTS_SOAK_MINUTES=<n> runs it longer (docs/reliability.md has the figures of the last long run).
 *
 * The soak runs as its own process (the built dist/tsc/test/faults/drivers/soak.js, as an operator
 * would run it): its targets time every check, and in this test process they would share its event
 * loop and garbage collector with jest and ts-jest, whose pauses would be counted as the service's
 * lateness.
 * `npm test` runs this file on its own after the others (package.json), so that no other suite
 * shares the two cores while lateness is measured.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SoakReport } from './drivers/soak';
import { takeHeavyLock } from './support/heavy-lock';
import { envNumber } from './support/random';

const MINUTES = envNumber('FAULTS_SOAK_MINUTES', 5);
const SOAK = path.resolve(__dirname, '..', '..', 'dist', 'tsc', 'test', 'faults', 'drivers', 'soak.js');

function runSoakProcess(out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SOAK, '--minutes', String(MINUTES), '--monitors', '2000', '--out', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (b: Buffer) => process.stdout.write(b));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`soak.js ended with ${signal ?? `code ${code}`}`)),
    );
  });
}

describe('soak', () => {
  let release: () => void = () => undefined;
  beforeAll(async () => {
    if (!fs.existsSync(SOAK))
      throw new Error('dist/tsc/test/faults/drivers/soak.js is missing: run `npm run build` (npm test does)');
    release = await takeHeavyLock();
  }, 31 * 60_000);
  afterAll(() => release());

  it(
    `holds steady for ${MINUTES} minutes: 2,000 monitors at 10 s, 5 % flapping, API load`,
    async () => {
      const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-soak-')), 'soak.json');
      await runSoakProcess(out);
      const r = JSON.parse(fs.readFileSync(out, 'utf8')) as SoakReport;
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
      const { samples, liveSamples, ...summary } = r;
      process.stdout.write(
        `soak: ${JSON.stringify(summary)}\nsoak samples (t_s rss_mb handles): ${samples.map((s) => `${s.t_s} ${s.rss_mb} ${s.handles}`).join(', ')}\n` +
          `soak live heap (t_s mb): ${liveSamples.map((s) => `${s.t_s} ${s.mb}`).join(', ')}\n`,
      );
      // Every monitor was checked about every 10 s.
      expect(r.checks).toBeGreaterThan(0.8 * 2000 * ((MINUTES * 60) / 10));
      // No leak. What stays alive after a forced full collection every 10 s (drivers/gc-probe.ts) moves
      // by about 0.1 MB between readings (now and then one reading is higher while a big answer is in
      // flight: the median slope ignores it). A freshly started service still grows until each
      // monitor's first fold, about an hour: the rollup contributions and latency histograms held in
      // memory (docs/storage.md) gain buckets as latencies spread, 0.3, 0.8 and 1.2 MB per 5 minutes
      // in the CI run's window in three runs of the same code (the rollup code alone, fed 2,000
      // monitors' latencies outside the service, grows 0.8). The CI run is held to 3 MB per 5
      // minutes, which a leak of 50 bytes per check fails; a run of 2 hours or more, measured after
      // 70 minutes, to the issue's 1 MB. RSS moves by a few MB between samples as V8 and the
      // allocator take and give back pages: the CI run holds it to what tells a leak of 5 MB a minute
      // from that noise, a long run to 1 MB per 5 minutes (docs/reliability.md, "Soak").
      const long = MINUTES >= 120;
      expect(r.liveHeap.readings).toBeGreaterThanOrEqual(15);
      expect(r.liveHeap.slopeMbPer5Min).toBeLessThan(long ? 1 : 3);
      expect(r.rssSlopeMbPer5Min).toBeLessThan(long ? 1 : 25);
      expect(r.handles.slopePer5Min).toBeLessThan(2);
      expect(r.handles.last).toBeLessThanOrEqual(r.handles.first + 10);
      expect(r.latenessMs.p99).not.toBeNull();
      expect(r.latenessMs.p99!).toBeLessThan(1000);
      expect(r.api.errors).toBe(0);
      expect(r.alerts).toBeGreaterThan(0);
    },
    (MINUTES + 3) * 60_000,
  );
});
