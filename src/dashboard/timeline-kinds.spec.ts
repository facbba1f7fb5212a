import { EVENT_KINDS } from '../events/event-kinds';
import { KIND_WORDS, kindGroups } from './timeline-kinds';

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

  it.each(Object.keys(EVENT_KINDS))('names %s in words, not as an identifier', (kind) => {
    const words = KIND_WORDS[kind as keyof typeof KIND_WORDS];
    expect(words).toMatch(/^[A-Z][a-z -]*[a-z]$|^[A-Z][A-Za-z -]*$/);
    expect(words).not.toContain('_');
    expect(
      kindGroups()
        .flatMap((g) => g.kinds)
        .find((k) => k.kind === kind)?.words,
    ).toBe(words);
  });
});
