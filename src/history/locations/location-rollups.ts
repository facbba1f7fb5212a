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
 * and about one hour of each of its monitors, so this costs a read and a write of a few rows per
 * table. What stays in memory is each monitor's and location's latest result (its tail, the span
 * still open), read back from `location_results` the first time it is needed after a start.
 * Reads answer the tables plus each tail's open span up to now, as the monitor's rollups do.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { SettingsService } from '../../settings/settings.service';
import type { CheckRow } from '../check-row';
import { accountRow, mergeAcc, RollupAcc, RollupDeltas, RollupTable, spanKind, Tail } from '../rollup-math';
import { addToRowsIn, READ_COLUMNS, RollupRow, toAcc } from '../rollups.service';
import { accountedRow, LOCATION_ROLLUP_TABLES } from './location-accounting';

/** The column of each table's key, as in the monitor's rollups. */
const KEY: Record<RollupTable, string> = { rollup_hour: 'hour', rollup_day: 'day' };

@Injectable()
export class LocationRollupsService {
  /** Per location, per monitor: its latest result (the span still open). Filled as results come. */
  private readonly tails = new Map<number, Map<number, Tail>>();
  private capFor: (monitorId: number) => number = () => 0;

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    bus: EventBus,
  ) {
    bus.on('monitor.deleted', ({ id }) => {
      for (const perMonitor of this.tails.values()) perMonitor.delete(id);
    });
  }

  /** How long a result's outcome may hold (the engine's capOf, wired by the locations module). */
  useCap(capFor: (monitorId: number) => number): void {
    this.capFor = capFor;
  }

  /** A deleted location (its rows went in the deletion's transaction): its tails go too. */
  dropLocation(locationId: number): void {
    this.tails.delete(locationId);
  }

  /**
   * Inside the transaction that stores `rows` (one location's results), before they are inserted:
   * adds what they contribute to the location's rollups. A tail not in memory is the latest result
   * stored before them. The batch accounts on copies of the tails, which replace the held ones
   * once the transaction has committed (before the next one begins: Database.afterCommit), so a
   * batch that rolls back leaves them as they were.
   */
  async accountIn(m: EntityManager, locationId: number, rows: readonly CheckRow[]): Promise<void> {
    if (rows.length === 0) return;
    const tz = (await this.settings.get()).tz_offset_min;
    const held = this.tails.get(locationId) ?? new Map<number, Tail>();
    const tails = new Map<number, Tail>();
    for (const id of new Set(rows.map((r) => r.monitor_id))) {
      const tail = held.get(id) ?? (await latestBefore(m, id, locationId, Number.MAX_SAFE_INTEGER));
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
    for (const table of ['rollup_hour', 'rollup_day'] as const) {
      const additions = [...deltas.entries()]
        .filter((e) => e.table === table)
        .map((e) => ({ keys: [e.monitorId, locationId, e.key], acc: e.acc }));
      await addToRowsIn(m, LOCATION_ROLLUP_TABLES[table], ['monitor_id', 'location_id', KEY[table]], additions);
    }
    this.db.afterCommit(() => {
      for (const [id, tail] of tails) held.set(id, tail);
      this.tails.set(locationId, held);
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
      this.tails.get(locationId)?.get(monitorId) ?? (await latestBefore(this.db, monitorId, locationId, now + 1));
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
