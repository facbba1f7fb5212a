/**
 * A binary min-heap of due times, one entry per monitor, with O(log n) reschedule and removal.
 * The scheduler keeps every monitor here instead of a timer each. Pure data structure.
 */
export interface DueEntry {
  id: number;
  due: number;
}

export class DueHeap {
  private readonly items: DueEntry[] = [];
  private readonly index = new Map<number, number>();
  /** Entries were added by load() since the heap was last put in order. */
  private unordered = false;

  get size(): number {
    return this.items.length;
  }

  has(id: number): boolean {
    return this.index.has(id);
  }

  dueOf(id: number): number | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.items[i].due;
  }

  peek(): DueEntry | undefined {
    this.order();
    return this.items[0];
  }

  /**
   * set() for many entries at once (a start loads every monitor): each is stored as it comes and
   * the heap is put in order once, at the next operation that needs it (O(n) instead of O(n log n)).
   */
  load(id: number, due: number): void {
    const i = this.index.get(id);
    if (i === undefined) {
      this.items.push({ id, due });
      this.index.set(id, this.items.length - 1);
    } else this.items[i].due = due;
    this.unordered = true;
  }

  /** Adds the monitor or moves it to a new due time. */
  set(id: number, due: number): void {
    this.order();
    const i = this.index.get(id);
    if (i === undefined) {
      this.items.push({ id, due });
      this.index.set(id, this.items.length - 1);
      this.up(this.items.length - 1);
      return;
    }
    const old = this.items[i].due;
    this.items[i].due = due;
    if (due < old) this.up(i);
    else this.down(i);
  }

  remove(id: number): void {
    this.order();
    const i = this.index.get(id);
    if (i === undefined) return;
    const last = this.items.length - 1;
    this.swap(i, last);
    this.items.pop();
    this.index.delete(id);
    if (i < this.items.length) {
      this.up(i);
      this.down(i);
    }
  }

  /** Moves every entry `ms` later; their order stays, so the heap does too. */
  delayAll(ms: number): void {
    for (const item of this.items) item.due += ms;
  }

  /** Removes and returns the earliest entry if it is due at `now`. */
  popDue(now: number): DueEntry | undefined {
    this.order();
    const top = this.items[0];
    if (!top || top.due > now) return undefined;
    this.remove(top.id);
    return top;
  }

  private order(): void {
    if (!this.unordered) return;
    this.unordered = false;
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.items[parent].due <= this.items[i].due) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.items[l].due < this.items[m].due) m = l;
      if (r < n && this.items[r].due < this.items[m].due) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    if (a === b) return;
    const x = this.items[a];
    const y = this.items[b];
    this.items[a] = y;
    this.items[b] = x;
    this.index.set(y.id, a);
    this.index.set(x.id, b);
  }
}
