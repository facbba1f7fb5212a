import { safeNextPath } from './next-path';

describe('safeNextPath', () => {
  it.each([
    ['/'],
    ['/monitors/12'],
    ['/incidents?state=open'],
    ['/monitors/12#checks'],
    ['/timeline?kind=sign_in&before=2026-11-01T00%3A00%3A00Z'],
    ['/%2F%2Fevil.example'],
  ])('keeps the same-site path %s', (path) => {
    expect(safeNextPath(path)).toBe(path);
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash after the slash', '/\\evil.example'],
    ['a backslash anywhere', '/monitors\\..\\x'],
    ['an absolute URL', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'monitors/12'],
    ['a tab inside //', '/\t/evil.example'],
    ['a newline', '/monitors\n/x'],
    ['a NUL', '/monitors\u0000'],
    ['DEL', '/\u007f'],
    ['the sign-in page (a loop)', '/signin?next=/'],
    ['the reset page', '/reset/abc'],
    ['nothing', ''],
    ['no value', undefined],
    ['a very long path', `/${'a'.repeat(2048)}`],
  ])('refuses %s', (_, path) => {
    expect(safeNextPath(path)).toBeNull();
  });
});
