/**
 * Content-hashed names for the dashboard's own files. A page names each file as
 * `/dashboard/assets/<name>?v=<hash>`, cached for a year; a module's relative imports
 * (`from './api.js'`) are rewritten to carry the imported file's hash too, so a change to any
 * shared module gives every module that imports it (and so every page's entry) a new hash, and
 * nothing stale is ever served from a cache. Pure.
 *
 * A file's name is its path in its page folder: `pages/overview.js`, `app.css` (one level of
 * folders at most, so the routes stay two fixed patterns). Imports are ordinary relative paths,
 * which editors, jest and the browser all resolve the same way.
 *
 * A page's files come from its own folder and from `public/shared/` (what the sign-in pages and
 * the dashboard both use), served side by side: a shared module keeps its name at the top of the
 * page folder's names, a module imports it by its real path (`../shared/page.js`, or
 * `../../shared/page.js` a folder down), and the link names it where it is served
 * (`./page.js?v=<hash>`, `../page.js?v=<hash>`).
 */
import * as path from 'node:path';

export interface LinkedFile {
  /** The bytes served (a module with its imports rewritten). */
  data: Buffer;
  /** The content hash in `?v=`. */
  v: string;
}

/** The folder every page's modules may import from, besides their own (`../shared/x.js`). */
export const SHARED_FOLDER = 'shared';

/** Relative imports of a module: static (`from './x.js'`, `import './x.js'`) and dynamic (`import('./x.js')`). */
const IMPORT = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.\.?\/[a-z0-9._/-]*\.js)\2/gi;

/**
 * The name a relative import `spec` of module `from` names, or null when it leaves the page
 * folder other than for a shared module (such an import is not ours to link).
 */
export function resolveImport(from: string, spec: string): string | null {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const shared = `../${SHARED_FOLDER}/`;
  if (joined.startsWith(shared)) return joined.slice(shared.length);
  return joined.startsWith('../') ? null : joined;
}

/** How module `from` names file `to` (both names), relative as the browser resolves it. */
export function relativeImport(from: string, to: string): string {
  const rel = path.posix.relative(path.posix.dirname(from), to);
  return rel.startsWith('../') ? rel : `./${rel}`;
}

/** The names module `from` imports. */
export function importsOf(text: string, from: string): string[] {
  return [...text.matchAll(IMPORT)].flatMap((m) => resolveImport(from, m[3]) ?? []);
}

/**
 * One flat set of a page folder's files and the shared ones (name -> bytes); throws when a name
 * is in both, which would make an import ambiguous.
 */
export function withShared(own: ReadonlyMap<string, Buffer>, shared: ReadonlyMap<string, Buffer>): Map<string, Buffer> {
  const out = new Map(own);
  for (const [name, data] of shared) {
    if (out.has(name))
      throw new Error(`${name} is both a page file and a shared one (public/${SHARED_FOLDER}/): rename one`);
    out.set(name, data);
  }
  return out;
}

/**
 * Hashes every file; modules (`.js`) after the modules they import, with those imports rewritten
 * to `./x.js?v=<hash>`. Throws on an import of a file that is not there, or an import cycle.
 */
export function linkFiles(files: ReadonlyMap<string, Buffer>, hash: (data: Buffer) => string): Map<string, LinkedFile> {
  const out = new Map<string, LinkedFile>();
  const visiting = new Set<string>();
  const link = (name: string): LinkedFile => {
    const done = out.get(name);
    if (done) return done;
    const raw = files.get(name);
    if (!raw) throw new Error(`dashboard asset ${name} is missing`);
    if (!name.endsWith('.js')) {
      const file = { data: raw, v: hash(raw) };
      out.set(name, file);
      return file;
    }
    if (visiting.has(name)) throw new Error(`dashboard modules import each other in a cycle through ${name}`);
    visiting.add(name);
    const text = raw.toString('utf8').replace(IMPORT, (whole, head: string, q: string, spec: string) => {
      const dep = resolveImport(name, spec);
      if (dep === null) return whole;
      if (!files.has(dep)) throw new Error(`dashboard module ${name} imports ${dep}, which is missing`);
      return `${head}${q}${relativeImport(name, dep)}?v=${link(dep).v}${q}`;
    });
    visiting.delete(name);
    const data = Buffer.from(text, 'utf8');
    const file = { data, v: hash(data) };
    out.set(name, file);
    return file;
  };
  for (const name of [...files.keys()].sort()) link(name);
  return out;
}
