import { EventRing } from './event-ring';
import { decideResume, eventId, parseEventId, Resume } from './resume';

describe('parseEventId', () => {
  it.each<[string, { boot: string; seq: number } | null]>([
    ['3f9a0c1e-0', { boot: '3f9a0c1e', seq: 0 }],
    ['3f9a0c1e-42', { boot: '3f9a0c1e', seq: 42 }],
    ['3f9a0c1e-9007199254740991', { boot: '3f9a0c1e', seq: 9007199254740991 }],
    ['3f9a0c1e-9007199254740993', null],
    ['3f9a0c1e-042', null],
    ['3f9a0c1e--1', null],
    ['3F9A0C1E-1', null],
    ['3f9a0c1e-1 ', null],
    ['-1', null],
    ['42', null],
    ['', null],
    ['a-b-1', null],
  ])('%j → %j', (text, expected) => {
    expect(parseEventId(text)).toEqual(expected);
  });

  it('reads back what eventId writes', () => {
    expect(parseEventId(eventId('b007', 17))).toEqual({ boot: 'b007', seq: 17 });
  });
});

describe('decideResume', () => {
  const BOOT = 'b007';
  /** Ring of capacity 4 holding events 3..6 (frames "e3".."e6", 2 bytes each). */
  const ring = new EventRing(4, 1000);
  for (let i = 1; i <= 6; i++) ring.push(Buffer.from(`e${i}`));
  const shape = (r: Resume) =>
    r.kind === 'replay' ? { kind: 'replay', after: r.after, frames: r.frames.map(String) } : r;

  it.each<[string, string | undefined, number, object]>([
    ['no header: a fresh client', undefined, 100, { kind: 'fresh' }],
    ['an empty header: a fresh client', ' ', 100, { kind: 'fresh' }],
    ['the newest id: nothing missed', `${BOOT}-6`, 100, { kind: 'replay', after: 6, frames: [] }],
    ['a held id: the events after it', `${BOOT}-4`, 100, { kind: 'replay', after: 4, frames: ['e5', 'e6'] }],
    [
      'the id just before the oldest held: all of the ring',
      `${BOOT}-2`,
      100,
      { kind: 'replay', after: 2, frames: ['e3', 'e4', 'e5', 'e6'] },
    ],
    ['an id whose next event is gone', `${BOOT}-1`, 100, { kind: 'reset', reason: 'gone' }],
    ['an id from another run', 'c0ffee-4', 100, { kind: 'reset', reason: 'restarted' }],
    ['an id not handed out yet', `${BOOT}-7`, 100, { kind: 'reset', reason: 'unknown_id' }],
    ['something that is not an id', 'hello', 100, { kind: 'reset', reason: 'unknown_id' }],
    ['a replay over the byte limit', `${BOOT}-2`, 7, { kind: 'reset', reason: 'too_far_behind' }],
    ['a replay just at the byte limit', `${BOOT}-2`, 8, { kind: 'replay', after: 2, frames: ['e3', 'e4', 'e5', 'e6'] }],
  ])('%s', (_, header, maxBytes, expected) => {
    expect(shape(decideResume(header, BOOT, ring, maxBytes))).toEqual(expected);
  });
});
