import { EVENT_KINDS } from '../events/event-kinds';
import { kindGroups } from './timeline-kinds';

describe('kindGroups', () => {
  it('offers every kind of timeline line exactly once', () => {
    const offered = kindGroups().flatMap((g) => g.kinds.map((k) => k.kind));
    expect([...offered].sort()).toEqual(Object.keys(EVENT_KINDS).sort());
    expect(new Set(offered).size).toBe(offered.length);
  });

  it('says what each kind records', () => {
    const down = kindGroups()[0].kinds.find((k) => k.kind === 'down');
    expect(down?.what).toBe(EVENT_KINDS.down);
  });
});
