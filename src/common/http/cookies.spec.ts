import { readCookie, serializeCookie } from './cookies';

describe('readCookie', () => {
  it.each<[string, string | undefined, string | null]>([
    ['the only cookie', 'sid=abc', 'abc'],
    ['one of several cookies', 'theme=dark; sid=abc; lang=en', 'abc'],
    ['the last cookie', 'theme=dark;sid=abc', 'abc'],
    ['spaces around name and value', '  sid  =  abc  ; theme=dark', 'abc'],
    ['a quoted value', 'sid="abc"', 'abc'],
    ['a percent-encoded value', 'sid=a%20b%3Bc', 'a b;c'],
    ['a value containing "="', 'sid=abc==', 'abc=='],
    ['the first of duplicate cookies', 'sid=first; sid=second', 'first'],
    ['a cookie whose name ends like ours', 'xsid=no; sid=yes', 'yes'],
    ['after a part without "="', 'flag; sid=abc', 'abc'],
    ['an empty value', 'sid=', ''],
    ['a missing cookie', 'theme=dark; lang=en', null],
    ['a name that only starts like ours', 'sidx=abc', null],
    ['a name in another case', 'SID=abc', null],
    ['no header', undefined, null],
    ['an empty header', '', null],
    ['malformed percent-encoding', 'sid=%E0%A4%A', null],
    ['a lone percent sign', 'sid=100%', null],
    ['an oversized header', `pad=${'x'.repeat(8192)}; sid=abc`, null],
  ])('reads %s', (_label, header, value) => {
    expect(readCookie(header, 'sid')).toBe(value);
  });

  it('reads a header of exactly 8192 characters', () => {
    const header = `sid=abc; pad=${'x'.repeat(8192 - 'sid=abc; pad='.length)}`;
    expect(header).toHaveLength(8192);
    expect(readCookie(header, 'sid')).toBe('abc');
  });
});

describe('serializeCookie', () => {
  it.each<[boolean, string]>([
    [false, 'sid=abc; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict'],
    [true, 'sid=abc; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict; Secure'],
  ])('with secure=%s writes %j', (secure, cookie) => {
    expect(serializeCookie('sid', 'abc', { maxAgeS: 3600, secure })).toBe(cookie);
  });

  it('clears a cookie with Max-Age=0', () => {
    expect(serializeCookie('sid', '', { maxAgeS: 0, secure: false })).toBe(
      'sid=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict',
    );
  });

  it.each(['a b;c', 'x=y', 'ünïcode', '"quoted"', '%41'])('encodes %j so readCookie gives it back', (value) => {
    const setCookie = serializeCookie('sid', value, { maxAgeS: 60, secure: true });
    const pair = setCookie.split('; ')[0];
    expect(pair).toMatch(/^sid=[^;\s"]*$/);
    expect(readCookie(`other=1; ${pair}`, 'sid')).toBe(value);
  });
});
