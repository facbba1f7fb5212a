/**
 * The check writer and the rollups on their own, for test/history/fold-crash.e2e-spec.ts (built by
 * `npm run build`, tsconfig.build.json): a process that writes numbered results as fast as it can,
 * with commits and folds, to be killed at any moment, and a process that checks what the database
 * kept.
 *
 *   node dist/tsc/test/history/drivers/crash-writer.js run    --dir D [--monitors M] [--fold-ms F] [--flush-every K]
 *   node dist/tsc/test/history/drivers/crash-writer.js verify --dir D [--monitors M]
 *
 * Result i belongs to monitor (7 i mod M) + 1 and is stamped T0 + 20 i ms, so results are told
 * apart by their time alone and every monitor's results come in time order. `run` carries on after
 * the newest result the database holds, commits every 500 results with each monitor folding every
 * F ms (instead of every hour) and a flush every K commits, and prints `durable N` each time every
 * result up to N is committed. `verify` starts as the service does after a crash (the log read back, the rollups
 * rebuilt), writes everything (a flush), and prints one JSON line: the results held (they must be
 * 0..K without a gap), whether any result is in both tables, and whether the rollups equal what
 * the results held give when accounted again from scratch.
 */
import * as fs from 'node:fs';
import { Options, parseArgs } from '../../../harness/args';
import { systemClock } from '../../../src/common/clock';
import { openDatabase } from '../../../src/db/data-source';
import { Database } from '../../../src/db/database';
import { EventBus } from '../../../src/events/event-bus';
import { CheckRow } from '../../../src/history/check-row';
import { latestChecks } from '../../../src/history/latest-checks';
import { decodeHistogram } from '../../../src/history/latency-histogram';
import { accountRows, RollupAcc } from '../../../src/history/rollup-math';
import { RollupsService } from '../../../src/history/rollups.service';
import { CheckWriter } from '../../../src/history/writer';
import { NO_PHASES } from '../../../src/probes/check-result';
import type { StoredCheck } from '../../../src/history/check-row';
import { SettingsService } from '../../../src/settings/settings.service';

const STEP_MS = 20;
const CAP_MS = 120_000;

/** Result i, always the same. */
function result(i: number, t0: number, monitors: number): StoredCheck {
  const outcome = i % 17 === 0 ? 'down' : i % 13 === 0 ? 'slow' : i % 29 === 0 ? 'unknown' : 'up';
  const notCounted = i % 31 === 0;
  return {
    monitor_id: ((7 * i) % monitors) + 1,
    at_ms: t0 + STEP_MS * i,
    outcome,
    latency_ms: outcome === 'unknown' ? null : 5 + ((i * 37) % 400),
    phases: { ...NO_PHASES },
    status: 200,
    error: outcome === 'down' ? { code: 'status', message: 'HTTP 500' } : null,
    cert: null,
    detail: null,
    note: notCounted ? 'not counted: a network path problem' : null,
  };
}

async function open(
  dir: string,
  monitors: number,
): Promise<{ db: Database; writer: CheckWriter; t0: number; logged: CheckRow[] }> {
  const db = new Database(await openDatabase(dir));
  // T0 is fixed at the first run (two hours back, so hours close while the runs go on).
  const marker = `${dir}/t0`;
  if (!fs.existsSync(marker)) fs.writeFileSync(marker, String(Math.floor(Date.now() / 1000) * 1000 - 2 * 3_600_000));
  const t0 = Number(fs.readFileSync(marker, 'utf8'));
  const now = Date.now();
  for (let id = 1; id <= monitors; id++) {
    await db.query(
      `INSERT OR IGNORE INTO monitors (id, slug, name, kind, tags, interval_s, timeout_ms, confirm_after, retry_interval_s, recover_after,
         slow_after, alert_on_slow, remind_every_min, paused, public, sort, settings, created_at, updated_at)
       VALUES (?, ?, ?, 'tcp', '[]', 60, 1000, 1, 10, 1, 3, 0, 0, 0, 0, 0, '{}', ?, ?)`,
      [id, `m${id}`, `m${id}`, now, now],
    );
  }
  const bus = new EventBus();
  const writer = new CheckWriter(db, bus, systemClock);
  const latest = await latestChecks(db);
  writer.seedLastTimes(latest);
  const logged = await writer.restore();
  await new RollupsService(db, new SettingsService(db), writer, bus).start(() => CAP_MS, latest, logged);
  return { db, writer, t0, logged };
}

