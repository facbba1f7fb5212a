/**
 * The hourly and daily rollups of each probe location's results (docs/agents.md, "History per
 * location"): the tables `location_rollup_hour` and `location_rollup_day`, in the columns and with
 * the accounting of the monitor's own rollups (rollup-math.ts: a result's outcome holds until the
 * next one of the same monitor and location, at most interval + timeout; maintenance and unknown
 * time are in neither side of uptime).
 *
 * Unlike the service's own checks, which wait in memory for their monitor's fold, an agent's
 * results are stored by the results route in its own transaction (durable before acknowledged),
 * and their rollups are added in that same transaction (accountIn): a batch touches one location
 * and about one hour of each of its monitors, so this costs a write of a few rows per table. What
 * stays in memory is each monitor's and location's latest result (its tail, the span still open),
 * read back from `location_results` the first time it is needed after a start, and the rows it
 * wrote last (the next batch adds to them without reading them back). Reads answer the tables
 * plus each tail's open span up to now, as the monitor's rollups do.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { SettingsService } from '../../settings/settings.service';
import type { CheckRow } from '../check-row';
import {
  accountRow,
  mergeAcc,
  RollupAcc,
  RollupDeltas,
  RollupEntry,
  RollupTable,
  spanKind,
  Tail,
} from '../rollup-math';
import { addedRow, READ_COLUMNS, readRowsIn, RollupRow, StoredRollup, toAcc, writeRowsIn } from '../rollups.service';
import { accountedRow, LOCATION_ROLLUP_TABLES } from './location-accounting';

/**
 * What is remembered of a monitor and a location: its latest result (the span still open), and
 * the last row it wrote in each table, as written. A row changes only through this service, in
 * the order memory follows, or goes: with its monitor or location (memory is dropped with it), or
 * by retention, which takes hours and days long past (a batch adds to the current ones; a result
 * sent months late may bring a pruned row back, until the next night's pruning).
 */
interface PairMemory {
  tail: Tail | null;
  rows: Partial<Record<RollupTable, { key: number; row: StoredRollup }>>;
}

/** The column of each table's key, as in the monitor's rollups. */
const KEY: Record<RollupTable, string> = { rollup_hour: 'hour', rollup_day: 'day' };

