/**
 * `npm run bench -- [scenario] [options]`: measures the built service against the performance
 * targets (docs/performance.md). Prints a table on stdout, progress on stderr, and writes the
 * results as JSON to bench/results/ (git-ignored).
 *
 *   (none) | all     every scenario with small defaults (a few minutes), and the engine again with 200 monitors
 *   engine | writer | api | heartbeats | storage | startup | stream | alerts | metrics
 *   floor            CPU of a bare GET at the engine's rate: the floor under CPU per check (not in all)
 *   compare --against OTHER/dist   this build and another side by side on one farm: B ÷ A of CPU per check (not in all)
 *   farm --port P --endpoints N [--tcp-ports K]     the target farm alone (until Ctrl-C)
 *   profile FILE.cpuprofile [--top N] [--from S] [--to S]   where a CPU profile spent its time (S: seconds from its start)
 *   profile FILE.cpuprofile --callers NAME [--depth D]   who calls the frames named NAME
 *
 * Common options: --out DIR (results dir), --profile (run the service under node --cpu-prof and
 * summarise the profile), --keep (keep temp data dirs), --smoke (tiny sizes, for the test suite).
 * Scenario options (--monitors, --duration, ...) are listed by --help; with `all` they apply to
 * every scenario that has them.
 *
 * `all` runs each scenario in a harness process of its own (this file again, with the internal
 * option --result-to FILE): the writer scenario runs the writer in the harness, and the clients of
 * the scenarios after it, in the same process, measured its leftovers too (a larger heap to
 * collect: GET /monitors p99 with 4 clients 140 ms after it against 71 ms alone, same hour).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ArgError, Options, parseArgs } from '../harness/args';
import { killAllChildren } from '../harness/children';
import { runFarm } from './farm-server';
import { DEFAULT_RESULTS_DIR } from './paths';
import { callersOf, formatProfile, profileWindow, summariseProfile } from './profile';
import { codeWarning, printTable, runInfo, ScenarioResult, writeJson } from './report';
import { log, RunContext, Scenario } from './scenario';
import { EXTRA_RUNS, EXTRA_SCENARIOS, SCENARIOS } from './scenarios';

/** Internal: run one scenario and write its result as JSON to this file (how `all` runs each apart). */
const RESULT_TO = 'result-to';

const HELP = `usage: npm run bench -- [scenario] [options]

scenarios (default: all, with small defaults; all also runs the engine with --monitors 200):
${SCENARIOS.map((s) => `  ${s.name.padEnd(11)} ${s.summary}`).join('\n')}
${EXTRA_SCENARIOS.map((s) => `  ${s.name.padEnd(11)} ${s.summary} (not in all)`).join('\n')}
  farm        the target farm alone: --port P --endpoints N [--tcp-ports K]
  profile     summarise a CPU profile: profile FILE.cpuprofile [--top N] [--from S] [--to S] [--callers NAME [--depth D]]

options:
  --monitors N     engine 10000, api 1000, heartbeats 1000, storage 2000, startup 10000, stream 1000, alerts 1000, metrics 10000, compare 10000, locations 10000
  --interval S     engine 60, storage 10, stream 60, locations 60
  --warmup S       engine, storage, stream, locations: one interval; compare 70
  --duration S     engine 60 (measured window), heartbeats 10, storage 20, floor 30, stream 60, compare 60 and locations 60 (each of their windows)
  --against DIR    compare: the other build, A (another tree's dist/ or dist/main.js); this build is B
  --windows N      compare: windows measured (4)
  --clients N      stream: SSE clients in its second window, one of them stalled (500)
  --stall-mb M     stream: event MB sent to the readers that stay, for the stalled client to be cut off (10)
  --scrapes K      metrics: scrapes timed (500)
  --rate R         floor: GETs per second (166.7 = 10,000 monitors at 60 s)
  --concurrency C  api 4, heartbeats 16, alerts 16 (clients sending the failure reports)
  --case K         alerts: storm (N monitors down at once, the default) or dependants (one parent
                   with N dependants down, then the parent's recovery: docs/dependencies.md)
  --client K       heartbeats: raw (keep-alive raw sockets, the default) or http (node:http's client)
  --requests N     api: requests per route and pass (200)
  --warmup-requests N  api: requests per route before its timed passes, their p99 printed apart (300)
  --routes TEXT    api: only the routes whose label holds TEXT (e.g. --routes=cached), to profile one
  --rows N         writer: rows per run (100000)
  --repeat R       writer 3, startup 3
  --binary FILE    startup: also time the single executable (dist/farsight after npm run package)
  --maintenance N  engine, compare: N maintenance windows (one active over 1 % of the monitors; 0)
  --edges E        compare: E depends_on edges (10 dependants a parent; 0); an older A runs without them
  --setup-in W     compare: both (the default), a or b: windows and edges in that slot's copy only (one build against itself)
  --swap           compare: this build runs as A and --against as B (to cancel the slots' own bias)
  --node-args="A"  engine, api: extra node options for the service, e.g. --node-args="--trace-gc --max-semi-space-size=2"
  --profile        run the service under node --cpu-prof and print the top frames
  --keep           keep the temp data dirs
  --out DIR        results dir (default bench/results)
  --smoke          tiny sizes and a few seconds: checks that the harness works`;

