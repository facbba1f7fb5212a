/** Content types of the files we ship under public/. */
const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.ico': 'image/x-icon',
};

export function contentTypeFor(file: string): string | null {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? null : (TYPES[file.slice(dot).toLowerCase()] ?? null);
}

/** A file name safe to look up under a public/ folder: no separators, no dot-files. */
export function isSafeAssetName(name: string): boolean {
  return /^[a-z0-9][a-z0-9._-]{0,100}$/i.test(name) && !name.includes('..');
}