@Injectable()
export class LocationRollupsService {
  /**
   * Per location, per monitor: its latest result (the span still open) and the rows it last wrote
   * (so the next batch adds to them without reading them back). Filled as results come.
   */
  private readonly pairs = new Map<number, Map<number, PairMemory>>();
  private capFor: (monitorId: number) => number = () => 0;

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    bus: EventBus,
  ) {
    bus.on('monitor.deleted', ({ id }) => {
      for (const perMonitor of this.pairs.values()) perMonitor.delete(id);
    });
  }

  /** How long a result's outcome may hold (the engine's capOf, wired by the locations module). */
  useCap(capFor: (monitorId: number) => number): void {
    this.capFor = capFor;
  }

  /** A deleted location (its rows went in the deletion's transaction): its tails go too. */
  dropLocation(locationId: number): void {
    this.pairs.delete(locationId);
  }

  /**
   * Inside the transaction that stores `rows` (one location's results), before they are inserted:
   * adds what they contribute to the location's rollups. A tail not in memory is the latest result
   * stored before them. The batch accounts on copies of the tails, and the rows it writes are
   * remembered (its monitors' current hour and day, added to again by the next batch without a
   * read); both replace what is held once the transaction has committed (before the next one
   * begins: Database.afterCommit), so a batch that rolls back leaves memory as it was.
   */
  async accountIn(m: EntityManager, locationId: number, rows: readonly CheckRow[]): Promise<void> {
    if (rows.length === 0) return;
    const tz = (await this.settings.get()).tz_offset_min;
    const held = this.pairs.get(locationId) ?? new Map<number, PairMemory>();
    const tails = new Map<number, Tail>();
    for (const id of new Set(rows.map((r) => r.monitor_id))) {
      const tail = held.get(id)?.tail ?? (await latestBefore(m, id, locationId, Number.MAX_SAFE_INTEGER));
      if (tail) tails.set(id, { ...tail });
    }
    const deltas = new RollupDeltas();
    const sorted = rows.map(accountedRow).sort((a, b) => a.monitor_id - b.monitor_id || a.at - b.at);
    for (const row of sorted) {
      const tail = tails.get(row.monitor_id);
      // The same result again (a retry whose copy replaced the stored one) adds nothing.
      if (tail && tail.at === row.at) continue;
      accountRow(row, tails, this.capFor(row.monitor_id), tz, deltas);
    }
    const written: { table: RollupTable; monitorId: number; key: number; row: StoredRollup }[] = [];
    for (const table of ['rollup_hour', 'rollup_day'] as const) {
      const entries = [...deltas.entries()].filter((e) => e.table === table);
      const keyColumns = ['monitor_id', 'location_id', KEY[table]];
      // 1. The rows this pair wrote last are known; only the others are read.
      const known = (e: RollupEntry) => {
        const last = held.get(e.monitorId)?.rows[table];
        return last && last.key === e.key ? last.row : undefined;
      };
      const read = await readRowsIn(
        m,
        LOCATION_ROLLUP_TABLES[table],
        keyColumns,
        entries.filter((e) => !known(e)).map((e) => [e.monitorId, locationId, e.key]),
      );
      // 2. Each row with the batch's part added, written whole.
      const rowsOut = entries.map((e) => {
        const old = known(e) ?? read.get(`${e.monitorId}:${locationId}:${e.key}`) ?? null;
        const row = addedRow(old, e.acc);
        written.push({ table, monitorId: e.monitorId, key: e.key, row });
        return { keys: [e.monitorId, locationId, e.key], row };
      });
      await writeRowsIn(m, LOCATION_ROLLUP_TABLES[table], keyColumns, rowsOut);
    }
    this.db.afterCommit(() => {
      const pair = (id: number): PairMemory => {
        let p = held.get(id);
        if (!p) held.set(id, (p = { tail: null, rows: {} }));
        return p;
      };
      for (const [id, tail] of tails) pair(id).tail = tail;
      // The newest key of each table is the one the next batch adds to.
      for (const w of written) {
        const p = pair(w.monitorId);
        const last = p.rows[w.table];
        if (!last || last.key <= w.key) p.rows[w.table] = { key: w.key, row: w.row };
      }
      this.pairs.set(locationId, held);
    });
  }

  /**
   * One monitor's rollups from one location between `from` and `to` (keys of the table: hours
   * or local days), as they stand now: the table's rows and the open span of its latest result.
   */
  async read(
    table: RollupTable,
    monitorId: number,
    locationId: number,
    from: number,
    to: number,
    now: number,
  ): Promise<Map<number, RollupAcc>> {
    const tz = (await this.settings.get()).tz_offset_min;
    const key = KEY[table];
    const rows = await this.db.read<(RollupRow & { key: number })[]>(
      `SELECT ${key} AS key, ${READ_COLUMNS} FROM ${LOCATION_ROLLUP_TABLES[table]}
        WHERE monitor_id = ? AND location_id = ? AND ${key} >= ? AND ${key} <= ?`,
      [monitorId, locationId, from, to],
    );
    const out = new Map<number, RollupAcc>(rows.map((r) => [r.key, toAcc(r)]));
    // Never cached from here: a batch being stored may move the tail on meanwhile.
    const tail =
      this.pairs.get(locationId)?.get(monitorId)?.tail ?? (await latestBefore(this.db, monitorId, locationId, now + 1));
    if (tail) {
      const end = Math.min(now, tail.at + this.capFor(monitorId));
      const open = new RollupDeltas();
      if (end > tail.at) open.addSpan(monitorId, tail.at, end, tail.kind, tz);
      for (const [k, acc] of open.of(monitorId, table) ?? []) {
        if (k < from || k > to) continue;
        const have = out.get(k);
        if (have) mergeAcc(have, acc);
        else out.set(k, acc);
      }
    }
    return out;
  }
}

/** The latest stored result of a monitor from a location before `before`, as a tail (its accounted kind). */
async function latestBefore(
  q: Pick<EntityManager, 'query'> | Database,
  monitorId: number,
  locationId: number,
  before: number,
): Promise<Tail | null> {
  const sql = `SELECT monitor_id, at, outcome, info FROM location_results
    WHERE monitor_id = ? AND location_id = ? AND at < ? ORDER BY at DESC LIMIT 1`;
  const params = [monitorId, locationId, before];
  const rows = (q instanceof Database ? await q.read(sql, params) : await q.query(sql, params)) as Pick<
    CheckRow,
    'monitor_id' | 'at' | 'outcome' | 'info'
  >[];
  const r = rows[0];
  return r ? { at: r.at, kind: spanKind(accountedRow(r)) } : null;
}
