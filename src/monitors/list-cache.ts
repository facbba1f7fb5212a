/**
 * The kept answers of GET /monitors: each listed monitor's JSON, made once and reused until its
 * row (updated_at), live state, stats or muted flag change. Lists of thousands are read often and
 * change little between two reads, and serialising was the largest cost of a long list
 * (docs/performance.md). What a kept answer was made from is compared by identity: the engine
 * keeps a monitor's state object until its next change, and StatsService keeps a stats object
 * while its figures stay the same.
 */
import type { MonitorStats } from '../history/monitor-stats';
import type { MonitorState } from '../probes/status';

/** What a kept answer was made from. */
export interface ListingKey {
  updatedAt: number;
  state: MonitorState;
  stats: MonitorStats;
  muted: boolean;
}

interface Kept extends ListingKey {
  /** UTF-8, led by a comma (commaLedJson): pages are put together from these bytes as they are. */
  json: Buffer;
}

export class ListCache {
  private readonly kept = new Map<number, Kept>();

  /** The kept JSON of a monitor when it was made from the same row version, state, stats and muted flag. */
  get(id: number, key: ListingKey): Buffer | null {
    const k = this.kept.get(id);
    return k && sameListing(k, key) ? k.json : null;
  }

  /** The kept JSON of a monitor, or `make()`'s, kept for the next reads. */
  getOrMake(id: number, key: ListingKey, make: () => Buffer): Buffer {
    const kept = this.get(id, key);
    if (kept) return kept;
    const json = make();
    this.kept.set(id, { ...key, json });
    return json;
  }

  /**
   * Drops a monitor's kept JSON: two changes can share a millisecond (and so an updated_at), so a
   * change must not rely on updated_at alone.
   */
  drop(id: number): void {
    this.kept.delete(id);
  }

  /** Bounds the memory of monitors gone or never listed again: past `max` entries, start afresh. */
  trim(max: number): void {
    if (this.kept.size > max) this.kept.clear();
  }
}

/** Whether a kept list answer was made from the same row version, live state, stats and muted flag. */
function sameListing(a: ListingKey, b: ListingKey): boolean {
  return a.updatedAt === b.updatedAt && a.state === b.state && a.stats === b.stats && a.muted === b.muted;
}
