import { DueHeap } from './due-heap';

describe('DueHeap', () => {
  it('pops entries in due order and only when due', () => {
    const h = new DueHeap();
    [
      [1, 50],
      [2, 10],
      [3, 30],
      [4, 20],
    ].forEach(([id, due]) => h.set(id, due));
    expect(h.popDue(5)).toBeUndefined();
    const order: number[] = [];
    let e;
    while ((e = h.popDue(100))) order.push(e.id);
    expect(order).toEqual([2, 4, 3, 1]);
    expect(h.size).toBe(0);
  });

  it.each([
    ['earlier', 5, [2, 1, 3]],
    ['later', 100, [1, 3, 2]],
  ])('moves an entry to an %s time', (_, due, expected) => {
    const h = new DueHeap();
    h.set(1, 10);
    h.set(2, 20);
    h.set(3, 30);
    h.set(2, due);
    expect(Array.from({ length: 3 }, () => h.popDue(1000)?.id)).toEqual(expected);
  });

  it('moves every entry later by the same time, in the same order', () => {
    const h = new DueHeap();
    [
      [1, 50],
      [2, 10],
      [3, 30],
    ].forEach(([id, due]) => h.set(id, due));
    h.delayAll(100);
    expect([h.dueOf(1), h.dueOf(2), h.dueOf(3)]).toEqual([150, 110, 130]);
    expect(h.popDue(109)).toBeUndefined();
    expect(Array.from({ length: 3 }, () => h.popDue(1000)?.id)).toEqual([2, 3, 1]);
  });

  it('loads many entries unordered and orders them once, before anything needs the order', () => {
    const h = new DueHeap();
    const dues = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    dues.forEach((due, id) => h.load(id, due));
    h.load(0, 5000);
    expect(h.dueOf(0)).toBe(5000);
    expect(h.size).toBe(1000);
    const out: number[] = [];
    let e;
    while ((e = h.popDue(Infinity))) out.push(e.due);
    expect(out).toEqual([...dues.slice(1), 5000].sort((a, b) => a - b));
  });

  it('removes an entry from anywhere and keeps order', () => {
    const h = new DueHeap();
    for (let i = 1; i <= 10; i++) h.set(i, 100 - i);
    h.remove(5);
    h.remove(42);
    expect(h.has(5)).toBe(false);
    const out: number[] = [];
    let e;
    while ((e = h.popDue(1000))) out.push(e.id);
    expect(out).toEqual([10, 9, 8, 7, 6, 4, 3, 2, 1]);
  });

  it('stays ordered under a random mix of operations, compared with a sorted list', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const h = new DueHeap();
    const model = new Map<number, number>();
    for (let step = 0; step < 5000; step++) {
      const id = Math.floor(rand() * 200);
      const r = rand();
      if (r < 0.6) {
        const due = Math.floor(rand() * 10_000);
        // A third of the changes as bulk loads, which put the heap in order only when needed.
        if (rand() < 0.33) h.load(id, due);
        else h.set(id, due);
        model.set(id, due);
      } else if (r < 0.8) {
        h.remove(id);
        model.delete(id);
      } else {
        const now = Math.floor(rand() * 10_000);
        const e = h.popDue(now);
        const min = [...model.values()].reduce((a, b) => Math.min(a, b), Infinity);
        if (min <= now) {
          expect(e?.due).toBe(min);
          model.delete(e!.id);
        } else expect(e).toBeUndefined();
      }
      expect(h.size).toBe(model.size);
    }
  });
});
