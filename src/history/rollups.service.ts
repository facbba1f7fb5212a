/**
 * Keeps rollup_hour and rollup_day in step with the check results (rollup-math.ts says how rows
 * become rollups), writing few pages: each result is accounted in memory the moment it is queued
 * (RollupDeltas), and a monitor's contributions are added to its rows when it folds (about once an
 * hour, in the transaction that moves the results they came from into `checks`): a page of
 * rollup_hour and one of rollup_day per monitor and hour, instead of both pages every second.
 * Rows are sums, so a contribution adds up whenever it is written.
 *
 * After a crash, what the folds had not written is rebuilt from the results in `check_log` after
 * each monitor's mark (start()). Reads answer "the rollups as they will be": the tables plus the
 * contributions in memory plus each monitor's open span up to now.
 */
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../db/database';
import { readRows } from '../db/bulk-read';
import { EventBus } from '../events/event-bus';
import { SettingsService } from '../settings/settings.service';
import { CheckRow } from './check-row';
import type { LatestCheck } from './latest-checks';
import { decodeHistogram, encodeHistogram, mergeEncoded } from './latency-histogram';
import {
  accountRow,
  accountRows,
  emptyAcc,
  mergeAcc,
  mergeCounts,
  RollupAcc,
  RollupDeltas,
  RollupEntry,
  RollupTable,
  RollupTally,
  spanKind,
  Tail,
} from './rollup-math';
import { CheckWriter } from './writer';
import type { WriteHook } from './write-hook';

export type { RollupTable } from './rollup-math';
const KEY = { rollup_hour: 'hour', rollup_day: 'day' } as const satisfies Record<RollupTable, string>;
/** The columns a status page's bar takes (RollupTally). */
const TALLY_COLUMNS = ['up_ms', 'down_ms', 'maint_ms', 'lat_n', 'lat_sum'] as const;
const ACC_COLUMNS = [
  'up_ms',
  'down_ms',
  'unknown_ms',
  'maint_ms',
  'n_up',
  'n_slow',
  'n_down',
  'n_unknown',
  'n_maint',
  'lat_n',
  'lat_sum',
  'lat_min',
  'lat_max',
] as const;
/** The columns of a rollup row that make its accumulator (toAcc). */
export const READ_COLUMNS = `${ACC_COLUMNS.join(', ')}, hist`;
const PER_STATEMENT = 200;

export interface RollupRow extends Omit<RollupAcc, 'hist'> {
  monitor_id: number;
  key: number;
  hist: Buffer | null;
}

