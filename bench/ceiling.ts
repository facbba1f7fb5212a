/**
 * The writer's ceiling, run in a process of its own:
 *   node dist/tsc/bench/ceiling.js --db FILE --rows N --monitors M --statement-rows K
 * inserts the benchmark rows into FILE (an empty database with the service's schema) with a bare
 * sqlite3 prepared statement of K rows, in a loop inside one transaction, and prints
 * {"rowsPerS", "bytesPerRow"} (bytes written, WAL included, per row).
 *
 * Why a separate process: whatever the writer's process did to the sqlite3 module stays for the whole
 * process. TypeORM calls driver.verbose(), which patches the sqlite3 prototypes so that every call
 * captures a stack trace and util.inspect()s its arguments (src/db/data-source.ts hands TypeORM a
 * driver whose verbose() does nothing since 4274274); the ceiling must never pay for such things.
 */
import * as sqlite3 from 'sqlite3';
import { CHECK_COLUMNS, toRow } from '../src/history/check-row';
import { Options, parseArgs } from '../harness/args';
import { makeChecks } from './check-data';
import { bytesWritten } from '../harness/proc';

async function main(): Promise<void> {
  const o = new Options(parseArgs(process.argv.slice(2)).options);
  const file = o.string('db', '');
  const rows = o.number('rows', 100_000);
  const perStatement = Math.max(1, o.number('statement-rows', 1));
  const values = makeChecks(rows, o.number('monitors', 1000)).map((c) => {
    const row = toRow(c);
    return CHECK_COLUMNS.map((col) => row[col]);
  });
  const insert = (n: number): string =>
    `INSERT OR REPLACE INTO checks (${CHECK_COLUMNS.join(',')}) VALUES ${Array.from({ length: n }, () => `(${CHECK_COLUMNS.map(() => '?').join(',')})`).join(',')}`;
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(d)));
  });
  const run = (sql: string): Promise<void> =>
    new Promise((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));
  // The service's pragmas (src/db/data-source.ts): WAL is stored in the file, synchronous is per connection.
  await run('PRAGMA journal_mode = WAL');
  await run('PRAGMA synchronous = NORMAL');
  const t0 = performance.now();
  const w0 = bytesWritten('self');
  await new Promise<void>((resolve, reject) => {
    db.serialize(() => {
      db.run('BEGIN');
      const full = db.prepare(insert(perStatement));
      let i = 0;
      for (; i + perStatement <= values.length; i += perStatement) full.run(values.slice(i, i + perStatement).flat());
      full.finalize();
      if (i < values.length) db.run(insert(values.length - i), values.slice(i).flat());
      db.run('COMMIT', (err) => (err ? reject(err) : resolve()));
    });
  });
  const ms = performance.now() - t0;
  const written = bytesWritten('self') - w0;
  const count = await new Promise<number>((resolve, reject) =>
    db.get('SELECT COUNT(*) AS n FROM checks', (err, row: { n: number }) => (err ? reject(err) : resolve(row.n))),
  );
  await new Promise<void>((resolve) => db.close(() => resolve()));
  if (count !== rows) throw new Error(`stored ${count} of ${rows} rows`);
  process.stdout.write(`${JSON.stringify({ rowsPerS: (rows * 1000) / ms, bytesPerRow: written / rows })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`ceiling: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