const COMMON_OPTIONS = ['out', 'profile', 'keep', 'smoke', 'help', RESULT_TO];

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'profile') {
    if (!argv[1]) throw new ArgError('usage: profile FILE.cpuprofile [--top N]');
    const o = new Options(parseArgs(argv.slice(2)).options);
    const callers = o.string('callers', '');
    const window = profileWindow(argv[1], o.number('from', 0), o.number('to', Infinity));
    const text = callers
      ? callersOf(argv[1], callers, o.number('depth', 4), 8, window)
      : formatProfile(summariseProfile(argv[1], o.number('top', 20), window));
    process.stdout.write(`${text}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  const o = new Options(args.options);
  if (o.flag('help') || args.scenario === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (args.scenario === 'farm') {
    await runFarm({
      port: o.number('port', 0),
      endpoints: o.number('endpoints', 10_000),
      tcpPorts: o.number('tcp-ports', 0),
    });
    return 0;
  }
  const name = args.scenario ?? 'all';
  const chosen = name === 'all' ? SCENARIOS : [...SCENARIOS, ...EXTRA_SCENARIOS].filter((s) => s.name === name);
  if (chosen.length === 0) throw new ArgError(`unknown scenario "${name}"\n\n${HELP}`);
  const known = new Set([...COMMON_OPTIONS, ...chosen.flatMap((s) => s.options)]);
  const unknown = o.names().filter((n) => !known.has(n));
  if (unknown.length)
    throw new ArgError(`unknown option(s) for ${name}: ${unknown.map((u) => `--${u}`).join(', ')}\n\n${HELP}`);
  const ctx: RunContext = {
    smoke: o.flag('smoke'),
    resultsDir: o.string('out', DEFAULT_RESULTS_DIR),
    profile: o.flag('profile'),
    keep: o.flag('keep'),
  };
  const runs = chosen.map((scenario) => ({ scenario, options: o }));
  // The extra runs of `all` (the engine with 200 monitors), unless the size was given; a smoke
  // run keeps its tiny sizes (it only proves that the harness still runs them).
  if (name === 'all') {
    for (const x of EXTRA_RUNS) {
      if (!Object.keys(x.options).some((k) => o.has(k)))
        runs.push({ scenario: x.scenario, options: ctx.smoke ? o : o.withDefaults(x.options) });
    }
  }
  const resultTo = o.has(RESULT_TO) ? o.string(RESULT_TO, '') : null;
  if (resultTo !== null) {
    // One run of `all`, in its own process: the parent prints and keeps the results.
    const [{ scenario, options }] = runs;
    fs.writeFileSync(resultTo, JSON.stringify(await scenario.run(options, ctx)));
    return 0;
  }
  const results: ScenarioResult[] = [];
  const started = performance.now();
  const startInfo = runInfo();
  try {
    for (const { scenario, options } of runs) {
      log(scenario.name, 'start');
      const r = name === 'all' ? await runApart(scenario, options) : await scenario.run(options, ctx);
      results.push(r);
      log(scenario.name, `done in ${r.elapsedS} s`);
    }
  } finally {
    if (results.length) {
      printTable(results);
      const file = writeJson(ctx.resultsDir, name, results, startInfo);
      const warning = codeWarning(startInfo, runInfo());
      if (warning) process.stdout.write(`\nWARNING: ${warning}\n`);
      process.stdout.write(
        `\nresults: ${file} (commit ${startInfo.commit}, ${Math.round((performance.now() - started) / 1000)} s)\n`,
      );
    }
  }
  return 0;
}

/** One scenario of `all` in a fresh harness process (this CLI with --result-to): its result, or why it failed. */
async function runApart(scenario: Scenario, options: Options): Promise<ScenarioResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-bench-run-'));
  const file = path.join(dir, 'result.json');
  // Only the options this scenario takes: `all` accepts each scenario's options for the others too.
  const args = options.toArgs([...COMMON_OPTIONS.filter((k) => k !== RESULT_TO && k !== 'help'), ...scenario.options]);
  try {
    const child = spawn(process.execPath, [__filename, scenario.name, ...args, `--${RESULT_TO}=${file}`], {
      stdio: 'inherit',
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (c, signal) => resolve(signal ? null : c));
    });
    if (code !== 0 || !fs.existsSync(file))
      throw new Error(`the ${scenario.name} scenario failed (its harness process ended with ${code ?? 'a signal'})`);
    return JSON.parse(fs.readFileSync(file, 'utf8')) as ScenarioResult;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    killAllChildren();
    process.exit(code);
  },
  (err: unknown) => {
    killAllChildren();
    process.stderr.write(
      `bench: ${err instanceof ArgError ? err.message : err instanceof Error ? err.stack : String(err)}\n`,
    );
    process.exit(err instanceof ArgError ? 2 : 1);
  },
);
