/** Stable comparison of configurations (monitors, channels, imports): "unchanged" means the same canonical JSON. Pure. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Names of the fields that differ, dotted for kind settings (e.g. `interval_s`, `http.url`); secrets by name only. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const out: string[] = [];
  for (const k of [...keys].sort()) {
    const a = before[k];
    const b = after[k];
    if (canonicalJson(a) === canonicalJson(b)) continue;
    const isObj = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
    if (prefix === '' && isObj(a) && isObj(b))
      out.push(...changedFields(a as Record<string, unknown>, b as Record<string, unknown>, `${k}.`));
    else out.push(`${prefix}${k}`);
  }
  return out;
}
