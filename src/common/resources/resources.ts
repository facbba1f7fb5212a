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
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- absent before Node 20.12: an import would fail the load
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

/** The SEA asset that lists every embedded file (written by packaging/sea-config.js). */
export const RESOURCE_MANIFEST_KEY = 'resources.json';

/**
 * Every shipped file under a folder (e.g. `views/partials/`), sorted: from the build-time manifest
 * inside the single executable, from the folder itself in a source checkout.
 */
export function listResources(folder: string): string[] {
  const prefix = folder.replace(/\\/g, '/').replace(/^\/+/, '').replace(/\/?$/, '/');
  const s = seaModule();
  if (s) {
    const all = JSON.parse(Buffer.from(s.getAsset(RESOURCE_MANIFEST_KEY)).toString('utf8')) as string[];
    return all.filter((k) => k.startsWith(prefix)).sort();
  }
  const out: string[] = [];
  const walk = (rel: string): void => {
    const dir = path.join(projectRoot(), rel);
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(`${rel}${e.name}/`);
      else if (e.isFile()) out.push(`${rel}${e.name}`);
    }
  };
  walk(prefix);
  return out.sort();
}

/** Like readResource, but null when the file does not exist. */
export function tryReadResource(rel: string): Buffer | null {
  try {
    return readResource(rel);
  } catch {
    return null;
  }
}
