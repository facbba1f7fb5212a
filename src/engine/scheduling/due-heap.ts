/**
 * A binary min-heap of due times, one entry per monitor, with O(log n) reschedule and removal.
 * The scheduler keeps every monitor here instead of a timer each. Pure data structure.
 */
export interface DueEntry {
  readonly id: number;
  readonly due: number;
}

/** An entry knows its place in the heap: a swap moves two fields, not two Map entries. */
interface Slot {
  id: number;
  due: number;
  at: number;
}

export class DueHeap {
  private readonly items: Slot[] = [];
  private readonly index = new Map<number, Slot>();
  /** Entries were added by load() since the heap was last put in order. */
  private unordered = false;

  get size(): number {
    return this.items.length;
  }

  has(id: number): boolean {
    return this.index.has(id);
  }

  dueOf(id: number): number | undefined {
    return this.index.get(id)?.due;
  }

  peek(): DueEntry | undefined {
    this.order();
    return this.items[0];
  }

  /** Adds or moves an entry without ordering the heap (a start loads thousands; the next read orders them once). */
  load(id: number, due: number): void {
    const slot = this.index.get(id);
    if (slot === undefined) this.push(id, due);
    else slot.due = due;
    this.unordered = true;
  }

  set(id: number, due: number): void {
    this.order();
    const slot = this.index.get(id);
    if (slot === undefined) {
      this.up(this.push(id, due));
      return;
    }
    const old = slot.due;
    slot.due = due;
    if (due < old) this.up(slot);
    else this.down(slot);
  }

  remove(id: number): void {
    this.order();
    const slot = this.index.get(id);
    if (slot === undefined) return;
    this.index.delete(id);
    const last = this.items.pop() as Slot;
    if (last === slot) return;
    last.at = slot.at;
    this.items[slot.at] = last;
    this.up(last);
    this.down(last);
  }

  /** Moves every due time later by `ms` (the order does not change). */
  delayAll(ms: number): void {
    for (const item of this.items) item.due += ms;
  }

  /** Takes the earliest entry if it is due at `now`. */
  popDue(now: number): DueEntry | undefined {
    this.order();
    const top = this.items[0];
    if (!top || top.due > now) return undefined;
    this.remove(top.id);
    return top;
  }

  private push(id: number, due: number): Slot {
    const slot: Slot = { id, due, at: this.items.length };
    this.items.push(slot);
    this.index.set(id, slot);
    return slot;
  }

  private order(): void {
    if (!this.unordered) return;
    this.unordered = false;
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.down(this.items[i]);
  }

  private up(slot: Slot): void {
    const items = this.items;
    let i = slot.at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent];
      if (p.due <= slot.due) break;
      items[i] = p;
      p.at = i;
      i = parent;
    }
    items[i] = slot;
    slot.at = i;
  }

  private down(slot: Slot): void {
    const items = this.items;
    const n = items.length;
    let i = slot.at;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && items[r].due < items[l].due ? r : l;
      const child = items[c];
      if (child.due >= slot.due) break;
      items[i] = child;
      child.at = i;
      i = c;
    }
    items[i] = slot;
    slot.at = i;
  }
}
