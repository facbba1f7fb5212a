/**
 * writer: rows per second through our CheckWriter (buffer, 500-row multi-value INSERTs, one
 * transaction per flush, through TypeORM on the service's own openDatabase) against two ceilings
 * on a fresh copy of the same schema with the same pragmas, through the same sqlite3 npm driver:
 *   - a bare prepared statement run once per row inside one transaction (the definition;
 *     with this driver every run() is a trip to the thread pool, so it is a low ceiling), and
 *   - a bare prepared 500-row INSERT run in a loop inside one transaction (a batched-insert loop,
 *     the design's definition, docs/performance.md: the stricter ceiling, and the one the target is judged against).
 * Same rows, alternating, median of R runs. The writer runs in this process, fed as the engine feeds
 * it (one add() per result) in chunks of FLUSH_AT_ROWS, waiting for each flush, so what is timed is
 * the writer's own batching. The bare loops run in a fresh process each (bench/ceiling.ts says why)
 * on a copy of an empty database the service's migrations built, and get their values ready-made.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Options } from '../../harness/args';
import type { StoredCheck } from '../../src/history/check-row';
import { CheckWriter, FLUSH_AT_ROWS } from '../../src/history/writer';
import { databasePath, openDatabase } from '../../src/db/data-source';
import { Database } from '../../src/db/database';
import { EventBus } from '../../src/events/event-bus';
import { systemClock } from '../../src/common/clock';
import { makeChecks } from '../check-data';
import { removeDir, tempDir } from '../../harness/paths';
import { BENCH_CLI } from '../paths';
import { bytesWritten } from '../../harness/proc';
import { atLeast, metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario } from '../scenario';
import { median } from '../../harness/stats';

const NAME = 'writer';
const CEILING = path.join(path.dirname(BENCH_CLI), 'ceiling.js');

export const writerScenario: Scenario = {
  name: NAME,
  summary: 'rows/s of CheckWriter vs a bare sqlite3 prepared-statement loop on the same schema',
  options: ['rows', 'monitors', 'repeat'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const rows = o.number('rows', ctx.smoke ? 2000 : 100_000);
    const monitors = o.number('monitors', ctx.smoke ? 50 : 1000);
    const repeat = Math.max(1, o.number('repeat', ctx.smoke ? 1 : 3));
    const checks = makeChecks(rows, monitors);
    const template = await emptyDatabase();
    const writerRates: Rate[] = [];
    const perRowRates: Rate[] = [];
    const batchedRates: Rate[] = [];
    for (let r = 0; r < repeat; r++) {
      const w = await timeWriter(checks);
      const one = await timeBare(template.file, rows, monitors, 1);
      const batched = await timeBare(template.file, rows, monitors, FLUSH_AT_ROWS);
      writerRates.push(w);
      perRowRates.push(one);
      batchedRates.push(batched);
      log(
        NAME,
        `run ${r + 1}/${repeat}: writer ${Math.round(w.rowsPerS)}, bare per row ${Math.round(one.rowsPerS)}, bare batched ${Math.round(batched.rowsPerS)} rows/s`,
      );
    }
    removeDir(template.dir);
    const rate = (runs: Rate[]): number => median(runs.map((x) => x.rowsPerS))!;
    const written = (runs: Rate[]): number => median(runs.map((x) => x.bytesPerRow))!;
    const writer = rate(writerRates);
    const perRow = rate(perRowRates);
    const batched = rate(batchedRates);
    return {
      scenario: NAME,
      options: { rows, monitors, repeat },
      metrics: [
        metric('CheckWriter', writer, 'rows/s'),
        metric('bare sqlite3, 1-row statement, one transaction', perRow, 'rows/s'),
        metric(`bare sqlite3, ${FLUSH_AT_ROWS}-row statement, one transaction`, batched, 'rows/s'),
        metric('writer / bare 1-row loop', (100 * writer) / perRow, '%'),
        metric(`writer / bare ${FLUSH_AT_ROWS}-row loop`, (100 * writer) / batched, '%', atLeast(50)),
        metric('bytes written per row, CheckWriter', written(writerRates), 'B'),
        metric(`bytes written per row, bare ${FLUSH_AT_ROWS}-row loop`, written(batchedRates), 'B'),
      ],
      notes: [
        `${rows} rows over ${monitors} monitors (97 % up with phases, 3 % down with an error text), median of ${repeat} alternating runs`,
        'writer: add() per row, FLUSH_AT_ROWS per chunk, until flushed; no write hooks (the engine adds state updates to each flush)',
      ],
      elapsedS: elapsedS(started),
    };
  },
};

async function timeWriter(checks: readonly StoredCheck[]): Promise<Rate> {
  const dir = tempDir('writer');
  const ds = await openDatabase(dir);
  const db = new Database(ds);
  try {
    const writer = new CheckWriter(db, new EventBus(), systemClock);
    const t0 = performance.now();
    const w0 = bytesWritten('self');
    for (let i = 0; i < checks.length; i += FLUSH_AT_ROWS) {
      for (const c of checks.slice(i, i + FLUSH_AT_ROWS)) writer.add(c);
      await writer.flush();
    }
    const ms = performance.now() - t0;
    const written = bytesWritten('self') - w0;
    const { n } = ((await db.query('SELECT COUNT(*) AS n FROM checks')) as { n: number }[])[0];
    if (n !== checks.length) throw new Error(`the writer stored ${n} of ${checks.length} rows`);
    return { rowsPerS: (checks.length * 1000) / ms, bytesPerRow: written / checks.length };
  } finally {
    await db.close();
    removeDir(dir);
  }
}

interface Rate {
  rowsPerS: number;
  /** Bytes handed to write() per row (WAL frames, checkpoints): the write amplification. */
  bytesPerRow: number;
}

async function timeBare(template: string, rows: number, monitors: number, rowsPerStatement: number): Promise<Rate> {
  const dir = tempDir('bare');
  try {
    const file = databasePath(dir);
    fs.copyFileSync(template, file);
    const args = [
      CEILING,
      '--db',
      file,
      '--rows',
      String(rows),
      '--monitors',
      String(monitors),
      '--statement-rows',
      String(rowsPerStatement),
    ];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) throw new Error(`the bare sqlite3 loop failed: ${r.stderr || r.error?.message}`);
    return JSON.parse(r.stdout) as Rate;
  } finally {
    removeDir(dir);
  }
}

/** An empty database with the service's schema, built by its own migrations (then closed, WAL folded in). */
async function emptyDatabase(): Promise<{ file: string; dir: string }> {
  const dir = tempDir('template');
  await (await openDatabase(dir)).destroy();
  return { file: databasePath(dir), dir };
}
