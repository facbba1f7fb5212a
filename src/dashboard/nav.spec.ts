import { NAV, navFor, themeChoices, themeOf } from './nav';

describe('navFor', () => {
  it('lists only the pages that are ready, in order, and marks the current one', () => {
    const items = navFor('overview');
    expect(items.map((i) => i.href)).toEqual(NAV.filter((e) => e.ready).map((e) => e.href));
    expect(items.filter((i) => i.current).map((i) => i.label)).toEqual(['Overview']);
  });

  it('marks nothing current on a page outside the navigation', () => {
    expect(navFor('account').some((i) => i.current)).toBe(false);
  });
});

describe('themeOf', () => {
  it.each([
    ['light', 'light'],
    ['dark', 'dark'],
    [null, 'auto'],
    ['auto', 'auto'],
    ['"><script>', 'auto'],
  ])('%s gives %s', (cookie, theme) => {
    expect(themeOf(cookie)).toBe(theme);
  });
});

describe('themeChoices', () => {
  it('offers the three themes with the current one selected', () => {
    expect(themeChoices('dark').map((c) => [c.value, c.selected])).toEqual([
      ['auto', false],
      ['light', false],
      ['dark', true],
    ]);
  });
});
