/** Which monitors the overview lists and in what order (public/dashboard/overview/overview-filters.js). */
type M = {
  id: number;
  name: string;
  slug?: string;
  target?: string;
  group?: string | null;
  tags?: string[];
  kind?: string;
  sort?: number;
  state: { status: string; latency_ms?: number | null };
  stats?: { uptime_24h: number | null };
};
type Filters = { q: string; status: string; group: string; tag: string; kind: string; sort: string };
type OverviewFilters = {
  matches(m: M, f: Filters): boolean;
  shownMonitors(all: Iterable<M>, f: Filters): M[];
  groupsOf(shown: M[]): [string, M[]][];
  isFiltered(f: Filters): boolean;
  readQuery(search: string, f: Filters): Filters;
  queryOf(f: Filters): string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a page's ES module, compiled to CommonJS by ts-jest
const filters = require('../../public/dashboard/overview/overview-filters.js') as OverviewFilters;
const { groupsOf, isFiltered, matches, queryOf, readQuery, shownMonitors } = filters;

const none = (): Filters => ({ q: '', status: '', group: '', tag: '', kind: '', sort: 'order' });
const mon = (o: Partial<M> & { name: string }): M => ({ id: 1, kind: 'http', state: { status: 'up' }, ...o });

describe('matches', () => {
  const nas = mon({
    name: 'NAS',
    slug: 'nas',
    target: 'https://svc-4.home.lan/',
    group: 'Network',
    tags: ['home'],
    kind: 'http',
    state: { status: 'down' },
  });
  it.each<[string, Partial<Filters>, boolean]>([
    ['no filter', {}, true],
    ['its status', { status: 'down' }, true],
    ['another status', { status: 'up' }, false],
    ['its group', { group: 'Network' }, true],
    ['another group', { group: 'Website' }, false],
    ['its tag', { tag: 'home' }, true],
    ['another tag', { tag: 'work' }, false],
    ['its kind', { kind: 'http' }, true],
    ['another kind', { kind: 'dns' }, false],
    ['its name in any case', { q: 'nA' }, true],
    ['its target', { q: 'home.lan' }, true],
    ['words it does not have', { q: 'router' }, false],
    ['all of them at once', { status: 'down', group: 'Network', tag: 'home', kind: 'http', q: 'nas' }, true],
  ])('a down http monitor passes %s: %p', (_what, f, passes) => {
    expect(matches(nas, { ...none(), ...f })).toBe(passes);
  });

  it('counts a monitor without a state as unknown', () => {
    expect(matches({ id: 1, name: 'x', state: null } as unknown as M, { ...none(), status: 'unknown' })).toBe(true);
  });
});

describe('shownMonitors', () => {
  const list = [
    mon({ id: 1, name: 'job 10', sort: 2, state: { status: 'up', latency_ms: 5 }, stats: { uptime_24h: 100 } }),
    mon({ id: 2, name: 'job 2', sort: 2, state: { status: 'down', latency_ms: null }, stats: { uptime_24h: 90 } }),
    mon({ id: 3, name: 'Alpha', sort: 1, state: { status: 'slow', latency_ms: 900 }, stats: { uptime_24h: null } }),
    mon({ id: 4, name: 'beta', sort: 3, state: { status: 'paused', latency_ms: 20 }, stats: { uptime_24h: 99 } }),
  ];
  it.each([
    // The owner's order, then names with numbers as numbers ("job 2" before "job 10").
    ['order', [3, 2, 1, 4]],
    ['name', [3, 4, 2, 1]],
    ['status', [2, 3, 1, 4]],
    ['latency', [3, 4, 1, 2]],
    // No uptime yet sorts after every figure.
    ['uptime', [2, 4, 1, 3]],
    ['no-such-sort', [3, 2, 1, 4]],
  ])('sorted by %s: %j', (sort, ids) => {
    expect(shownMonitors(list, { ...none(), sort }).map((m) => m.id)).toEqual(ids);
  });
});

describe('groupsOf', () => {
  it('puts groups by name and the monitors without one last, each in the order given', () => {
    const shown = [
      mon({ id: 1, name: 'a', group: 'Website' }),
      mon({ id: 2, name: 'b', group: null }),
      mon({ id: 3, name: 'c', group: 'Network' }),
      mon({ id: 4, name: 'd', group: 'Website' }),
    ];
    expect(groupsOf(shown).map(([g, ms]) => [g, ms.map((m) => m.id)])).toEqual([
      ['Network', [3]],
      ['Website', [1, 4]],
      ['', [2]],
    ]);
  });
});

describe('the filters in the address', () => {
  it.each<[Partial<Filters>, string]>([
    [{}, ''],
    // The owner's order is the default: not written.
    [{ sort: 'order' }, ''],
    [{ sort: 'name' }, '?sort=name'],
    [{ status: 'down', q: 'nas box' }, '?q=nas+box&status=down'],
  ])('%j is kept as "%s" and read back', (f, query) => {
    const filters = { ...none(), ...f };
    expect(queryOf(filters)).toBe(query);
    expect(readQuery(query, none())).toEqual(filters);
  });

  it('ignores what is not a filter', () => {
    expect(readQuery('?status=up&evil=1', none())).toEqual({ ...none(), status: 'up' });
  });

  it.each<[Partial<Filters>, boolean]>([
    [{}, false],
    [{ sort: 'name' }, false],
    [{ tag: 'home' }, true],
  ])('%j filters the list: %p', (f, filtered) => {
    expect(isFiltered({ ...none(), ...f })).toBe(filtered);
  });
});
