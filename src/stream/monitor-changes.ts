/**
 * Monitor changes gathered over a short window into one `monitors` event {changed, deleted}, so a
 * bulk create of 1,000 monitors is one event, not 1,000. A monitor deleted within the window is
 * only `deleted`, even when it was created or changed earlier in the same window. Pure.
 */
export interface MonitorsEventData {
  changed: number[];
  deleted: number[];
}

export class MonitorChanges {
  private changed = new Set<number>();
  private deleted = new Set<number>();

  get empty(): boolean {
    return this.changed.size === 0 && this.deleted.size === 0;
  }

  change(id: number): void {
    if (!this.deleted.has(id)) this.changed.add(id);
  }

  delete(id: number): void {
    this.changed.delete(id);
    this.deleted.add(id);
  }

  /** The window's changes, ids ascending, and an empty window for what comes next. */
  take(): MonitorsEventData {
    const out = { changed: sorted(this.changed), deleted: sorted(this.deleted) };
    this.changed = new Set();
    this.deleted = new Set();
    return out;
  }
}

function sorted(ids: Set<number>): number[] {
  return [...ids].sort((a, b) => a - b);
}
