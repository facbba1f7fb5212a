/**
 * The writer killed in the middle of its commits and folds (drivers/crash-writer.ts writes numbered
 * results as fast as it can, each monitor folding every 1.5 s and a flush every 15 commits, and is
 * SIGKILLed at random moments,
 * carrying on after each kill from what the database kept). Whatever moment the kill lands on:
 * every result reported durable is kept, the results kept are a gapless prefix (a kill loses only
 * the newest, never one in the middle), none not yet folded is in `checks`, the file passes
 * integrity_check, and after a start that reads the log back and a flush, the rollups are exactly
 * what the kept results give when accounted from scratch.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const DRIVER = path.resolve(__dirname, '..', '..', 'dist', 'tsc', 'test', 'history', 'drivers', 'crash-writer.js');
const KILLS = 8;

interface Verdict {
  held: number;
  newest: number;
  gapless: boolean;
  inBoth: number;
  integrity: string;
  restored: number;
  rollupKeys: number;
  differ: string[];
  differCount: number;
  log: number;
}

/**
 * Runs the writer until it has reported `lines` durable marks (or the time is up), kills it, and
 * answers the last mark and whether this start read results back from the log.
 */
function runAndKill(dir: string, lines: number, extraMs: number): Promise<{ durable: number; readBack: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DRIVER, 'run', '--dir', dir, '--fold-ms', '1500', '--flush-every', '15'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let durable = -1;
    let seen = 0;
    let killing = false;
    let readBack = false;
    const kill = () => {
      if (killing) return;
      killing = true;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.includes('read back from the log')) readBack = true;
        const m = /^durable (\d+)$/.exec(line);
        if (!m) continue;
        durable = Number(m[1]);
        // Then a little longer, so the kill lands inside whatever the writer does next.
        if (++seen === lines) setTimeout(kill, extraMs);
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const timer = setTimeout(kill, 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`the writer exited by itself (${code}): ${err}`));
      else resolve({ durable, readBack });
    });
  });
}

describe('the writer killed during commits and folds', () => {
  let dir: string;
  beforeAll(() => {
    if (!fs.existsSync(DRIVER)) throw new Error(`${DRIVER} is missing: run \`npm run build\` (npm test does)`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-fold-crash-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`keeps every durable result and rebuilds the rollups exactly, over ${KILLS} kills`, async () => {
    let reported = -1;
    let readBack = 0;
    for (let k = 0; k < KILLS; k++) {
      const run = await runAndKill(dir, 3 + ((k * 5) % 9), (k * 37) % 90);
      reported = Math.max(reported, run.durable);
      if (run.readBack) readBack += 1;
      expect(run.durable).toBeGreaterThan(0);
    }
    // Kills landed between folds: starts found results in the log that no fold had moved.
    expect(readBack).toBeGreaterThan(0);
    const r = spawnSync(process.execPath, [DRIVER, 'verify', '--dir', dir], { encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) throw new Error(`verify failed: ${r.stderr}`);
    // The last line: the writer's own log lines (the read-back warning) come before it.
    const v = JSON.parse(r.stdout.trim().split('\n').pop() as string) as Verdict;
    expect(v.integrity).toBe('ok');
    expect(v.inBoth).toBe(0);
    expect(v.gapless).toBe(true);
    expect(v.newest).toBeGreaterThanOrEqual(reported);
    expect(v.held).toBe(v.newest + 1);
    expect({ differ: v.differ, count: v.differCount }).toEqual({ differ: [], count: 0 });
    expect(v.rollupKeys).toBeGreaterThan(0);
    expect(v.log).toBe(0);
  }, 300_000);
});
