/** Slugs: stable handles derived from names (a-z, 0-9, '-', at most 60), unique with -2, -3, ... */
export const SLUG_MAX = 60;

export function slugify(name: string, fallback = 'monitor'): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
  return s || fallback;
}

/** The first of base, base-2, base-3, ... that `taken` does not hold, cut to fit 60 characters. */
export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, SLUG_MAX - suffix.length).replace(/-+$/g, '')}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}
