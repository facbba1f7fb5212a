import { EventRing } from './event-ring';

const frame = (text: string) => Buffer.from(text);
const texts = (frames: Buffer[] | null) => frames?.map((f) => f.toString()) ?? null;

function ringWith(capacity: number, maxBytes: number, events: string[]): EventRing {
  const ring = new EventRing(capacity, maxBytes);
  for (const e of events) ring.push(frame(e));
  return ring;
}

describe('EventRing', () => {
  it('numbers events 1, 2, 3 ... and starts empty at 0', () => {
    const ring = new EventRing(3, 1000);
    expect([ring.last, ring.next, ring.first, ring.size]).toEqual([0, 1, 1, 0]);
    expect([ring.push(frame('a')), ring.push(frame('b'))]).toEqual([1, 2]);
    expect([ring.last, ring.next, ring.first, ring.size]).toEqual([2, 3, 1, 2]);
  });

  it.each<[string, number, number, string[], number, string[] | null]>([
    ['everything after 0 while nothing was dropped', 3, 1000, ['a', 'b'], 0, ['a', 'b']],
    ['the events after a held one', 3, 1000, ['a', 'b', 'c'], 1, ['b', 'c']],
    ['nothing after the newest', 3, 1000, ['a', 'b', 'c'], 3, []],
    ['nothing after 0 in an empty ring', 3, 1000, [], 0, []],
    [
      'the whole ring after the one just before the oldest held',
      3,
      1000,
      ['a', 'b', 'c', 'd', 'e'],
      2,
      ['c', 'd', 'e'],
    ],
    ['null once an event after it was dropped (by count)', 3, 1000, ['a', 'b', 'c', 'd', 'e'], 1, null],
    ['null once an event after it was dropped (by bytes)', 10, 4, ['aa', 'bb', 'cc'], 0, null],
    ['what the byte cap kept', 10, 4, ['aa', 'bb', 'cc'], 1, ['bb', 'cc']],
    ['null for a number after the newest', 3, 1000, ['a'], 2, null],
    ['null for a negative number', 3, 1000, ['a'], -1, null],
    ['null for a fraction', 3, 1000, ['a'], 0.5, null],
  ])('after(): %s', (_, capacity, maxBytes, events, seq, expected) => {
    expect(texts(ringWith(capacity, maxBytes, events).after(seq))).toEqual(expected);
  });

  it('keeps going round without losing order', () => {
    const ring = new EventRing(4, 1000);
    for (let i = 1; i <= 1001; i++) ring.push(frame(String(i)));
    expect([ring.first, ring.last, ring.size]).toEqual([998, 1001, 4]);
    expect(texts(ring.after(997))).toEqual(['998', '999', '1000', '1001']);
  });

  it('keeps the newest event even when it alone is over the byte cap', () => {
    const ring = ringWith(5, 3, ['a', 'bbbbbb']);
    expect(texts(ring.after(1))).toEqual(['bbbbbb']);
    expect(ring.size).toBe(1);
  });
});
