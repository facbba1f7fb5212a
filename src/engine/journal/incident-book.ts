/**
 * The engine's open incidents: one per monitor at most, opened when Down is confirmed and ended on
 * recovery, pause, a kind/target change or deletion. Rows are replaced, never mutated, so a write
 * can tell whether what it wrote is still the newest (written()). Ids are handed out here (the
 * engine is the only creator of incidents), so a monitor's state shows its incident id the moment
 * Down is confirmed; the row reaches the disk with the same write as that state. Pure: no I/O.
 */
import type { EndReason, ErrorObject, IncidentRow } from '../../events/incident';

/** Timeline kinds that may come before the incident opens yet belong to it (they start the failure run). */
export const RUN_KINDS = ['failing', 'path', 'flapping'] as const;

export interface IncidentWrites {
  rows: IncidentRow[];
  /** Newly opened incidents: lines of their failure run written earlier get their id. */
  attach: { id: number; monitorId: number; since: number; until: number }[];
}

export class IncidentBook {
  private readonly open = new Map<number, IncidentRow>();
  /** Rows to write (the newest version per incident id). */
  private readonly toWrite = new Map<number, IncidentRow>();
  private attach: IncidentWrites['attach'] = [];
  /** Incidents opened since start that no write has committed yet. */
  private readonly unwritten = new Set<number>();

  private nextId = 1;

  /** On start: the open incidents as stored, and the highest incident id ever stored. */
  restore(rows: readonly IncidentRow[], lastId: number): void {
    for (const r of rows) this.open.set(r.monitor_id, r);
    this.nextId = Math.max(lastId, ...rows.map((r) => r.id)) + 1;
  }

  openOf(monitorId: number): IncidentRow | undefined {
    return this.open.get(monitorId);
  }

  /** An open incident by id, and whether it has reached the disk yet. */
  byId(id: number): { row: IncidentRow; written: boolean } | undefined {
    // A version waiting to be written is the newest (an ended incident is only there).
    const row = this.toWrite.get(id) ?? [...this.open.values()].find((r) => r.id === id);
    return row ? { row, written: !this.unwritten.has(id) } : undefined;
  }

  /** Incidents not on disk yet (opened less than a write ago), for lists that must show them. */
  unwrittenRows(): IncidentRow[] {
    return [...this.unwritten].map((id) => this.toWrite.get(id)).filter((r): r is IncidentRow => r !== undefined);
  }

  get openCount(): number {
    return this.open.size;
  }

  /** Incidents ended in memory whose end is not written yet (the table still says open). */
  endedWaiting(): number[] {
    return [...this.toWrite.values()].filter((r) => r.ended_at !== null).map((r) => r.id);
  }

  /** Down confirmed: a new incident from the first failed check of the run. */
  start(
    monitorId: number,
    name: string,
    t: { at: number; error: ErrorObject | null; fails: number; failingSince: number },
  ): IncidentRow {
    const row: IncidentRow = {
      id: this.nextId++,
      monitor_id: monitorId,
      monitor_name: name,
      started_at: Math.min(t.failingSince, t.at),
      down_at: t.at,
      ended_at: null,
      end_reason: null,
      cause_code: t.error?.code ?? null,
      cause_message: t.error?.message ?? null,
      last_error_code: t.error?.code ?? null,
      last_error_message: t.error?.message ?? null,
      fails: t.fails,
      acknowledged_at: null,
      note: null,
    };
    this.open.set(monitorId, row);
    this.unwritten.add(row.id);
    this.attach.push({ id: row.id, monitorId, since: row.started_at, until: row.down_at });
    this.toWrite.set(row.id, row);
    return row;
  }

  /** Another failed check while open. */
  failed(monitorId: number, fails: number, error: { code: string | null; message: string | null }): void {
    const row = this.open.get(monitorId);
    if (!row || (row.fails === fails && row.last_error_code === error.code && row.last_error_message === error.message))
      return;
    this.replace({
      ...row,
      fails,
      last_error_code: error.code ?? row.last_error_code,
      last_error_message: error.code ? error.message : row.last_error_message,
    });
  }

  rename(monitorId: number, name: string): void {
    const row = this.open.get(monitorId);
    if (row && row.monitor_name !== name) this.replace({ ...row, monitor_name: name });
  }

  /** Acknowledgement and note, as PATCH stored them (the engine never writes these two). */
  patched(id: number, fields: Pick<IncidentRow, 'acknowledged_at' | 'note'>): void {
    for (const row of this.open.values()) {
      if (row.id === id) this.open.set(row.monitor_id, { ...row, ...fields });
    }
    const pending = this.toWrite.get(id);
    if (pending) this.toWrite.set(id, { ...pending, ...fields });
  }

  /** Ends the monitor's open incident; returns the ended row, or undefined when none was open. */
  end(monitorId: number, at: number, reason: EndReason): IncidentRow | undefined {
    const row = this.open.get(monitorId);
    if (!row) return undefined;
    const ended: IncidentRow = { ...row, ended_at: Math.max(at, row.started_at), end_reason: reason };
    this.open.delete(monitorId);
    this.toWrite.set(ended.id, ended);
    return ended;
  }

  /** The monitor's incidents that ended in memory and whose ended version is not on disk yet (their open one is). */
  endedUnwritten(monitorId: number): IncidentRow[] {
    return [...this.toWrite.values()].filter(
      (r) => r.monitor_id === monitorId && r.ended_at !== null && !this.unwritten.has(r.id),
    );
  }

  /** Another transaction wrote this incident ended: it leaves the open ones, and no older version of it is written. */
  endedElsewhere(monitorId: number, ended: IncidentRow): void {
    if (this.open.get(monitorId)?.id === ended.id) this.open.delete(monitorId);
    this.toWrite.delete(ended.id);
    this.unwritten.delete(ended.id);
    this.attach = this.attach.filter((a) => a.id !== ended.id);
  }

  /** The monitor is gone (its incident was ended in the deleting transaction): nothing more to write. */
  forget(monitorId: number): void {
    const row = this.open.get(monitorId);
    this.open.delete(monitorId);
    for (const [id, r] of this.toWrite) {
      if (r.monitor_id === monitorId) {
        this.toWrite.delete(id);
        this.unwritten.delete(id);
      }
    }
    if (row) this.unwritten.delete(row.id);
    this.attach = this.attach.filter((a) => a.monitorId !== monitorId);
  }

  hasWork(): boolean {
    return this.toWrite.size > 0 || this.attach.length > 0;
  }

  /** What a write should carry now; hand the same object to written() once it committed. */
  writes(): IncidentWrites {
    return { rows: [...this.toWrite.values()], attach: this.attach.slice() };
  }

  /** The write committed: drop what it wrote, unless a newer version came meanwhile. */
  written(w: IncidentWrites): void {
    for (const row of w.rows) {
      if (this.toWrite.get(row.id) === row) this.toWrite.delete(row.id);
      this.unwritten.delete(row.id);
    }
    const done = new Set(w.attach);
    this.attach = this.attach.filter((a) => !done.has(a));
  }

  private replace(row: IncidentRow): void {
    this.open.set(row.monitor_id, row);
    this.toWrite.set(row.id, row);
  }
}
