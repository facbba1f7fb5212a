/**
 * Work a package does when loaded that the service never needs then is moved to first use
 * (packaging/bundle.js LAZY_REWRITES). Each rewrite is applied to the installed package's file and
 * the result loaded as a module: nothing is built at load, and what it builds on first use answers
 * as the original does.
 */
import * as fs from 'node:fs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LAZY_REWRITES } = require('../../packaging/bundle.js') as {
  LAZY_REWRITES: { file: string; from: string; to: string }[];
};

/**
 * Runs `declaration` (a `const dateTimeFormatter = ...;` statement) with an Intl whose
 * DateTimeFormat counts how often it is built; returns the formatter and the count.
 */
function declare(declaration: string): { formatter: { format(t: number): string }; built: () => number } {
  let built = 0;
  const CountingFormat = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
    built++;
    return new Intl.DateTimeFormat(...args);
  };
  const run = new Function('Intl', `${declaration}\nreturn dateTimeFormatter;`) as (intl: unknown) => { format(t: number): string };
  return { formatter: run({ ...Intl, DateTimeFormat: CountingFormat }), built: () => built };
}

describe('LAZY_REWRITES', () => {
  it.each(LAZY_REWRITES.map((r) => [r.file, r]))('%s: the text is there once', (_file, r) => {
    const text = fs.readFileSync(require.resolve(r.file), 'utf8');
    expect(text.split(r.from)).toHaveLength(2);
  });

  it.each(LAZY_REWRITES.map((r) => [r.file, r]))('%s builds its date formatter on first use, and it formats as before', (_file, r) => {
    const text = fs.readFileSync(require.resolve(r.file), 'utf8');
    const from = text.indexOf(r.from);
    const declaration = text.slice(from, text.indexOf('});', from) + 3);
    const before = declare(declaration);
    expect(before.built()).toBe(1);
    const after = declare(declaration.replace(r.from, r.to));
    expect(after.built()).toBe(0);
    const t = Date.UTC(2026, 10, 28, 13, 5, 9);
    expect(after.formatter.format(t)).toBe(before.formatter.format(t));
    after.formatter.format(t + 1000);
    expect(after.built()).toBe(1);
  });
});
