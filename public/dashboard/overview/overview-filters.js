// Which monitors the overview's list shows and in what order: the filters (status, group, tag,
// kind, search in name, slug and target), the sorts, the groups, and the filters in the address
// (`?status=down&sort=name`). Pure functions of their arguments.

export const STATUS_RANK = { down: 0, slow: 1, unknown: 2, up: 3, paused: 4 };

/** Whether monitor `m` passes `filters`. */
export function matches(m, filters) {
  const s = (m.state && m.state.status) || 'unknown';
  if (filters.status && s !== filters.status) return false;
  if (filters.group && m.group !== filters.group) return false;
  if (filters.tag && !(m.tags || []).includes(filters.tag)) return false;
  if (filters.kind && m.kind !== filters.kind) return false;
  if (filters.q) {
    const q = filters.q.toLowerCase();
    if (![m.name, m.slug, m.target].some((t) => t && t.toLowerCase().includes(q))) return false;
  }
  return true;
}

// One collator, made at the first sort: localeCompare() is several times slower per call on a
// thousand names. Numbers in names sort as numbers ("job 2" before "job 10").
let collator = null;
const byName = (a, b) => (collator ??= new Intl.Collator(undefined, { numeric: true })).compare(a.name, b.name);
const SORTS = {
  order: (a, b) => (a.sort || 0) - (b.sort || 0) || byName(a, b),
  name: byName,
  status: (a, b) => STATUS_RANK[a.state.status] - STATUS_RANK[b.state.status] || byName(a, b),
  latency: (a, b) => (b.state.latency_ms ?? -1) - (a.state.latency_ms ?? -1) || byName(a, b),
  uptime: (a, b) => (a.stats.uptime_24h ?? 101) - (b.stats.uptime_24h ?? 101) || byName(a, b),
};

/** The monitors that pass `filters`, in its order (the owner's order for an unknown sort). */
export function shownMonitors(all, filters) {
  return [...all].filter((m) => matches(m, filters)).sort(SORTS[filters.sort] || SORTS.order);
}

/** The shown monitors by group name ('' for none), groups by name, the ungrouped last; each keeps the list's order. */
export function groupsOf(shown) {
  const groups = new Map();
  for (const m of shown) {
    const g = m.group || '';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(m);
  }
  const names = [...groups.keys()].sort((a, b) => (a === '') - (b === '') || a.localeCompare(b));
  return names.map((name) => [name, groups.get(name)]);
}

/** Whether any filter but the order is set. */
export function isFiltered(filters) {
  return Object.entries(filters).some(([k, v]) => k !== 'sort' && v);
}

/** The filters named in an address's query (`location.search`) written over `filters`. */
export function readQuery(search, filters) {
  const q = new URLSearchParams(search);
  for (const k of Object.keys(filters)) if (q.has(k)) filters[k] = q.get(k);
  return filters;
}

/** The query that keeps `filters` in the address ('' for none: the owner's order is left out). */
export function queryOf(filters) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v && !(k === 'sort' && v === 'order')) q.set(k, v);
  const s = q.toString();
  return s ? '?' + s : '';
}
