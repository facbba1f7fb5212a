/**
 * storage: bytes on disk per stored check. N mixed monitors at a short interval against the farm;
 * after a warm-up, the database's logical size (page_count × page_size, what the file holds once
 * the WAL is checkpointed) and row count are read twice, and the growth per row is the figure
 * judged: it is what every further check costs, indexes included, without the fixed cost of the
 * other tables. After a graceful stop and a TRUNCATE checkpoint, database + WAL on disk per row is
 * reported too (that one includes the fixed cost, so it falls as a database grows).
 */
import type { Options } from '../../harness/args';
import { checkpointAndMeasure, measureDb, Sqlite } from '../db';
import { Farm } from '../farm';
import { mixedMonitors, tcpCount } from '../monitors';
import { removeDir, tempDir } from '../../harness/paths';
import { atMost, metric, ScenarioResult } from '../report';
import { elapsedS, log, RunContext, Scenario, wait } from '../scenario';
import { Service } from '../../harness/service';

const NAME = 'storage';

export const storageScenario: Scenario = {
  name: NAME,
  summary: 'bytes on disk per stored check (growth per row, and database + WAL after a checkpoint)',
  options: ['monitors', 'interval', 'warmup', 'duration'],
  async run(o: Options, ctx: RunContext): Promise<ScenarioResult> {
    const started = performance.now();
    const n = o.number('monitors', ctx.smoke ? 20 : 2000);
    const intervalS = o.number('interval', 10);
    const warmupS = o.number('warmup', ctx.smoke ? 1 : intervalS);
    const durationS = o.number('duration', ctx.smoke ? 2 : 20);
    const farm = await Farm.start(n, tcpCount(n));
    const dir = tempDir(NAME);
    const file = `${dir}/farsight.db`;
    let service: Service | null = null;
    try {
      service = await Service.start({ dataDir: dir });
      const keys = await service.adminKeys(1);
      log(NAME, `creating ${n} monitors at ${intervalS} s; measuring for ${durationS} s after ${warmupS} s`);
      await service.createMonitors(keys, mixedMonitors(n, farm, intervalS));
      await wait(NAME, 'warm-up', warmupS * 1000);
      const d0 = await measureDb(file);
      await wait(NAME, 'measuring', durationS * 1000);
      const d1 = await measureDb(file);
      await service.stop();
      service = null;
      const disk = await checkpointAndMeasure(file);
      const table = await tableBytes(file);

      const rows = d1.rows - d0.rows;
      const notes = [
        `growth: ${rows} rows added ${d1.logicalBytes - d0.logicalBytes} bytes (${d0.rows} → ${d1.rows} rows)`,
        `on disk after the run: ${disk.dbBytes} B database + ${disk.walBytes} B WAL for ${disk.rows} rows (includes every other table)`,
      ];
      if (table)
        notes.push(`checks table + its index: ${table.bytes} B in pages for ${disk.rows} rows (sqlite dbstat)`);
      return {
        scenario: NAME,
        options: { monitors: n, interval: intervalS, warmup: warmupS, duration: durationS },
        metrics: [
          metric(
            'growth per stored check',
            rows > 0 ? (d1.logicalBytes - d0.logicalBytes) / rows : null,
            'B',
            atMost(40),
          ),
          metric('checks table + index per check', table && disk.rows > 0 ? table.bytes / disk.rows : null, 'B'),
          metric('database + WAL per check, whole file', disk.rows > 0 ? disk.totalBytes / disk.rows : null, 'B'),
          metric('rows stored', disk.rows, ''),
        ],
        notes,
        elapsedS: elapsedS(started),
      };
    } finally {
      if (service) await service.stop();
      await farm.stop();
      if (ctx.keep) log(NAME, `kept ${dir}`);
      else removeDir(dir);
    }
  },
};

/** Pages used by the checks table and its index, when sqlite was built with the dbstat table. */
async function tableBytes(file: string): Promise<{ bytes: number } | null> {
  const db = await Sqlite.open(file);
  try {
    const r = await db.get<{ bytes: number | null }>(
      "SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN ('checks', 'checks_down')",
    );
    return r.bytes === null ? null : { bytes: r.bytes };
  } catch {
    return null;
  } finally {
    await db.close();
  }
}
