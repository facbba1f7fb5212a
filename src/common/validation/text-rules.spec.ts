import { BAD_TEXT } from '../../../test/support/bad-text';
import { fieldValueProblem, isFieldName, nameProblem, textProblem } from './text-rules';

describe('nameProblem (monitor names, public names, API key names)', () => {
  it.each([
    ['a plain name', 'Web server'],
    ['accents and other scripts', 'Café – 東京 – Ünïcode'],
    ['an emoji joined by ZWJ', 'Family 👨‍👩‍👧'],
    ['inner spaces and punctuation', 'db-1 (primary): 5432/tcp'],
    ['a single character', 'x'],
    ['leading and trailing spaces around text', '  NAS  '],
  ])('accepts %s', (_label, text) => {
    expect(nameProblem(text)).toBeNull();
  });

  it.each([
    ['an empty string', '', 'is needed: type a short name'],
    ['only spaces', '   ', 'is needed: type a short name'],
    ['only a no-break space', '\u00a0', 'is needed: type a short name'],
    ['a line feed', 'Web\nserver', 'control'],
    ['a carriage return', 'Web\r', 'control'],
    ['a tab', 'Web\tserver', 'control'],
    ['NUL', 'Web\u0000', 'control'],
    ['DEL', 'Web\u007f', 'control'],
    ['a C1 control', 'Web\u0085', 'control'],
    ['a right-to-left override', 'gpj.\u202eexe', 'control'],
    ['a left-to-right embedding', '\u202aWeb', 'control'],
    ['a right-to-left isolate', 'Web\u2067', 'control'],
    ['a left-to-right mark', 'Web\u200e', 'control'],
    ['an Arabic letter mark', 'Web\u061c', 'control'],
    ['a line separator', 'Web\u2028server', 'control'],
    ['a paragraph separator', 'Web\u2029server', 'control'],
    ['a byte order mark', '\ufeffWeb', 'control'],
    ['a lone high surrogate', 'Web\ud800', 'lone surrogate'],
    ['a lone low surrogate', '\udc00Web', 'lone surrogate'],
  ])('refuses %s', (_label, text, words) => {
    expect(nameProblem(text)).toContain(words);
  });
});

describe('textProblem: the one rule of every text people enter (names, groups, tags, descriptions, notes)', () => {
  it.each<[string, string, boolean]>([
    ['plain text', 'Home lab', false],
    ['other scripts and an emoji pair', 'Café 東京 👨‍👩‍👧', false],
    ["an empty string (blankness is the name rule's business)", '', false],
    ['line breaks and tabs in a multi-line text', 'one\n\ttwo\r\nthree\r', true],
  ])('accepts %s', (_label, text, lines) => {
    expect(textProblem(text, { lines })).toBeNull();
  });

  it.each([
    ['a line feed', 'a\nb'],
    ['a carriage return', 'a\rb'],
    ['a tab', 'a\tb'],
  ])('refuses %s in a single-line text', (_label, text) => {
    expect(textProblem(text)).toContain('line breaks, tabs');
  });

  it.each(
    BAD_TEXT.flatMap(
      ([label, text]) =>
        [
          [label, text, false],
          [label, text, true],
        ] as [string, string, boolean][],
    ),
  )('refuses %s (multi-line: %s)', (_label, text, lines) => {
    expect(textProblem(text, { lines })).toMatch(/control characters|lone surrogate/);
  });
});

describe('fieldValueProblem (RFC 9110 field values: header values, content_type, bearer tokens)', () => {
  it.each([
    ['visible ASCII', 'Bearer abc.DEF-123_~+/='],
    ['spaces and tabs inside', 'text/plain; charset=utf-8\tq=1'],
    ['an empty value', ''],
    ['Latin-1 letters (obs-text)', 'café'],
    ['the mask of a kept secret', '********'],
  ])('accepts %s', (_label, text) => {
    expect(fieldValueProblem(text)).toBeNull();
  });

  it.each([
    ['a trailing line feed', 'abc\n'],
    ['a CR LF pair (header injection)', 'abc\r\nX-Injected: 1'],
    ['a bare carriage return', 'a\rb'],
    ['NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['another C0 control', 'a\u0007b'],
    ['a C1 control', 'a\u0085b'],
    ['a right-to-left override', 'abc\u202e'],
    ['a character beyond Latin-1', 'token\u2603'],
    ['an emoji', 'ok👍'],
  ])('refuses %s', (_label, text) => {
    expect(fieldValueProblem(text)).toMatch(/visible ASCII/);
  });
});

describe('isFieldName (RFC 9110 tokens)', () => {
  it.each(['X-Api-Key', 'Accept', "a!#$%&'*+.^_`|~0", 'x'])('accepts %s', (name) => {
    expect(isFieldName(name)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['a space', 'X Api'],
    ['a colon', 'X-Api:'],
    ['a line feed', 'X-Api\n'],
    ['NUL', 'X\u0000'],
    ['a non-ASCII letter', 'X-Café'],
    ['a right-to-left override', 'X\u202e'],
    ['a separator', 'X(1)'],
  ])('refuses %s', (_label, name) => {
    expect(isFieldName(name)).toBe(false);
  });
});
