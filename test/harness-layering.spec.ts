/**
 * test/ and bench/ depend one way (docs/testing.md): both import harness/, never each other, and
 * harness/ imports neither. The service's own code imports none of the three. A new import
 * against this fails here with the file and what it reached for.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** What the files of each top-level folder must not import (their specs included, except in src/). */
const MUST_NOT_IMPORT: readonly [folder: string, forbidden: readonly string[]][] = [
  ['test', ['bench']],
  ['bench', ['test']],
  ['harness', ['test', 'bench']],
  ['src', ['test', 'bench', 'harness']],
];

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'artifacts' || e.name === 'results' ? [] : tsFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * src/'s specs may borrow test data (test/support/bad-text.ts and the like): a spec is not part of
 * the service. Everything else in a folder counts, specs included.
 */
function judged(folder: string, file: string): boolean {
  return !(folder === 'src' && file.endsWith('.spec.ts'));
}

/** The top-level folder of every file a file imports by a relative path (import, export, import(), require). */
function importedFolders(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import|require)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((s) => path.relative(ROOT, path.resolve(path.dirname(file), s)).split(path.sep)[0]);
}

describe('test/, bench/ and harness/ layering', () => {
  const edges = MUST_NOT_IMPORT.flatMap(([folder]) =>
    tsFiles(path.join(ROOT, folder))
      .filter((file) => judged(folder, file))
      .flatMap((file) => importedFolders(file).map((to) => ({ folder, file: path.relative(ROOT, file), to }))),
  );

  it.each(MUST_NOT_IMPORT)('%s/ imports nothing from %j', (folder, forbidden) => {
    const wrong = edges
      .filter((e) => e.folder === folder && forbidden.includes(e.to))
      .map((e) => `${e.file} -> ${e.to}/`);
    expect([...new Set(wrong)].sort()).toEqual([]);
  });

  it.each(['test', 'bench'])('sees the imports it judges (%s/ imports harness/)', (folder) => {
    expect(edges.some((e) => e.folder === folder && e.to === 'harness')).toBe(true);
  });
});
