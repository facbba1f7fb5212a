/**
 * Content-hashed names for the dashboard's own files. A page names each file as
 * `/dashboard/assets/<name>?v=<hash>`, cached for a year; a module's relative imports
 * (`from './api.js'`) are rewritten to carry the imported file's hash too, so a change to any
 * shared module gives every module that imports it (and so every page's entry) a new hash, and
 * nothing stale is ever served from a cache. Pure.
 */

export interface LinkedFile {
  /** The bytes served (a module with its imports rewritten). */
  data: Buffer;
  /** The content hash in `?v=`. */
  v: string;
}

/** Relative imports of a module: static (`from './x.js'`, `import './x.js'`) and dynamic (`import('./x.js')`). */
const IMPORT = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])\.\/([a-z0-9][a-z0-9._-]*\.js)\2/gi;

export function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[3]);
}

/** Imports of the sign-in pages' modules, which the dashboard shares by absolute URL (`/auth/assets/common.js`). */
const SHARED_IMPORT = /\bfrom\s*(['"])(\/auth\/assets\/[a-z0-9][a-z0-9._-]*\.js)\1/gi;

export function sharedImportsOf(text: string): string[] {
  return [...text.matchAll(SHARED_IMPORT)].map((m) => m[2]);
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
    const text = raw.toString('utf8').replace(IMPORT, (_whole, head: string, q: string, dep: string) => {
      if (!files.has(dep)) throw new Error(`dashboard module ${name} imports ${dep}, which is missing`);
      return `${head}${q}./${dep}?v=${link(dep).v}${q}`;
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
