/**
 * Work a package does when loaded that the service never needs then is moved to first use
 * (packaging/bundle.js LAZY_REWRITES). Each rewrite is applied to the installed package's files:
 * its texts are there once, nothing is built at load, and what is built on first use answers as
 * the original does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Module = require('node:module');

interface Edit {
  from: string;
  to: string;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS without types: the cast is its type
const { LAZY_REWRITES, applyEdits } = require('../../packaging/bundle.js') as {
  LAZY_REWRITES: { file: string; edits: Edit[] }[];
  applyEdits: (text: string, edits: Edit[], file: string) => string;
};

const ROOT = path.join(__dirname, '..', '..');
const editsOf = (file: string) => LAZY_REWRITES.find((r) => r.file === file)!.edits;

/** Every installed copy of `file` (a path below node_modules/), nested copies included. */
function installedCopies(file: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const candidate = path.join(dir, file);
    if (fs.existsSync(candidate)) out.push(candidate);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const pkg = entry.name.startsWith('@')
        ? fs.readdirSync(path.join(dir, entry.name)).map((n) => path.join(dir, entry.name, n))
        : [path.join(dir, entry.name)];
      for (const p of pkg) if (fs.existsSync(path.join(p, 'node_modules'))) walk(path.join(p, 'node_modules'));
    }
  };
  walk(path.join(ROOT, 'node_modules'));
  return out;
}

/** Loads `source` as the module at `file` (its own requires resolve from there), outside jest's registry. */
function loadAs(file: string, source: string): Record<string, unknown> {
  const m = new Module(file) as Module & { _compile(code: string, filename: string): void };
  m.filename = file;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  m._compile(source, file);
  return m.exports as Record<string, unknown>;
}

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
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the rewrite's own text, as the bundle will
  const run = new Function('Intl', `${declaration}\nreturn dateTimeFormatter;`) as (intl: unknown) => {
    format(t: number): string;
  };
  return { formatter: run({ ...Intl, DateTimeFormat: CountingFormat }), built: () => built };
}

describe('LAZY_REWRITES', () => {
  const copies = LAZY_REWRITES.flatMap((r) => installedCopies(r.file).map((f) => [path.relative(ROOT, f), r] as const));

  it('finds every package it rewrites installed', () => {
    for (const r of LAZY_REWRITES) expect([r.file, installedCopies(r.file).length > 0]).toEqual([r.file, true]);
  });

  it.each(copies)('%s: each text is there once', (file, r) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const e of r.edits) expect([e.from, text.split(e.from).length]).toEqual([e.from, 2]);
  });

  it('stops when a text is not there once, naming the file', () => {
    expect(() => applyEdits('a a', [{ from: 'a', to: 'b' }], 'x/index.js')).toThrow(
      'x/index.js: the text to make lazy is not there once',
    );
    expect(() => applyEdits('c', [{ from: 'a', to: 'b' }], 'x/index.js')).toThrow('x/index.js');
    expect(applyEdits('a $& c', [{ from: 'a', to: '$&$&' }], 'x/index.js')).toBe('$&$& $& c');
  });

  it.each(['@nestjs/common/services/console-logger.service.js', '@nestjs/common/services/logger.service.js'])(
    '%s builds its date formatter on first use, and it formats as before',
    (file) => {
      const [edit] = editsOf(file);
      const text = fs.readFileSync(require.resolve(file), 'utf8');
      const from = text.indexOf(edit.from);
      const declaration = text.slice(from, text.indexOf('});', from) + 3);
      const before = declare(declaration);
      expect(before.built()).toBe(1);
      const after = declare(applyEdits(declaration, [edit], file));
      expect(after.built()).toBe(0);
      const t = Date.UTC(2026, 10, 28, 13, 5, 9);
      expect(after.formatter.format(t)).toBe(before.formatter.format(t));
      after.formatter.format(t + 1000);
      expect(after.built()).toBe(1);
    },
  );

  it.each(installedCopies('mime-types/index.js').map((f) => [path.relative(ROOT, f)]))(
    '%s fills its maps on first use, the same maps and answers as before',
    (file) => {
      const full = path.join(ROOT, file);
      const text = fs.readFileSync(full, 'utf8');
      const before = loadAs(full, text);
      const after = loadAs(full, applyEdits(text, editsOf('mime-types/index.js'), file));
      // Not filled at load: the maps are getters, and the conflicts list is still empty.
      expect(typeof Object.getOwnPropertyDescriptor(after, 'types')?.get).toBe('function');
      expect(after._extensionConflicts ?? []).toEqual([]);
      type Mime = {
        lookup(p: string): string | false;
        contentType(t: string): string | false;
        extension(t: string): string | false;
        charset(t: string): string | false;
      };
      const [b, a] = [before as unknown as Mime, after as unknown as Mime];
      for (const p of [
        'x.json',
        'page.html',
        'logo.svg',
        'font.woff2',
        'a.js',
        'photo.JPG',
        'nothing',
        'x.unknownext',
        '',
      ])
        expect([p, a.lookup(p)]).toEqual([p, b.lookup(p)]);
      for (const t of ['html', 'json', 'text/plain', 'image/png', 'nope/nope'])
        expect([t, a.contentType(t)]).toEqual([t, b.contentType(t)]);
      for (const t of ['text/html', 'application/json', 'image/svg+xml', 'x/y'])
        expect([t, a.extension(t)]).toEqual([t, b.extension(t)]);
      expect(after.types).toEqual(before.types);
      expect(after.extensions).toEqual(before.extensions);
      expect(after.types).toBe(after.types);
      expect(Object.keys(after)).toEqual(expect.arrayContaining(['types', 'extensions', 'lookup', 'contentType']));
    },
  );
});
