/**
 * The bundles are ASCII-only (packaging/bundle.js): a non-ASCII character that esbuild leaves in a
 * regular expression is escaped in the package's source, and one left anywhere else stops the
 * build, naming where it came from. The launcher reads dist/app.js as latin1, which is only the
 * same string when the file is ASCII.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS without types: the cast is its type
const { escapeNonAscii, assertAscii } = require('../../packaging/bundle.js') as {
  escapeNonAscii: (text: string) => string;
  assertAscii: (file: string) => void;
};

describe('escapeNonAscii', () => {
  it.each([
    ['plain ASCII', 'const a = /^[a-z]+$/i;', 'const a = /^[a-z]+$/i;'],
    ['a Latin letter', '/^[A-ZÇ]+$/i', '/^[A-Z\\u00C7]+$/i'],
    ['an em dash', '/[:\\-—]/', '/[:\\-\\u2014]/'],
    ['a character above U+FFFF becomes its surrogate pair', '"😀"', '"\\uD83D\\uDE00"'],
  ])('%s', (_name, input, expected) => {
    expect(escapeNonAscii(input)).toBe(expected);
  });

  it.each([
    ['^[A-ZÇƏĞİıÖŞÜ]+$', 'i', ['ÇAĞ', 'ışık', 'abc'], ['a-b', '']],
    ['^\\s*[:\\-—]\\s*', '', [' — x', ': y', '-z'], ['x — y']],
    ['^(УНП )?\\d{9}$', '', ['УНП 123456789', '123456789'], ['UNP 123456789']],
    ['[😀]', 'u', ['😀'], ['\uD83D']],
  ])('/%s/%s matches the same strings escaped', (pattern, flags, yes, no) => {
    const original = new RegExp(pattern, flags);
    // What a regular expression literal holds after escaping: the same pattern with \u escapes in it.
    const escaped = new RegExp(escapeNonAscii(pattern), flags);
    for (const s of [...yes, ...no]) expect([s, escaped.test(s)]).toEqual([s, original.test(s)]);
    for (const s of yes) expect(escaped.test(s)).toBe(true);
  });
});

describe('assertAscii', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-ascii-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes an ASCII bundle', () => {
    const file = path.join(dir, 'ok.js');
    fs.writeFileSync(file, 'module.exports = /^[a-z\\u00E9]$/;\n');
    expect(() => assertAscii(file)).not.toThrow();
  });

  it('stops at a non-ASCII character and names its source through the map', () => {
    const file = path.join(dir, 'bad.js');
    fs.writeFileSync(file, 'var a = 1;\nvar b = String.raw`é`;\n');
    // Line 2, column 0 of the bundle comes from line 7 of the map's one source, ../src/thing.ts.
    fs.writeFileSync(
      `${file}.map`,
      JSON.stringify({ version: 3, sources: ['../src/thing.ts'], names: [], mappings: 'AAAA;AAMA' }),
    );
    expect(() => assertAscii(file)).toThrow(/"é" \(from src\/thing\.ts:7\).*ESCAPE_NON_ASCII/);
  });
});

describe('the built bundle', () => {
  const app = path.resolve(__dirname, '..', '..', 'dist', 'app.js');
  (fs.existsSync(app) ? it : it.skip)(
    'dist/app.js is ASCII, so reading it as latin1 gives the same text as UTF-8',
    () => {
      const bytes = fs.readFileSync(app);
      expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
    },
  );
});