@Injectable()
export class RollupsService {
  /** Each monitor's newest result, whose span is still open. */
  private readonly tails = new Map<number, Tail>();
  /** Contributions not written yet. */
  private deltas = new RollupDeltas();
  /** What the write in progress writes (the folding monitors' contributions, taken at its snapshot); given back if it fails. */
  private writing: RollupDeltas | null = null;
  private readonly deleted = new Set<number>();
  private tz = 0;
  private capFor: (monitorId: number) => number = () => 0;

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    private readonly writer: CheckWriter,
    bus: EventBus,
  ) {
    bus.on('monitor.deleted', ({ id }) => {
      this.tails.delete(id);
      this.deltas.drop(id);
      this.writing?.drop(id);
      this.deleted.add(id);
    });
  }

  /**
   * Wires the rollups into the writer; `capFor` says how long a check's outcome may hold.
   * `latest` (each monitor's newest check in `checks`) opens the spans that the next results
   * close; `unfolded` are the results no fold has written (after a crash), accounted again.
   */
  async start(
    capFor: (monitorId: number) => number,
    latest: LatestCheck[],
    unfolded: readonly CheckRow[],
  ): Promise<void> {
    this.capFor = capFor;
    this.tz = (await this.settings.get()).tz_offset_min;
    for (const r of latest) this.tails.set(r.monitor_id, { at: r.at, kind: spanKind(r) });
    if (unfolded.length > 0) {
      // A result that carried a transition was written into `checks` as well as into the log:
      // the span before the unfolded results belongs to the newest check in `checks` before them.
      const first = new Map<number, number>();
      for (const r of unfolded)
        if (!first.has(r.monitor_id) || r.at < first.get(r.monitor_id)!) first.set(r.monitor_id, r.at);
      for (const [id, at] of first) {
        const tail = this.tails.get(id);
        if (!tail || tail.at < at) continue;
        const [before] = await this.db.read<LatestCheck[]>(
          'SELECT at, outcome, info FROM checks WHERE monitor_id = ? AND at < ? ORDER BY at DESC LIMIT 1',
          [id, at],
        );
        if (before) this.tails.set(id, { at: before.at, kind: spanKind(before) });
        else this.tails.delete(id);
      }
      accountRows(unfolded, this.tails, capFor, this.tz, this.deltas);
    }
    const hook: WriteHook = {
      prepare: async () => {
        this.tz = (await this.settings.get()).tz_offset_min;
      },
      added: (row) => {
        // The zone as the settings say now (a PATCH answers with the settings it read back after
        // its commit), so a result after a change of tz_offset_min lands in its new local day.
        this.tz = this.settings.peek()?.tz_offset_min ?? this.tz;
        accountRow(row, this.tails, this.capFor(row.monitor_id), this.tz, this.deltas);
      },
      snapshot: (_kind, folding) => {
        this.writing = this.deltas.take(folding);
      },
      onRows: (m) => this.write(m),
      afterCommit: () => {
        this.writing = null;
      },
      rolledBack: () => {
        if (this.writing) this.deltas.absorb(this.writing);
        this.writing = null;
      },
    };
    this.writer.addHook(hook);
  }

  /** Inside the write's transaction: the folding monitors' contributions are added to their rows. */
  private async write(m: EntityManager): Promise<void> {
    const taken = this.writing;
    if (!taken || taken.monitorCount === 0) return;
    const entries = [...taken.entries()].filter((e) => !this.deleted.has(e.monitorId));
    for (const table of ['rollup_hour', 'rollup_day'] as const)
      await this.addTo(
        m,
        table,
        entries.filter((e) => e.table === table),
      );
  }

  /** Adds accumulators to the rows of a table, reading the rows that exist. */
  private addTo(m: EntityManager, table: RollupTable, entries: RollupEntry[]): Promise<void> {
    return addToRowsIn(
      m,
      table,
      ['monitor_id', KEY[table]],
      entries.map((e) => ({ keys: [e.monitorId, e.key], acc: e.acc })),
    );
  }

  /**
   * Rollups of some monitors between `from` and `to` (keys of the table: hours or local days), as
   * they stand now: the table's rows, the contributions in memory, and the open span of each
   * monitor's latest check up to `now`.
   */
  async read(
    table: RollupTable,
    ids: number[],
    from: number,
    to: number,
    now: number,
  ): Promise<Map<number, Map<number, RollupAcc>>> {
    const out = new Map<number, Map<number, RollupAcc>>(ids.map((id) => [id, new Map()]));
    if (ids.length === 0) return out;
    this.tz = (await this.settings.get()).tz_offset_min;
    const add = (id: number, key: number, acc: RollupAcc): void => {
      const per = out.get(id);
      if (!per) return;
      const have = per.get(key);
      if (have) mergeAcc(have, acc);
      else per.set(key, acc);
    };
    const key = KEY[table];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = await this.db.read<RollupRow[]>(
        `SELECT monitor_id, ${key} AS key, ${READ_COLUMNS} FROM ${table} WHERE monitor_id IN (${part.map(() => '?').join(', ')}) AND ${key} >= ? AND ${key} <= ?`,
        [...part, from, to],
      );
      for (const r of rows) add(r.monitor_id, r.key, toAcc(r));
    }
    // What is in memory is merged into, so copied; an open span's accumulator is made for this read.
    this.eachLive(table, ids, from, to, now, (id, k, acc, made) => add(id, k, made ? acc : copyAcc(acc)));
    return out;
  }

  /**
   * The part of read() a status page's bars take (RollupTally), handed to `add` per monitor and
   * key, a key more than once when it is also in memory: the rows' five columns come as one JSON
   * text (db/bulk-read.ts), without the counts and the histograms, which the main thread would
   * otherwise turn into objects and decode for every row (100 services' days: 1.28 ms against 0.25).
   */
  async readTallies(
    table: RollupTable,
    ids: number[],
    from: number,
    to: number,
    now: number,
    add: (id: number, key: number, t: Readonly<RollupTally>) => void,
  ): Promise<void> {
    if (ids.length === 0) return;
    this.tz = (await this.settings.get()).tz_offset_min;
    const key = KEY[table];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = await readRows<RollupTally & Record<'monitor_id' | 'day' | 'hour', number>>(
        this.db,
        ['monitor_id', key, ...TALLY_COLUMNS],
        `FROM ${table} WHERE monitor_id IN (${part.map(() => '?').join(', ')}) AND ${key} >= ? AND ${key} <= ?`,
        [...part, from, to],
      );
      for (const r of rows) add(r.monitor_id, r[key], r);
    }
    this.eachLive(table, ids, from, to, now, add);
  }

  /**
   * What the tables do not hold yet, for keys in [from, to]: the contributions in memory (the
   * write in progress and those after it; `made` false, to be copied before merging into), then
   * each monitor's latest span, which holds until now or its cap (`made` true: a new accumulator).
   */
  private eachLive(
    table: RollupTable,
    ids: number[],
    from: number,
    to: number,
    now: number,
    visit: (id: number, key: number, acc: RollupAcc, made: boolean) => void,
  ): void {
    const live = new RollupDeltas();
    for (const id of ids) {
      for (const source of [this.writing, this.deltas]) {
        for (const [k, acc] of source?.of(id, table) ?? []) if (k >= from && k <= to) visit(id, k, acc, false);
      }
      const tail = this.tails.get(id);
      if (tail) {
        const end = Math.min(now, tail.at + this.capFor(id));
        if (end > tail.at) live.addSpan(id, tail.at, end, tail.kind, this.tz);
      }
    }
    for (const id of ids) {
      for (const [k, acc] of live.of(id, table) ?? []) if (k >= from && k <= to) visit(id, k, acc, true);
    }
  }
}

