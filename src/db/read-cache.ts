/**
 * A value read from the database and kept until it is dropped. A read that was under way when
 * the value was dropped answers its caller but is not kept: it may have run before the commit
 * that made the drop (Database.read sees committed rows only), and keeping it would hide that
 * change until the next drop.
 */
export class ReadCache<T> {
  private value: T | null = null;
  private generation = 0;

  /** The kept value, or `load()`'s (kept unless a drop came meanwhile). */
  async get(load: () => Promise<T>): Promise<T> {
    if (this.value !== null) return this.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.value = value;
    return value;
  }

  /** The kept value without reading: null while nothing is kept. */
  peek(): T | null {
    return this.value;
  }

  drop(): void {
    this.generation += 1;
    this.value = null;
  }
}
