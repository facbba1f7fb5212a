/**
 * What a comment or a doc cites: repository paths (`src/engine/state-machine.ts`, `docs/storage.md`,
 * `test/faults/`, or a test named without its extension), root files named alone in capitals
 * (`README.md`), and the team's shorthand for its shared notes (the capitalised names followed by
 * a colon), which live outside the repository. Pure: test/doc-links.spec.ts walks the tree and
 * asks the file system.
 */

/** The top-level folders whose paths a citation may name. */
export const CITED_ROOTS = [
  'src',
  'docs',
  'test',
  'bench',
  'scripts',
  'packaging',
  'public',
  'views',
  'migrations',
] as const;

export type Citation =
  | { line: number; kind: 'path'; path: string }
  | { line: number; kind: 'root-file'; name: string }
  | { line: number; kind: 'outside'; name: string };

/**
 * A repository path: one of CITED_ROOTS, a slash, then path characters. Not after a slash, a dot
 * or a word character, which leaves out URLs and routes (`/docs/api`), relative imports
 * (`../src/x`) and longer names (`mydocs/`).
 */
const PATH = new RegExp(`(?<![\\w./@$-])(?:${CITED_ROOTS.join('|')})/[\\w.@*{}$<>-]*(?:/[\\w.@*{}$<>-]*)*`, 'g');
/** A root file by its conventional capitalised name. Lower-case names are docs pages, linked. */
const ROOT_FILE = /(?<![\w./@$-])[A-Z][A-Z0-9_]*\.md\b/g;
/** The team's shorthand for its shared notes, which are not in the repository. */
const OUTSIDE = /\b(?:ARCHITECTURE|STYLE)\b(?!\.md)/g;

/** Globs and templates (`src/**\/*.ts`, `docs/${id}.md`, `test/<name>`) name no one file. */
const PATTERN_CHARS = /[*{}$<>]/;

export function citations(text: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((content, i) => {
    const line = i + 1;
    for (const m of content.matchAll(PATH)) {
      if (PATTERN_CHARS.test(m[0])) continue;
      // A sentence's full stop is not part of the path.
      found.push({ line, kind: 'path', path: m[0].replace(/\.+$/, '') });
    }
    for (const m of content.matchAll(ROOT_FILE)) found.push({ line, kind: 'root-file', name: m[0] });
    for (const m of content.matchAll(OUTSIDE)) found.push({ line, kind: 'outside', name: m[0] });
  });
  return found;
}

/**
 * The comments of a TypeScript or JavaScript source, each on its own line number, the code
 * blanked: a path in code is an import or a resource key, which the compiler and the tests check.
 * Line by line: `//` and `/* ... *\/` outside quotes; a quote inside a regular expression can hide
 * a comment after it on that line (a citation missed, never one invented).
 */
export function commentsOf(source: string): string {
  let inBlock = false;
  return source
    .split('\n')
    .map((line) => {
      let out = '';
      let quote: string | null = null;
      for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (inBlock) {
          if (c === '*' && line[i + 1] === '/') {
            inBlock = false;
            i++;
          } else out += c;
          continue;
        }
        if (quote) {
          if (c === '\\') i++;
          else if (c === quote) quote = null;
          continue;
        }
        if (c === "'" || c === '"' || c === '`') quote = c;
        else if (c === '/' && line[i + 1] === '/') return out + line.slice(i + 2);
        else if (c === '/' && line[i + 1] === '*') {
          inBlock = true;
          i++;
        }
      }
      return out;
    })
    .join('\n');
}

/** The text of a Markdown document without its fenced blocks (profiles and logs printed as they were). */
export function proseOf(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}