async function run(dir: string, monitors: number, foldMs: number, flushEvery: number): Promise<void> {
  const { db, writer, t0 } = await open(dir, monitors);
  writer.foldEveryMs = foldMs;
  const [{ newest }] = (await db.query(
    'SELECT MAX(at) AS newest FROM (SELECT MAX(at) AS at FROM checks UNION ALL SELECT MAX(at) FROM check_log)',
  )) as { newest: number | null }[];
  let i = newest === null ? 0 : (newest - t0) / STEP_MS + 1;
  for (let round = 1; ; round++) {
    for (let k = 0; k < 500; k++) writer.add(result(i++, t0, monitors));
    const upTo = i - 1;
    await (round % flushEvery === 0 ? writer.flush() : writer.commit());
    process.stdout.write(`durable ${upTo}\n`);
  }
}

type Sums = Map<string, RollupAcc>;

async function verify(dir: string, monitors: number): Promise<void> {
  const { db, writer, t0, logged } = await open(dir, monitors);
  // A result logged after its monitor's mark (not folded) must not be in `checks` yet: the driver never settles one.
  const [{ both }] = (await db.query(
    `SELECT COUNT(*) AS both FROM check_log l JOIN checks c ON c.monitor_id = l.monitor_id AND c.at = l.at
     LEFT JOIN check_marks k ON k.monitor_id = l.monitor_id WHERE l.bucket > COALESCE(k.bucket, 0)`,
  )) as { both: number }[];
  const [{ integrity_check: integrity }] = (await db.query('PRAGMA integrity_check')) as { integrity_check: string }[];
  await writer.flush();
  const rows = (await db.query(
    'SELECT monitor_id, at, outcome, latency, dns, conn, tls, ttfb, status, error, info FROM checks ORDER BY at',
  )) as CheckRow[];
  const indexes = rows.map((r) => (r.at - t0) / STEP_MS);
  const gapless = indexes.every((x, k) => x === k);
  const expected: Sums = new Map();
  for (const e of accountRows(rows, new Map(), () => CAP_MS, 0).entries())
    expected.set(`${e.table}:${e.monitorId}:${e.key}`, e.acc);
  const stored: Sums = new Map();
  for (const table of ['rollup_hour', 'rollup_day'] as const) {
    const key = table === 'rollup_hour' ? 'hour' : 'day';
    for (const r of (await db.query(`SELECT monitor_id, ${key} AS key, * FROM ${table}`)) as (RollupAcc & {
      monitor_id: number;
      key: number;
      hist: Buffer | null;
    })[]) {
      stored.set(`${table}:${r.monitor_id}:${r.key}`, { ...r, hist: decodeHistogram(r.hist) });
    }
  }
  const differ: string[] = [];
  for (const k of new Set([...expected.keys(), ...stored.keys()])) {
    const a = expected.get(k);
    const b = stored.get(k);
    const fields = [
      'up_ms',
      'down_ms',
      'unknown_ms',
      'n_up',
      'n_slow',
      'n_down',
      'n_unknown',
      'lat_n',
      'lat_sum',
      'lat_min',
      'lat_max',
    ] as const;
    if (!a || !b || fields.some((f) => a[f] !== b[f]) || JSON.stringify(a.hist) !== JSON.stringify(b.hist))
      differ.push(k);
  }
  const [{ log }] = (await db.query('SELECT COUNT(*) AS log FROM check_log')) as { log: number }[];
  process.stdout.write(
    `${JSON.stringify({ held: rows.length, newest: indexes[indexes.length - 1] ?? -1, gapless, inBoth: both, integrity, restored: logged.length, rollupKeys: expected.size, differ: differ.slice(0, 10), differCount: differ.length, log })}\n`,
  );
  await db.close();
}

async function main(): Promise<void> {
  const { scenario: mode, options } = parseArgs(process.argv.slice(2));
  const o = new Options(options);
  const dir = o.string('dir', '');
  const monitors = o.number('monitors', 50);
  if (!dir) throw new Error('--dir is required');
  if (mode === 'run')
    await run(dir, monitors, Math.max(1, o.number('fold-ms', 2000)), Math.max(1, o.number('flush-every', 25)));
  else if (mode === 'verify') await verify(dir, monitors);
  else throw new Error('usage: crash-writer.js run|verify --dir D');
}

main().catch((err: unknown) => {
  process.stderr.write(`crash-writer: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
