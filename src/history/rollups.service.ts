/**
 * Keeps rollup_hour and rollup_day in step with the checks table, inside the writer's
 * transaction (rollup-math.ts says how rows become rollups). Also answers "the rollups as they
 * will be": committed rows plus the results still buffered plus each monitor's open span up to now.
 */
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { SettingsService } from '../settings/settings.service';
import { CheckRow } from './check-row';
import type { LatestCheck } from './latest-checks';
import { decodeHistogram, encodeHistogram } from './latency-histogram';
import { accountRows, emptyAcc, mergeAcc, RollupAcc, RollupBatch, spanKind, Tail } from './rollup-math';
import { CheckWriter, WriteHook } from './writer';

export type RollupTable = 'rollup_hour' | 'rollup_day';
const KEY: Record<RollupTable, string> = { rollup_hour: 'hour', rollup_day: 'day' };
const ACC_COLUMNS = ['up_ms', 'down_ms', 'unknown_ms', 'n_up', 'n_slow', 'n_down', 'n_unknown', 'lat_n', 'lat_sum', 'lat_min', 'lat_max'] as const;

export interface RollupRow extends Omit<RollupAcc, 'hist'> {
  monitor_id: number;
  key: number;
  hist: Buffer | null;
}

@Injectable()
export class RollupsService {
  private tails = new Map<number, Tail>();
  private next: Map<number, Tail> | null = null;
  private capFor: (monitorId: number) => number = () => 0;

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    private readonly writer: CheckWriter,
    bus: EventBus,
  ) {
    bus.on('monitor.deleted', ({ id }) => this.tails.delete(id));
  }

  /**
   * Wires the rollups into the writer; `capFor` says how long a check's outcome may hold, and
   * `latest` (each monitor's newest stored check) opens the spans that the next results close.
   */
  start(capFor: (monitorId: number) => number, latest: LatestCheck[]): void {
    this.capFor = capFor;
    for (const r of latest) this.tails.set(r.monitor_id, { at: r.at, kind: spanKind(r) });
    const hook: WriteHook = {
      onRows: (m, batch) => this.write(m, batch),
      afterCommit: () => {
        if (this.next) this.tails = this.next;
        this.next = null;
      },
    };
    this.writer.addHook(hook);
  }

  private async write(m: EntityManager, rows: CheckRow[]): Promise<void> {
    // Work on a copy: the tails move on only once the transaction commits (afterCommit).
    const tails = new Map(this.tails);
    const batch = accountRows(rows, tails, this.capFor, (await this.settings.get()).tz_offset_min);
    this.next = tails;
    await this.upsert(m, 'rollup_hour', [...batch.hours.values()]);
    await this.upsert(m, 'rollup_day', [...batch.days.values()]);
  }

  private async upsert(m: EntityManager, table: RollupTable, entries: { monitorId: number; key: number; acc: RollupAcc }[]): Promise<void> {
    const key = KEY[table];
    for (let i = 0; i < entries.length; i += 200) {
      const part = entries.slice(i, i + 200);
      const existing = (await m.query(
        `SELECT monitor_id, ${key} AS key, ${ACC_COLUMNS.join(', ')}, hist FROM ${table}
         WHERE (monitor_id, ${key}) IN (VALUES ${part.map(() => '(?, ?)').join(', ')})`,
        part.flatMap((e) => [e.monitorId, e.key]),
      )) as RollupRow[];
      const byKey = new Map(existing.map((r) => [`${r.monitor_id}:${r.key}`, r]));
      const cols = ['monitor_id', key, ...ACC_COLUMNS, 'hist'];
      const values: unknown[] = [];
      for (const e of part) {
        const acc = emptyAcc();
        const old = byKey.get(`${e.monitorId}:${e.key}`);
        if (old) mergeAcc(acc, toAcc(old));
        mergeAcc(acc, e.acc);
        values.push(e.monitorId, e.key, ...ACC_COLUMNS.map((c) => acc[c]), encodeHistogram(acc.hist));
      }
      await m.query(
        `INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) VALUES ${part.map(() => `(${cols.map(() => '?').join(', ')})`).join(', ')}`,
        values,
      );
    }
  }

  /**
   * Rollups of some monitors between `from` and `to` (keys of the table: hours or local days), as
   * they stand now: committed rows merged with a batch made from the buffered results and the open
   * span of each monitor's latest check up to `now`.
   */
  async read(table: RollupTable, ids: number[], from: number, to: number, now: number): Promise<Map<number, Map<number, RollupAcc>>> {
    const out = new Map<number, Map<number, RollupAcc>>(ids.map((id) => [id, new Map()]));
    if (ids.length === 0) return out;
    const key = KEY[table];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = (await this.db.query(
        `SELECT monitor_id, ${key} AS key, ${ACC_COLUMNS.join(', ')}, hist FROM ${table}
         WHERE monitor_id IN (${part.map(() => '?').join(', ')}) AND ${key} >= ? AND ${key} <= ?`,
        [...part, from, to],
      )) as RollupRow[];
      for (const r of rows) out.get(r.monitor_id)?.set(r.key, toAcc(r));
    }
    const live = await this.liveBatch(new Set(ids), now);
    for (const e of (table === 'rollup_hour' ? live.hours : live.days).values()) {
      if (e.key < from || e.key > to) continue;
      const per = out.get(e.monitorId);
      if (!per) continue;
      const acc = per.get(e.key) ?? emptyAcc();
      mergeAcc(acc, e.acc);
      per.set(e.key, acc);
    }
    return out;
  }

  private async liveBatch(ids: Set<number>, now: number): Promise<RollupBatch> {
    const tz = (await this.settings.get()).tz_offset_min;
    const tails = new Map([...this.tails].filter(([id]) => ids.has(id)));
    const pending = this.writer.pending().filter((r) => ids.has(r.monitor_id));
    const batch = accountRows(pending, tails, this.capFor, tz);
    // accountRows added the buffered rows and the spans they closed; what is left open is each
    // monitor's latest span, which holds until now (or its cap).
    for (const [id, tail] of tails) {
      const end = Math.min(now, tail.at + this.capFor(id));
      if (end > tail.at) batch.addSpan(id, tail.at, end, tail.kind);
    }
    return batch;
  }
}

function toAcc(r: RollupRow): RollupAcc {
  return {
    up_ms: r.up_ms,
    down_ms: r.down_ms,
    unknown_ms: r.unknown_ms,
    n_up: r.n_up,
    n_slow: r.n_slow,
    n_down: r.n_down,
    n_unknown: r.n_unknown,
    lat_n: r.lat_n,
    lat_sum: r.lat_sum,
    lat_min: r.lat_min,
    lat_max: r.lat_max,
    hist: decodeHistogram(r.hist),
  };
}
