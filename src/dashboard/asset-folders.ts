/**
 * A page folder's shipped files (public/dashboard/, public/auth/) with the shared ones
 * (public/shared/), read through the one resource helper (so from the single binary too) and
 * linked (asset-links.ts): what /dashboard/assets/ and /auth/assets/ serve.
 */
import { listResources, readResource } from '../common/resources/resources';
import { contentTypeFor } from '../common/resources/static-files';
import { LinkedFile, linkFiles, SHARED_FOLDER, withShared } from './asset-links';

/** The files directly in `public/<folder>/` that we serve (a known content type), by name. */
function readFolder(folder: string): Map<string, Buffer> {
  const prefix = `public/${folder}/`;
  const out = new Map<string, Buffer>();
  for (const key of listResources(prefix)) {
    const name = key.slice(prefix.length);
    if (!name.includes('/') && contentTypeFor(name)) out.set(name, readResource(key));
  }
  return out;
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
