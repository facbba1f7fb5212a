/**
 * The shortened soak for CI (bench/soak.ts): 5 minutes, 2,000 monitors at 10 s, 5 % flapping,
 * a steady API load. After a two-minute warm-up: RSS grows by less than 1 MB per 5 minutes
 * (least-squares slope), the number of open handles does not grow, checks run less than 1 s late
 * at p99. FAULTS_SOAK_MINUTES=<n> runs it longer (docs/reliability.md has the figures of the last
 * long run).
 */
import { runSoak } from '../../bench/soak';
import { takeHeavyLock } from './support/heavy-lock';
import { envNumber } from './support/random';

const MINUTES = envNumber('FAULTS_SOAK_MINUTES', 5);

describe('soak', () => {
  let release: () => void = () => undefined;
  beforeAll(async () => {
    release = await takeHeavyLock();
  }, 31 * 60_000);
  afterAll(() => release());

  it(`holds steady for ${MINUTES} minutes: 2,000 monitors at 10 s, 5 % flapping, API load`, async () => {
    const r = await runSoak({ minutes: MINUTES, monitors: 2000, intervalS: 10, flapping: 0.05, apiRps: 5, progress: (l) => process.stdout.write(`${l}\n`) });
    const { samples, ...summary } = r;
    process.stdout.write(`soak: ${JSON.stringify(summary)}\nsoak samples (t_s rss_mb handles): ${samples.map((s) => `${s.t_s} ${s.rss_mb} ${s.handles}`).join(', ')}\n`);
    // Every monitor was checked about every 10 s.
    expect(r.checks).toBeGreaterThan(0.8 * 2000 * ((MINUTES * 60) / 10));
    expect(r.rssSlopeMbPer5Min).toBeLessThan(1);
    expect(r.handles.slopePer5Min).toBeLessThan(2);
    expect(r.handles.last).toBeLessThanOrEqual(r.handles.first + 10);
    expect(r.latenessMs.p99).not.toBeNull();
    expect(r.latenessMs.p99!).toBeLessThan(1000);
    expect(r.api.errors).toBe(0);
    expect(r.alerts).toBeGreaterThan(0);
  }, (MINUTES + 3) * 60_000);
});
