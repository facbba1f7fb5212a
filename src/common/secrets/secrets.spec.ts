import { MASK, maskSecretsIn, quoteMasked, urlSecretParts } from './secrets';

const SECRET = 'Sk4Q9ZxY2wVb7PnR';
const MAX = 100;

describe('quoteMasked', () => {
  // The secret starts at every offset around the cut at MAX characters, straddling it in most.
  const offsets = Array.from({ length: MAX + 10 }, (_, p) => p);

  it.each(offsets)('never shows part of a secret that starts at offset %i of a text cut at 100', (p) => {
    const quote = quoteMasked(`${'.'.repeat(p)}${SECRET}${'.'.repeat(40)}`, [SECRET], MAX);
    expect(quote).toMatch(/^[.*…]*$/);
    expect([...quote].length).toBeLessThanOrEqual(MAX);
    if (p < MAX - 1) expect(quote).toContain('*');
  });

  it.each(offsets)('never shows part of a URL path token that starts at offset %i', (p) => {
    const url = `https://hooks.example.com/services/${SECRET}`;
    const quote = quoteMasked(`${'.'.repeat(p)}{"url":"${url.replace(/\//g, '\\/')}"}`, urlSecretParts(url), MAX);
    expect(quote).not.toMatch(/[A-Z0-9]/);
  });

  it.each<[string, string, string[], number, string]>([
    ['leaves text without secrets as it is', 'no such thing here', [SECRET], 100, 'no such thing here'],
    ['makes the text one line after masking', `bad\r\n  token ${SECRET}\tend`, [SECRET], 100, `bad token ${MASK} end`],
    ['masks a secret with whitespace before one-lining it', 'bad a  b end', ['a  b'], 100, `bad ${MASK} end`],
    ['cuts with an ellipsis', 'x'.repeat(20), [SECRET], 10, `${'x'.repeat(9)}…`],
  ])('%s', (_, text, secrets, max, want) => {
    expect(quoteMasked(text, secrets, max)).toBe(want);
  });
});

describe('maskSecretsIn', () => {
  it.each<[string, string, string[], string]>([
    ['masks every occurrence', `a ${SECRET} b ${SECRET}`, [SECRET], `a ${MASK} b ${MASK}`],
    ['masks overlapping secrets as one', 'xxabcdefghxx', ['abcdef', 'cdefgh'], `xx${MASK}xx`],
    ['masks a shorter secret inside a longer one as one', 'xx0123456789xx', ['345678', '0123456789'], `xx${MASK}xx`],
    ['masks adjacent secrets as one', 'xxabcdefghijklxx', ['abcdefg', 'hijkl'], `xx${MASK}xx`],
    ['finds a secret written as a JSON string', '{"secret":"p\\"q\\\\r/s"}', ['p"q\\r/s'], `{"secret":"${MASK}"}`],
    ['finds a secret written in a URL', 'GET /x?k=a%20b%26c%2Fd', ['a b&c/d'], `GET /x?k=${MASK}`],
    ['ignores an empty secret', 'text', [''], 'text'],
    [
      'leaves a tail that begins a secret when the text was not cut',
      `ends with ${SECRET.slice(0, 5)}`,
      [SECRET],
      `ends with ${SECRET.slice(0, 5)}`,
    ],
  ])('%s', (_, text, secrets, want) => {
    expect(maskSecretsIn(text, secrets)).toBe(want);
  });

  it.each(Array.from({ length: SECRET.length }, (_, n) => n + 1))(
    'masks the first %i characters of a secret where the text was cut',
    (n) => {
      expect(maskSecretsIn(`cut here: ${SECRET.slice(0, n)}`, [SECRET], true)).toBe(`cut here: ${MASK}`);
    },
  );

  it('masks the longest tail that begins a secret where the text was cut', () => {
    expect(maskSecretsIn('abab', ['ababab'], true)).toBe(MASK);
    expect(maskSecretsIn('xx abc', ['abcdef', 'cde'], true)).toBe(`xx ${MASK}`);
  });
});

describe('urlSecretParts', () => {
  it.each<[string, string[]]>([
    [
      'https://hooks.slack.com/services/T0001/B0002/AbCdEfGhIj',
      [
        'https://hooks.slack.com/services/T0001/B0002/AbCdEfGhIj',
        '/services/T0001/B0002/AbCdEfGhIj',
        'services',
        'AbCdEfGhIj',
      ],
    ],
    [
      'https://user1234:pass5678@h.example/x?token=abcdef123&n=1',
      [
        'https://user1234:pass5678@h.example/x?token=abcdef123&n=1',
        '/x?token=abcdef123&n=1',
        'user1234',
        'pass5678',
        'abcdef123',
      ],
    ],
    ['not a url at all', ['not a url at all']],
  ])('%s', (url, parts) => {
    expect(urlSecretParts(url).sort()).toEqual(parts.sort());
  });
});
