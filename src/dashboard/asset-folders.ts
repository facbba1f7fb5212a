/**
 * A page folder's shipped files (public/dashboard/, public/auth/) with the shared ones
 * (public/shared/), read through the one resource helper (so from the single binary too) and
 * linked (asset-links.ts): what /dashboard/assets/ and /auth/assets/ serve.
 */
import { listResources, readResource } from '../common/resources/resources';
import { contentTypeFor, isSafeAssetName } from '../common/resources/static-files';
import { LinkedFile, linkFiles, SHARED_FOLDER, withShared } from './asset-links';

/** A served name: a file of the folder, or of one folder in it (`pages/overview.js`). */
const SERVED_NAME = /^(?:[a-z0-9][a-z0-9-]*\/)?[^/]+$/;

/** The files of `public/<folder>/` that we serve (a known content type), by their path in it. */
function readFolder(folder: string): Map<string, Buffer> {
  const prefix = `public/${folder}/`;
  const out = new Map<string, Buffer>();
  for (const key of listResources(prefix)) {
    const name = key.slice(prefix.length);
    if (!contentTypeFor(name)) continue;
    // A deeper file would never be served (the routes take one folder): say so rather than drop it.
    if (!SERVED_NAME.test(name)) throw new Error(`${key}: page files are at most one folder deep`);
    out.set(name, readResource(key));
  }
  return out;
}

/** The name a request for `/…/assets/<dir>/<file>` or `/…/assets/<file>` asks for, or null when unsafe. */
export function requestedName(dir: string | undefined, file: string): string | null {
  if (!isSafeAssetName(file) || (dir !== undefined && !/^[a-z0-9][a-z0-9-]{0,40}$/.test(dir))) return null;
  return dir === undefined ? file : `${dir}/${file}`;
}

export interface PageFiles {
  /** Every file as read, by name: the page folder's and the shared ones. */
  raw: Map<string, Buffer>;
  linked: Map<string, LinkedFile>;
}

/** `public/<folder>/` and `public/shared/` as one linked set, named by `hash`. */
export function pageFiles(folder: string, hash: (data: Buffer) => string): PageFiles {
  const raw = withShared(readFolder(folder), readFolder(SHARED_FOLDER));
  return { raw, linked: linkFiles(raw, hash) };
}
