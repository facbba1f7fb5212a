/**
 * Check history: one monitor's results (GET /monitors/{id}/checks) and every monitor's
 * (GET /checks), newest first, including results the writer has not committed yet.
 *
 * GET /checks across monitors reads a time window at a time through the primary key
 * (monitor_id, at), so no second index over every row is needed: the window starts at about one
 * page's worth of checks and grows fourfold until the page is full or the history ends.
 */
import { LOCAL_NAME } from '../catalog/locations.table';
import { locationResults } from '../catalog/location-results.table';
import { isIdText } from '../common/validation/ids';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { invalidField } from '../common/http/api-error';
import { EPOCH_CURSOR, Page, pageQuery, toPage } from '../common/http/paging';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { Database } from '../db/database';
import { CheckResultDto, Outcome, toCheckResultDto } from '../probes/check-result';
import { CHECK_CURSOR, CheckCursor, CHECKS_LIMIT, isAfterCursor } from './check-cursor';
import { CHECK_COLUMNS, CheckRow, fromRow, OUTCOME_CODE, StoredCheck } from './check-row';
import { historySpan } from './latest-checks';
import { locationQuery } from './locations/location-query';
import { CheckWriter } from './writer';

/**
 * Every table that holds a monitor's history, keyed by monitor_id first (check_log is keyed by
 * bucket first: writer.deleteLoggedIn): its own checks and rollups, and its locations' results and
 * rollups (docs/agents.md).
 */
export const HISTORY_TABLES = [
  'checks',
  'check_marks',
  'rollup_hour',
  'rollup_day',
  'location_results',
  'location_rollup_hour',
  'location_rollup_day',
] as const;

const OUTCOMES: Outcome[] = ['up', 'slow', 'down', 'unknown'];

export type HistoryItem = CheckResultDto & {
  monitor_id?: number;
  location?: string;
  maintenance_window_id: number | null;
};

@Injectable()
export class HistoryService {
  constructor(
    private readonly db: Database,
    private readonly writer: CheckWriter,
    private readonly monitors: MonitorsRepository,
  ) {}

  /** Deletes a monitor's whole history (check rows, logged ones, its mark, rollups, its locations' results and rollups) in the caller's transaction. */
  async deleteMonitorIn(m: EntityManager, monitorId: number): Promise<void> {
    await this.writer.deleteLoggedIn(m, monitorId);
    for (const table of HISTORY_TABLES) await m.query(`DELETE FROM ${table} WHERE monitor_id = ?`, [monitorId]);
  }

  /** GET /monitors/{id}/checks: before is epoch ms; the cursor is the last item's at_ms. */
  async forMonitor(ref: string, query: Record<string, unknown>): Promise<Page<HistoryItem>> {
    const monitor = await this.monitors.resolve(ref);
    const { limit, before } = pageQuery(query, EPOCH_CURSOR);
    const outcome = outcomeQuery(query.outcome);
    const location = await locationQuery(this.db, query.location);
    // An agent's results (docs/agents.md): stored apart, in the same row shape.
    if (location !== null) {
      const code = outcome === null ? null : OUTCOME_CODE[outcome];
      const rows = await locationResults(this.db, monitor.id, location.id, before, code, limit + 1);
      const item = (r: CheckRow): HistoryItem => ({ ...toItem(r), location: location.name });
      return toPage(rows, limit, item, (r) => EPOCH_CURSOR.format(r.at));
    }
    const rows = await this.monitorRows(
      monitor.id,
      before === null ? null : { at: before, monitorId: 0 },
      outcome,
      limit + 1,
    );
    return toPage(
      rows,
      limit,
      (r): HistoryItem => ({ ...toItem(r), location: LOCAL_NAME }),
      (r) => EPOCH_CURSOR.format(r.at),
    );
  }

  /** GET /checks: cursor `<epoch_ms>:<monitor_id>`, newest first by time then monitor. */
  async all(query: Record<string, unknown>): Promise<Page<HistoryItem>> {
    const { limit, before: cursor } = pageQuery(query, CHECK_CURSOR, CHECKS_LIMIT);
    const outcome = outcomeQuery(query.outcome);
    let rows: CheckRow[];
    if (query.monitor_id !== undefined) {
      const ref = typeof query.monitor_id === 'string' ? query.monitor_id : '';
      if (!isIdText(ref)) throw invalidField('monitor_id', 'must be a monitor id');
      const monitor = await this.monitors.resolve(ref).catch(() => {
        throw invalidField('monitor_id', 'no such monitor');
      });
      rows = await this.monitorRows(monitor.id, cursor, outcome, limit + 1);
    } else {
      if (outcome !== null && outcome !== 'down') {
        throw invalidField(
          'outcome',
          'across all monitors only outcome=down is accepted; add monitor_id for other outcomes',
        );
      }
      rows = outcome === 'down' ? await this.downRows(cursor, limit + 1) : await this.windowRows(cursor, limit + 1);
    }
    return toPage(
      rows,
      limit,
      (r) => ({ monitor_id: r.monitor_id, ...toItem(r) }),
      (r) => CHECK_CURSOR.format({ at: r.at, monitorId: r.monitor_id }),
    );
  }

