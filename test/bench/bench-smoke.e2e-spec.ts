/**
 * The benchmark harness (bench/, docs/performance.md) must not rot: every scenario runs here with
 * tiny sizes for a few seconds, on the built service and the compiled harness (`npm test` builds
 * both before jest runs). Only the shape of the results is checked, never the figures.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'tsc', 'bench', 'cli.js');

interface Result {
  scenario: string;
  options: Record<string, unknown>;
  metrics: { name: string; value: number | null; unit: string; met: boolean | null }[];
  notes: string[];
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The harness CLI as a child, without blocking jest's event loop (spawnSync would): killed after `timeoutMs`. */
function runCli(args: string[], timeoutMs: number, children: ChildProcess[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function get(url: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('bench harness (smoke)', () => {
  let out: string;
  const children: ChildProcess[] = [];

  /** Results of the runs started at once (below), apart from `out`: the first test counts the files in it. */
  let aside: string;
  /**
   * Two runs start with the suite and go on beside `all`, each awaited by its test: the dependants
   * case spends most of its time idle in two 20 s batching windows (its service waits for the
   * batch, the harness for the receivers), the locations scenario most of its time waiting for its
   * agents' checks at 10 s intervals. Only shapes are checked here, never figures, so sharing the
   * machine with `all` changes nothing any of them proves (docs/testing.md, "What `npm test` costs").
   */
  let dependants: Promise<Run>;
  let locations: Promise<Run>;

  beforeAll(() => {
    if (!fs.existsSync(CLI)) throw new Error('dist/tsc/bench/cli.js is missing: run `npm run build` (npm test does)');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-bench-smoke-'));
    aside = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-bench-smoke-aside-'));
    dependants = runCli(['alerts', '--case', 'dependants', '--smoke', '--out', aside], 4 * 60_000, children);
    locations = runCli(
      ['locations', '--smoke', '--against', path.join(ROOT, 'dist'), '--profile', '--out', aside],
      4 * 60_000,
      children,
    );
  });
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(aside, { recursive: true, force: true });
  });

  it(
    'runs every scenario with tiny sizes and writes one JSON result',
    async () => {
      // Each scenario runs in a harness process of its own, given only the options it takes (the
      // writer takes no --concurrency, and would refuse it).
      const child = spawn(process.execPath, [CLI, 'all', '--smoke', '--concurrency', '2', '--out', out], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      child.stdout.resume();
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      if (code !== 0) throw new Error(`bench exited with ${code}:\n${stderr.slice(-3000)}`);

      const files = fs.readdirSync(out).filter((f) => f.endsWith('-all.json'));
      expect(files).toHaveLength(1);
      const report = JSON.parse(fs.readFileSync(path.join(out, files[0]), 'utf8')) as {
        commit: string;
        date: string;
        results: Result[];
      };
      expect(report.commit).toMatch(/\S/);
      // The engine runs twice in `all` (its default size, then 200 monitors); a smoke run keeps both tiny.
      expect(report.results.map((r) => r.scenario)).toEqual([
        'writer',
        'api',
        'heartbeats',
        'startup',
        'storage',
        'stream',
        'metrics',
        'alerts',
        'engine',
        'engine',
      ]);
      expect(
        report.results
          .filter((r) => r.scenario === 'engine')
          .map((r) => r.metrics.find((m) => m.name === 'monitors')?.value),
      ).toEqual([20, 20]);
      expect(report.results.find((r) => r.scenario === 'api')?.options).toMatchObject({ concurrency: 2 });
      expect(fs.readdirSync(out).filter((f) => f.endsWith('.json'))).toEqual(files);
      for (const r of report.results) {
        expect(r.metrics.length).toBeGreaterThan(0);
        for (const m of r.metrics) {
          expect(typeof m.name).toBe('string');
          expect(m.value === null || typeof m.value === 'number').toBe(true);
          expect([true, false, null]).toContain(m.met);
        }
      }
      // Ten scenarios, each starting the built service and its farm: about 2 minutes on a quiet
      // 2-core machine, 3-7 minutes while the other jest worker runs browser suites beside it.
    },
    8 * 60_000,
  );

  it('runs the farm alone, counting hits per endpoint', async () => {
    const farm = spawn(process.execPath, [CLI, 'farm', '--port', '0', '--endpoints', '3', '--tcp-ports', '1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(farm);
    const ready = await new Promise<{ port: number; tcp: number[] }>((resolve, reject) => {
      let text = '';
      farm.stdout.on('data', (c: Buffer) => {
        text += c.toString('utf8');
        if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]) as { port: number; tcp: number[] });
      });
      farm.on('exit', (code) => reject(new Error(`the farm exited with ${code}`)));
    });
    expect(ready.tcp).toHaveLength(1);
    const base = `http://127.0.0.1:${ready.port}`;
    expect((await get(`${base}/e/1`)).status).toBe(200);
    expect((await get(`${base}/e/1`)).status).toBe(200);
    expect((await get(`${base}/e/7`)).status).toBe(404);
    const counts = JSON.parse((await get(`${base}/__counts`)).body) as {
      total: number;
      endpoints: Record<string, number>;
    };
    expect(counts).toEqual({ total: 3, endpoints: { '/e/1': 2, '/e/7': 1 } });
    const late = JSON.parse((await get(`${base}/__lateness?interval_s=60`)).body) as { n: number; endpoints: number };
    expect(late).toMatchObject({ n: 1, endpoints: 1 });
    expect((await get(`${base}/__reset`, 'POST')).status).toBe(200);
    expect(JSON.parse((await get(`${base}/__counts`)).body)).toEqual({ total: 0, endpoints: {} });
    farm.kill('SIGTERM');
    expect(await new Promise((resolve) => farm.on('exit', resolve))).toBe(0);
  });

  it(
    'runs the alerts case of one parent and its dependants: one message per channel for the outage',
    async () => {
      const r = await dependants;
      if (r.status !== 0)
        throw new Error(`alerts --case dependants exited with ${r.status}:\n${r.stderr.slice(-3000)}`);
      const file = fs.readdirSync(aside).find((f) => f.endsWith('-alerts.json'));
      const [result] = (JSON.parse(fs.readFileSync(path.join(aside, file!), 'utf8')) as { results: Result[] }).results;
      expect(result.options).toMatchObject({ case: 'dependants', monitors: 20 });
      const value = (name: string) => result.metrics.find((m) => m.name === name)?.value;
      // The design (docs/dependencies.md), not a figure: one incident, one message per channel.
      expect(value('outage: incidents open (the parent’s only)')).toBe(1);
      for (const k of ['webhook', 'chat', 'email']) expect(value(`outage: ${k} messages`)).toBe(1);
      expect(value('outage: affected count the webhook names')).toBe(20);
      expect(value('recovery: webhook down events (dependants still down)')).toBe(10);
    },
    4 * 60_000,
  );

  it(
    'runs the locations scenario: 3 agent processes check their monitors and the service stores their results; --against and --profile',
    async () => {
      const r = await locations;
      if (r.status !== 0) throw new Error(`locations exited with ${r.status}:\n${r.stderr.slice(-3000)}`);
      const file = fs.readdirSync(aside).find((f) => f.endsWith('-locations.json'));
      const [result] = (JSON.parse(fs.readFileSync(path.join(aside, file!), 'utf8')) as { results: Result[] }).results;
      const value = (name: string) => result.metrics.find((m) => m.name === name)?.value;
      // Figures of a smoke run mean nothing; that each side ran does.
      expect(value('service CPU per local check')).toEqual(expect.any(Number));
      expect(value('results ingested per minute')).toBeGreaterThan(0);
      expect(value('check to stored (announced) p99')).toEqual(expect.any(Number));
      expect(value('agent CPU per check')).toEqual(expect.any(Number));
      // The first agent ran the --against build (here this one), measured beside the other two.
      expect(value('A: agent 1 (--against) CPU per check')).toEqual(expect.any(Number));
      expect(value('B ÷ A, CPU per check')).toEqual(expect.any(Number));
      expect(value('agent RSS idle (connected, no monitor), mean of 3')).toBeGreaterThan(20);
      expect(r.stdout).toMatch(/CPU profile of the first agent \(the measured window only\)/);
    },
    4 * 60_000,
  );

  it('measures the floor (a scenario outside `all`)', () => {
    const r = spawnSync(process.execPath, [CLI, 'floor', '--smoke', '--out', out], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('bare GET, CPU per request');
  }, 60_000);

  it('compares two builds side by side (here this build with itself, given as a dist directory), with windows and edges in both', () => {
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        'compare',
        '--smoke',
        '--against',
        path.join(ROOT, 'dist'),
        '--maintenance',
        '2',
        '--edges',
        '5',
        '--out',
        out,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status).toBe(0);
    const file = fs
      .readdirSync(out)
      .filter((f) => f.endsWith('-compare.json'))
      .sort()
      .pop() as string;
    const [result] = (JSON.parse(fs.readFileSync(path.join(out, file), 'utf8')) as { results: Result[] }).results;
    const value = (name: string) => result.metrics.find((m) => m.name === name)?.value;
    expect(value('monitors')).toBe(20);
    // Each side's figure is there. Their values mean nothing at this size: a 2 s window of 20
    // monitors at 60 s may hold less than one 10 ms tick of a service's CPU (/proc's unit), so a
    // figure of 0, and then no ratio, is a reading, not a failure.
    for (const name of ['window 1: A, CPU per check', 'window 1: B, CPU per check'])
      expect(value(name)).toBeGreaterThanOrEqual(0);
    const ratio = value('all windows: B ÷ A');
    expect(ratio === null || (ratio as number) >= 0).toBe(true);
    expect(result.options.against).toBe(path.join(ROOT, 'dist', 'main.js'));
    // Both builds know windows and depends_on: each holds what the shared database has.
    for (const build of ['A', 'B']) {
      expect(value(`${build}: maintenance windows it holds`)).toBe(2);
      expect(value(`${build}: dependency edges it holds`)).toBe(5);
    }
  }, 120_000);

  it('puts the windows and edges in B’s copy only with --setup-in b', () => {
    const r = spawnSync(
      process.execPath,
      [CLI, 'compare', '--smoke', '--against', path.join(ROOT, 'dist'), '--maintenance', '2', '--edges', '5'].concat([
        '--setup-in',
        'b',
        '--out',
        out,
      ]),
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status).toBe(0);
    const file = fs
      .readdirSync(out)
      .filter((f) => f.endsWith('-compare.json'))
      .sort()
      .pop() as string;
    const [result] = (JSON.parse(fs.readFileSync(path.join(out, file), 'utf8')) as { results: Result[] }).results;
    const value = (name: string) => result.metrics.find((m) => m.name === name)?.value;
    expect([value('A: maintenance windows it holds'), value('A: dependency edges it holds')]).toEqual([0, 0]);
    expect([value('B: maintenance windows it holds'), value('B: dependency edges it holds')]).toEqual([2, 5]);
  }, 120_000);

  it('refuses to compare with a build that is not there, naming it', () => {
    const r = spawnSync(process.execPath, [CLI, 'compare', '--smoke', '--against', '/nonexistent/dist', '--out', out], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('/nonexistent/dist');
  }, 60_000);

  it('refuses an unknown option before running anything', () => {
    const r = spawnSync(process.execPath, [CLI, 'engine', '--monitor', '10'], { encoding: 'utf8', timeout: 10_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--monitor');
  });
});
