/**
 * The one way to find files that ship with the service (views/, public/): from a source checkout
 * they are read from the project root; inside the single executable they are SEA assets keyed by
 * the same relative path (packaging/ embeds them). Callers never build filesystem paths themselves.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

type SeaModule = { isSea(): boolean; getAsset(key: string): ArrayBuffer };

let sea: SeaModule | null | undefined;
function seaModule(): SeaModule | null {
  if (sea === undefined) {
    try {
      // node:sea exists from Node 20.12; outside a SEA isSea() is false.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require('node:sea') as SeaModule;
      sea = mod.isSea() ? mod : null;
    } catch {
      sea = null;
    }
  }
  return sea;
}

let root: string | undefined;
/** The project root: the nearest folder upwards that holds both package.json and views/. */
export function projectRoot(): string {
  if (root) return root;
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'views'))) {
      root = dir;
      return dir;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the project root (package.json and views/)');
    dir = up;
  }
}

/** True when running as the single executable. */
export function isSingleExecutable(): boolean {
  return seaModule() !== null;
}

/** Reads a shipped file by its path relative to the project root, e.g. `views/dashboard/setup.hbs`. */
export function readResource(rel: string): Buffer {
  const key = rel.replace(/\\/g, '/').replace(/^\/+/, '');
  if (key.split('/').includes('..')) throw new Error(`resource path escapes the root: ${rel}`);
  const s = seaModule();
  if (s) return Buffer.from(s.getAsset(key));
  return fs.readFileSync(path.join(projectRoot(), key));
}

/** Like readResource, but null when the file does not exist. */
export function tryReadResource(rel: string): Buffer | null {
  try {
    return readResource(rel);
  } catch {
    return null;
  }
}