/** What to add to one row of a rollup table: the values of its key columns, and the accumulator. */
export interface RowAddition {
  keys: readonly number[];
  acc: RollupAcc;
}

/** A rollup row as stored: its counts and times, and its histogram encoded (latency-histogram.ts). */
export type StoredRollup = Omit<RollupAcc, 'hist'> & { hist: Buffer | null };

/**
 * Adds accumulators to the rows of a rollup table (the monitor's, or a location's:
 * src/history/locations/location-rollups.ts) whose primary key is `keyColumns`: reads the rows that
 * exist, sums, and writes them back, a few hundred rows a statement. Rows are sums, so an
 * addition is right whenever it is written.
 */
export async function addToRowsIn(
  m: EntityManager,
  table: string,
  keyColumns: readonly string[],
  additions: readonly RowAddition[],
): Promise<void> {
  const existing = await readRowsIn(
    m,
    table,
    keyColumns,
    additions.map((a) => a.keys),
  );
  await writeRowsIn(
    m,
    table,
    keyColumns,
    additions.map((a) => ({ keys: a.keys, row: addedRow(existing.get(a.keys.join(':')) ?? null, a.acc) })),
  );
}

/** The stored rows of these keys that exist, by their keys joined with `:`. */
export async function readRowsIn(
  m: EntityManager,
  table: string,
  keyColumns: readonly string[],
  keys: readonly (readonly number[])[],
): Promise<Map<string, StoredRollup>> {
  const out = new Map<string, StoredRollup>();
  const tuple = `(${keyColumns.map(() => '?').join(', ')})`;
  for (let i = 0; i < keys.length; i += PER_STATEMENT) {
    const part = keys.slice(i, i + PER_STATEMENT);
    const rows = await m.query<(Record<string, number> & StoredRollup)[]>(
      `SELECT ${keyColumns.join(', ')}, ${READ_COLUMNS} FROM ${table} WHERE (${keyColumns.join(', ')}) IN (VALUES ${part.map(() => tuple).join(', ')})`,
      part.flat(),
    );
    for (const r of rows) out.set(keyColumns.map((c) => r[c]).join(':'), r);
  }
  return out;
}

/**
 * A stored row with an accumulator added (null: no row yet). The histogram is merged as it is
 * stored (mergeEncoded): most rows gain a bucket or two at a write.
 */
export function addedRow(old: StoredRollup | null, acc: RollupAcc): StoredRollup {
  const sum = emptyAcc();
  if (old) mergeCounts(sum, old);
  mergeCounts(sum, acc);
  return { ...sum, hist: old ? mergeEncoded(old.hist, acc.hist) : encodeHistogram(acc.hist) };
}

/** Writes whole rows (INSERT OR REPLACE), a few hundred a statement. */
export async function writeRowsIn(
  m: EntityManager,
  table: string,
  keyColumns: readonly string[],
  rows: readonly { keys: readonly number[]; row: StoredRollup }[],
): Promise<void> {
  const cols = [...keyColumns, ...ACC_COLUMNS, 'hist'];
  const tuple = `(${cols.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += PER_STATEMENT) {
    const part = rows.slice(i, i + PER_STATEMENT);
    await m.query(
      `INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) VALUES ${part.map(() => tuple).join(', ')}`,
      part.flatMap((r) => [...r.keys, ...ACC_COLUMNS.map((c) => r.row[c]), r.row.hist]),
    );
  }
}

function copyAcc(a: RollupAcc): RollupAcc {
  const c = emptyAcc();
  mergeAcc(c, a);
  return c;
}

/** A rollup row read with READ_COLUMNS, as an accumulator. */
export function toAcc(r: Omit<RollupRow, 'monitor_id' | 'key'>): RollupAcc {
  return {
    up_ms: r.up_ms,
    down_ms: r.down_ms,
    unknown_ms: r.unknown_ms,
    maint_ms: r.maint_ms,
    n_up: r.n_up,
    n_slow: r.n_slow,
    n_down: r.n_down,
    n_unknown: r.n_unknown,
    n_maint: r.n_maint,
    lat_n: r.lat_n,
    lat_sum: r.lat_sum,
    lat_min: r.lat_min,
    lat_max: r.lat_max,
    hist: decodeHistogram(r.hist),
  };
}
