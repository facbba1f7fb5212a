import { SLUG_MAX, slugify, uniqueSlug } from './slug';

const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

describe('slugify', () => {
  it.each<[string, string, string]>([
    ['lower-cases upper case', 'NAS Backup', 'nas-backup'],
    ['keeps digits', 'Web 2 Proxy 443', 'web-2-proxy-443'],
    ['turns accented letters into ascii', 'Crème brûlée à Zürich', 'creme-brulee-a-zurich'],
    ['turns a tilde n into n', 'Ñandú', 'nandu'],
    ['folds full-width letters and ligatures', 'ＡＢＣ ﬁle', 'abc-file'],
    ['joins words separated by punctuation with one dash', 'a!!!b...c///d', 'a-b-c-d'],
    ['collapses runs of spaces and dashes into one dash', 'home   --  lab', 'home-lab'],
    ['trims dashes and spaces at both ends', '  --Hello World--  ', 'hello-world'],
    ['drops emoji', 'Server 🚀 Room', 'server-room'],
    ['drops emoji at the ends', '🔥 Alarm 🔥', 'alarm'],
    ['keeps an already valid slug', 'db-primary-1', 'db-primary-1'],
  ])('%s: %j → %j', (_what, name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it.each<[string, string]>([
    ['an empty name', ''],
    ['only spaces', '   '],
    ['only symbols', '!@#$%^&*()'],
    ['only emoji', '🚀🔥'],
    ['only dashes', '----'],
    ['letters without an ascii form', '日本語'],
  ])('falls back to "monitor" for %s', (_what, name) => {
    expect(slugify(name)).toBe('monitor');
  });

  it('uses the given fallback when nothing usable is left', () => {
    expect(slugify('???', 'check')).toBe('check');
  });

  it('cuts a long name to 60 characters', () => {
    expect(slugify('a'.repeat(70))).toBe('a'.repeat(SLUG_MAX));
  });

  it.each<[string, string, string]>([
    ['a space', `${'a'.repeat(59)} b`, 'a'.repeat(59)],
    ['a run of punctuation', `${'a'.repeat(59)} !!! bbb`, 'a'.repeat(59)],
  ])('leaves no trailing dash when the 60-character cut falls on %s', (_what, name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('cuts inside a word when that is where 60 characters end', () => {
    expect(slugify(`${'a'.repeat(55)} bbbbbbbbbb`)).toBe(`${'a'.repeat(55)}-bbbb`);
  });

  it.each<[string]>([
    ['Crème brûlée à Zürich, 2nd floor (rack #3)'],
    ['  __Weird__ -- name // with \\ everything ~~ 🚀 '],
    [`${'Long Name '.repeat(10)}`],
    ['x'],
  ])('produces a valid slug of at most 60 characters for %j', (name) => {
    const slug = slugify(name);
    expect(slug).toMatch(SLUG_SHAPE);
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
  });
});

describe('uniqueSlug', () => {
  const takenFrom =
    (...slugs: string[]) =>
    (s: string) =>
      slugs.includes(s);

  it.each<[string, string[], string]>([
    ['returns the base when it is free', [], 'web'],
    ['appends -2 when the base is taken', ['web'], 'web-2'],
    ['appends -3 when the base and -2 are taken', ['web', 'web-2'], 'web-3'],
    ['takes the first free number, not the highest', ['web', 'web-3'], 'web-2'],
  ])('%s', (_what, taken, expected) => {
    expect(uniqueSlug('web', takenFrom(...taken))).toBe(expected);
  });

  it('does not number a base that is free even when numbered ones are taken', () => {
    expect(uniqueSlug('web', takenFrom('web-2', 'web-3'))).toBe('web');
  });

  it('cuts a 60-character base to fit the -2 suffix', () => {
    const base = 'a'.repeat(SLUG_MAX);
    const slug = uniqueSlug(base, takenFrom(base));
    expect(slug).toBe(`${'a'.repeat(58)}-2`);
    expect(slug).toHaveLength(SLUG_MAX);
  });

  it('cuts a 60-character base further for a two-digit suffix', () => {
    const base = 'a'.repeat(SLUG_MAX);
    const slug = uniqueSlug(base, (s) => s === base || /-[2-9]$/.test(s));
    expect(slug).toBe(`${'a'.repeat(57)}-10`);
    expect(slug).toHaveLength(SLUG_MAX);
  });

  it('leaves no double dash when the cut falls on a dash of the base', () => {
    const base = `${'a'.repeat(57)}-bc`;
    expect(uniqueSlug(base, takenFrom(base))).toBe(`${'a'.repeat(57)}-2`);
  });

  it('asks about each candidate in order until one is free', () => {
    const asked: string[] = [];
    uniqueSlug('db', (s) => {
      asked.push(s);
      return asked.length < 4;
    });
    expect(asked).toEqual(['db', 'db-2', 'db-3', 'db-4']);
  });
});