  /** Failed checks of one monitor from `from` to `to` (null: until now), newest first, unwritten ones included (an incident's `checks`). */
  async failedChecks(monitorId: number, from: number, to: number | null, limit: number): Promise<CheckResultDto[]> {
    const end = to ?? Number.MAX_SAFE_INTEGER;
    // Results not in `checks` first: one only ever moves from there into `checks` (writer.ts).
    const pending = (await this.writer.unfoldedOf(monitorId)).filter(
      (r) => r.outcome === OUTCOME_CODE.down && r.at >= from && r.at <= end,
    );
    const stored = await this.db.read<CheckRow[]>(
      `SELECT ${CHECK_COLUMNS.join(', ')} FROM checks WHERE monitor_id = ? AND outcome = ? AND at >= ? AND at <= ? ORDER BY at DESC LIMIT ?`,
      [monitorId, OUTCOME_CODE.down, from, end, limit],
    );
    return merge(stored, pending, limit).map((r) => toResult(fromRow(r)));
  }

  private async monitorRows(
    id: number,
    cursor: CheckCursor | null,
    outcome: Outcome | null,
    n: number,
  ): Promise<CheckRow[]> {
    const where = ['monitor_id = ?'];
    const params: unknown[] = [id];
    if (cursor) {
      where.push('at < ?');
      params.push(cursor.at);
    }
    if (outcome) {
      where.push('outcome = ?');
      params.push(OUTCOME_CODE[outcome]);
    }
    const pending = (await this.writer.unfoldedOf(id)).filter(
      (r) => (!cursor || r.at < cursor.at) && (!outcome || r.outcome === OUTCOME_CODE[outcome]),
    );
    const stored = await this.db.read<CheckRow[]>(
      `SELECT ${CHECK_COLUMNS.join(', ')} FROM checks WHERE ${where.join(' AND ')} ORDER BY at DESC LIMIT ?`,
      [...params, n],
    );
    return merge(stored, pending, n);
  }

  private async downRows(cursor: CheckCursor | null, n: number): Promise<CheckRow[]> {
    const pending = await this.writer.unfoldedDown(n, cursor, OUTCOME_CODE.down);
    const params: unknown[] = [OUTCOME_CODE.down];
    let where = 'outcome = ?';
    if (cursor) {
      where += ' AND (at < ? OR (at = ? AND monitor_id < ?))';
      params.push(cursor.at, cursor.at, cursor.monitorId);
    }
    const stored = await this.db.read<CheckRow[]>(
      `SELECT ${CHECK_COLUMNS.join(', ')} FROM checks WHERE ${where} ORDER BY at DESC, monitor_id DESC LIMIT ?`,
      [...params, n],
    );
    return merge(stored, pending, n);
  }

  private async windowRows(cursor: CheckCursor | null, n: number): Promise<CheckRow[]> {
    const pending = await this.writer.newestUnfolded(n, cursor);
    const { oldest, newest } = await historySpan(this.db);
    const collected: CheckRow[] = [];
    let hi = cursor ? cursor.at + 1 : (newest ?? 0) + 1;
    // About one page's worth of time at the current rate, at least a minute.
    let width = Math.max(60_000, Math.ceil((n / Math.max(1, this.writer.rowsPerMinute())) * 60_000));
    while (oldest !== null && hi > oldest && collected.length < n) {
      const lo = hi - width;
      const rows = await this.db.read<CheckRow[]>(
        `SELECT ${CHECK_COLUMNS.join(', ')} FROM checks
         WHERE monitor_id IN (SELECT id FROM monitors) AND at >= ? AND at < ?
         ORDER BY at DESC, monitor_id DESC`,
        [lo, hi],
      );
      collected.push(...rows.filter((r) => isAfterCursor(r, cursor)));
      hi = lo;
      width *= 4;
    }
    return merge(collected, pending, n);
  }
}

function merge(stored: CheckRow[], pending: readonly CheckRow[], n: number): CheckRow[] {
  const seen = new Set(stored.map((r) => `${r.monitor_id}:${r.at}`));
  const all = [...stored, ...pending.filter((r) => !seen.has(`${r.monitor_id}:${r.at}`))];
  all.sort((a, b) => b.at - a.at || b.monitor_id - a.monitor_id);
  return all.slice(0, n);
}

function toResult(c: StoredCheck): CheckResultDto {
  const dto = toCheckResultDto(c);
  if (c.note) dto.detail = dto.detail ? `${c.note}. ${dto.detail}` : c.note;
  return dto;
}

/** A check of the history lists: the result and the maintenance window it was made in (left out of uptime). */
function toItem(r: CheckRow): HistoryItem {
  const c = fromRow(r);
  return { ...toResult(c), maintenance_window_id: c.maintenance ?? null };
}

function outcomeQuery(raw: unknown): Outcome | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || !(OUTCOMES as string[]).includes(raw)) {
    throw invalidField('outcome', `must be one of ${OUTCOMES.join(', ')}`);
  }
  return raw as Outcome;
}
