/**
 * Comments and docs cite files that exist: a repository path (`src/...`, `docs/...`, `test/...`
 * and the other top-level folders; a test or module may be named without its extension), a root
 * file named alone (`README.md`), and never the team's shared notes, which are not in the
 * repository (cite docs/architecture.md or docs/contributing.md, or copy the rule). A move or a
 * split that leaves a citation behind fails here with the file, the line and the path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Citation, citations, commentsOf, proseOf } from './support/doc-links';

const ROOT = path.resolve(__dirname, '..');

/** Where comments and docs live; built output, dependencies and binary files are not read. */
const FOLDERS = [
  'src',
  'test',
  'bench',
  'docs',
  'scripts',
  'packaging',
  'migrations',
  'public',
  'views',
  'systemd',
  '.ci',
];
const ROOT_FILES = [
  'README.md',
  'package.json',
  'jest.config.js',
  'eslint.config.mjs',
  'prettier.config.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
];
const BINARY = /\.(png|woff2|ico|jpg|gif|node)$/;

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(full);
    return BINARY.test(e.name) ? [] : [full];
  });
}

/** Folders the tests and the bench create (listed in .gitignore): a citation of them is fine. */
const made = fs
  .readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim().replace(/^\//, ''))
  .filter((l) => l.includes('/') && !l.startsWith('#'));

/** `test/history/fold-crash` names test/history/fold-crash.e2e-spec.ts. */
const ENDINGS = ['', '.ts', '.js', '.spec.ts', '.e2e-spec.ts'];

function problem(file: string, c: Citation): string | null {
  const at = `${path.relative(ROOT, file)}:${c.line}`;
  if (c.kind === 'outside') return `${at}: ${c.name} (the team's notes are not in the repository)`;
  if (c.kind === 'root-file') return fs.existsSync(path.join(ROOT, c.name)) ? null : `${at}: ${c.name}`;
  if (made.some((m) => `${c.path}/`.startsWith(m))) return null;
  return ENDINGS.some((e) => fs.existsSync(path.join(ROOT, c.path + e))) ? null : `${at}: ${c.path}`;
}

/** What of a file may cite: a source's comments, a Markdown document's prose, any other file whole. */
function citingText(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  if (/\.(ts|js|mjs)$/.test(file)) return commentsOf(text);
  if (file.endsWith('.md')) return proseOf(text);
  return text;
}

describe('citations', () => {
  it.each<[string, string, Partial<Citation>[]]>([
    ['a path in a comment', '// the rule is in docs/storage.md.', [{ kind: 'path', path: 'docs/storage.md' }]],
    ['a folder', 'the drivers in test/faults/ run', [{ kind: 'path', path: 'test/faults/' }]],
    [
      'a path in backquotes, then a colon',
      '`src/engine/journal/journal.ts`: the hook',
      [{ kind: 'path', path: 'src/engine/journal/journal.ts' }],
    ],
    ['a route, not a path', "GET /docs/api and '/docs/images/x.png'", []],
    ['a relative import, not a citation', "import { x } from '../src/common/time';", []],
    ['a glob', 'specs sit beside the code (src/**/*.spec.ts)', []],
    ['a template', 'served as `docs/${id}.md`', []],
    ['a longer name', 'see mydocs/x and the_src/y', []],
    ['a root file named alone', 'as README.md says', [{ kind: 'root-file', name: 'README.md' }]],
    ['a docs page linked by name (the docs test follows links)', '[stream.md](stream.md)', []],
    [
      "the team's notes",
      'the rule (ARCHITECTURE.md "Private targets")',
      [{ kind: 'root-file', name: 'ARCHITECTURE.md' }],
    ],
    [
      "the team's shorthand",
      'ARCHITECTURE: 6 changes; STYLE: pages stay dumb',
      [
        { kind: 'outside', name: 'ARCHITECTURE' },
        { kind: 'outside', name: 'STYLE' },
      ],
    ],
    ['a lower-case word', 'the architecture and the style of the page', []],
  ])('finds %s', (_what, text, expected) => {
    expect(citations(text)).toEqual(expected.map((e) => expect.objectContaining(e)));
  });

  it('numbers lines from 1', () => {
    expect(citations('one\ntwo docs/api.md')).toEqual([{ line: 2, kind: 'path', path: 'docs/api.md' }]);
  });
});

describe('commentsOf', () => {
  it.each<[string, string, string]>([
    ['a line comment', 'const a = 1; // see docs/api.md', ' see docs/api.md'],
    ['a block comment on one line', 'f(/* docs/api.md */ 1);', ' docs/api.md '],
    ['code only', "readResource('docs/layout');", ''],
    ['slashes inside a string', "const u = 'http://x/docs/y'; // z", ' z'],
    ['an escaped quote', "const q = 'it\\'s'; // z", ' z'],
  ])('keeps %s', (_what, source, comments) => {
    expect(commentsOf(source)).toBe(comments);
  });

  it('follows a block comment over lines and keeps the line count', () => {
    expect(commentsOf('/**\n * docs/api.md\n */\ncode();')).toBe('*\n * docs/api.md\n \n');
  });
});

describe('proseOf', () => {
  it('leaves out fenced blocks and keeps the line count', () => {
    expect(proseOf('a\n```\nsrc/old/x.ts:12\n```\nb')).toBe('a\n\n\n\nb');
  });
});

describe('the tree', () => {
  it('cites only files that exist in the repository', () => {
    const files = [...FOLDERS.flatMap((f) => walk(path.join(ROOT, f))), ...ROOT_FILES.map((f) => path.join(ROOT, f))];
    expect(files.length).toBeGreaterThan(500);
    const problems = files.flatMap((file) => citations(citingText(file)).flatMap((c) => problem(file, c) ?? []));
    expect(problems).toEqual([]);
  });
});
