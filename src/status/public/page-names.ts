/**
 * The `{name}` of a service's page (/status/{name}): made from its public name only, never from
 * the monitor's id, slug or target (a slug may hold a host name). Letters of any script and digits
 * are kept, lower case, everything else becomes one hyphen; the same name twice gets -2, -3 in
 * page order; names of the page's own routes are never given out. Pure.
 */
export const NAME_MAX = 60;
/** Paths under /status/ that are routes of their own. */
const RESERVED = new Set(['history', 'logo', 'fonts']);

/** Names seen lately: pages are built often and names rarely change. */
const seen = new Map<string, string>();

export function pageName(publicName: string): string {
  let name = seen.get(publicName);
  if (name === undefined) {
    name = makePageName(publicName);
    if (seen.size > 10_000) seen.clear();
    seen.set(publicName, name);
  }
  return name;
}

function makePageName(publicName: string): string {
  const base = publicName
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = [...base].slice(0, NAME_MAX).join('').replace(/-+$/g, '');
  if (cut === '') return 'service';
  return RESERVED.has(cut) ? `${cut}-service` : cut;
}

/** Page names for services in page order, each unique. */
export function assignPageNames(publicNames: string[]): string[] {
  const taken = new Set<string>();
  return publicNames.map((n) => {
    const base = pageName(n);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
    taken.add(name);
    return name;
  });
}

export function pagePath(name: string): string {
  return `/status/${encodeURIComponent(name)}`;
}
