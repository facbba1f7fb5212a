/**
 * Joins and leaves of affected monitors (docs/dependencies.md) waiting for the writer's next
 * transaction, which carries them with the state rows that name the same cause: durable, then
 * announced. Shaped like the IncidentBook's writes: take them at the snapshot, drop them once
 * the transaction committed, keep them when it failed. Pure: no I/O.
 */
import type { AffectedRow } from '../../events/incident-affected.table';

export class AffectedBook {
  private pending: AffectedRow[] = [];
  /** Rows of open joins by `incident:monitor`, so a leave can repeat the join's since and name. */
  private readonly joined = new Map<string, AffectedRow>();

  join(row: Omit<AffectedRow, 'until'>): void {
    const r = { ...row, until: null };
    this.joined.set(`${row.incident_id}:${row.monitor_id}`, r);
    this.pending.push(r);
  }

  leave(incidentId: number, monitorId: number, at: number, name: string): void {
    const key = `${incidentId}:${monitorId}`;
    const j = this.joined.get(key);
    this.joined.delete(key);
    this.pending.push({
      incident_id: incidentId,
      monitor_id: monitorId,
      monitor_name: j?.monitor_name ?? name,
      since: j?.since ?? at,
      until: at,
    });
  }

  hasWork(): boolean {
    return this.pending.length > 0;
  }

  /** What a write carries now: hand the count back to written() once it committed. */
  writes(): { rows: AffectedRow[]; count: number } {
    return { rows: this.pending.slice(), count: this.pending.length };
  }

  written(count: number): void {
    this.pending.splice(0, count);
  }
}
