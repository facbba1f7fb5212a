/**
 * Values read from the database and kept until they are dropped. A read that was under way when
 * anything was dropped answers its caller but is not kept: it may have run before the commit that
 * made the drop (Database.read sees committed rows only), and keeping it would hide that change
 * until the next drop.
 */

/** Values by key, at most `max` of them (when full, all go). */
export class ReadCacheMap<K, V> {
  private readonly values = new Map<K, V>();
  private generation = 0;

  constructor(private readonly max: number) {}

  /** The kept value for `key`, or `load()`'s (kept when `keep` says so and no drop came meanwhile). */
  async get(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (this.values.has(key)) return this.values.get(key) as V;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && keep(value)) {
      if (this.values.size >= this.max) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }

  /** The kept value for `key` without reading: undefined while nothing is kept. */
  peek(key: K): V | undefined {
    return this.values.get(key);
  }

  /** Drops the values `which` picks (every value without it). */
  drop(which: (value: V) => boolean = () => true): void {
    this.generation += 1;
    for (const [key, value] of this.values) if (which(value)) this.values.delete(key);
  }
}

/** One value (settings, a page's images). */
export class ReadCache<T> {
  private readonly kept = new ReadCacheMap<null, T>(1);

  /** The kept value, or `load()`'s (kept unless a drop came meanwhile). */
  get(load: () => Promise<T>): Promise<T> {
    return this.kept.get(null, load);
  }

  /** The kept value without reading: null while nothing is kept. */
  peek(): T | null {
    return this.kept.peek(null) ?? null;
  }

  drop(): void {
    this.kept.drop();
  }
}
