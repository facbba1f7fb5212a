import {
  DependencyItem,
  DependencyRef,
  findCycle,
  parseDependencyRefs,
  planDependencies,
  StoredGraph,
  writeOrder,
} from './depends-on-plan';

/** Stored monitors 1..n by slug, with their parents by slug. */
function graph(edges: Record<string, string[]>): StoredGraph {
  const slugs = Object.keys(edges);
  const id = (s: string) => slugs.indexOf(s) + 1;
  return {
    slugOf: new Map(slugs.map((s) => [id(s), s])),
    parentsOf: new Map(slugs.map((s) => [id(s), edges[s].map(id)])),
  };
}
const stored = graph({ router: [], nas: ['router'], plex: ['nas'], dns: [] });
const item = (slug: string, id: number | null, refs: DependencyRef[], key = 0): DependencyItem => ({
  key,
  slug,
  id,
  refs,
});
const messages = (items: DependencyItem[]) =>
  Object.fromEntries(
    [...planDependencies(stored, items).errors].map(([k, e]) => [k, e.map((x) => `${x.field}: ${x.message}`)]),
  );

describe('parseDependencyRefs', () => {
  it.each([
    ['ids and slugs', [1, 'slug:nas'], 'api', [{ id: 1 }, { slug: 'nas' }], []],
    ['nothing', [], 'api', [], []],
    ['a bare slug in the API', ['nas'], 'api', [], ['depends_on[0]: must be a monitor id or "slug:<slug>"']],
    [
      'zero, a fraction, a bad slug',
      [0, 1.5, 'slug:Bad'],
      'api',
      [],
      ['depends_on[0]', 'depends_on[1]', 'depends_on[2]'],
    ],
    ['bare slugs in an import', ['nas', 'slug:router'], 'import', [{ slug: 'nas' }, { slug: 'router' }], []],
    [
      'an id in an import',
      [3],
      'import',
      [],
      ['depends_on[0]: must be the slug of a monitor (an import names monitors by slug)'],
    ],
    ['11 entries', Array.from({ length: 11 }, (_, i) => i + 1), 'api', [], ['depends_on: at most 10 monitors']],
    ['not an array', 'nas', 'api', [], ['depends_on: must be an array']],
  ] as const)('%s', (_name, value, form, refs, errors) => {
    const out = parseDependencyRefs(value, form);
    expect(out.refs).toEqual(refs);
    expect(
      out.errors.map((e) => `${e.field}: ${e.message}`).map((t, i) => (errors[i]?.includes(':') ? t : t.split(':')[0])),
    ).toEqual(errors);
  });
});

describe('planDependencies', () => {
  it.each<[string, DependencyItem[], Record<number, string[]>]>([
    ['a new monitor on stored ones, by id and by slug', [item('web', null, [{ id: 1 }, { slug: 'dns' }])], {}],
    ['an unknown id', [item('web', null, [{ id: 99 }])], { 0: ['depends_on[0]: there is no monitor 99'] }],
    [
      'an unknown slug',
      [item('web', null, [{ slug: 'nope' }])],
      { 0: ['depends_on[0]: there is no monitor with the slug "nope"'] },
    ],
    ['itself by id', [item('nas', 2, [{ id: 2 }])], { 0: ['depends_on[0]: a monitor cannot depend on itself'] }],
    [
      'itself by slug, while new',
      [item('web', null, [{ slug: 'web' }])],
      { 0: ['depends_on[0]: a monitor cannot depend on itself'] },
    ],
    [
      'the same monitor twice',
      [item('web', null, [{ id: 2 }, { slug: 'nas' }])],
      { 0: ['depends_on[1]: names a monitor already named in depends_on'] },
    ],
    // router → plex would close router ← nas ← plex: a cycle through three monitors.
    [
      'a cycle through three',
      [item('router', 1, [{ slug: 'plex' }])],
      { 0: ['depends_on: would make a cycle: router → plex → nas → router'] },
    ],
    [
      'two monitors of one request that name each other',
      [item('a', null, [{ slug: 'b' }], 0), item('b', null, [{ slug: 'a' }], 1)],
      {
        0: ['depends_on: would make a cycle: a → b → a'],
        1: ['depends_on: would make a cycle: b → a → b'],
      },
    ],
    [
      'a chain new in one request, in any order',
      [item('c', null, [{ slug: 'b' }], 0), item('b', null, [{ slug: 'a' }], 1), item('a', null, [], 2)],
      {},
    ],
    [
      'a dependant of a failing new monitor fails too',
      [item('a', null, [{ id: 99 }], 0), item('b', null, [{ slug: 'a' }], 1)],
      {
        0: ['depends_on[0]: there is no monitor 99'],
        1: ['depends_on[0]: there is no monitor with the slug "a"'],
      },
    ],
    [
      'a stored monitor renamed: its old slug names nothing',
      [item('storage', 2, [], 0), item('web', null, [{ slug: 'nas' }], 1)],
      {
        1: ['depends_on[0]: there is no monitor with the slug "nas"'],
      },
    ],
  ])('%s', (_name, items, errors) => {
    expect(messages(items)).toEqual(errors);
  });

  it('resolves stored parents to ids and new ones to their slugs', () => {
    const plan = planDependencies(stored, [
      item('web', null, [{ slug: 'plex' }, { slug: 'db' }], 0),
      item('db', null, [], 1),
    ]);
    expect(plan.targets.get(0)).toEqual([{ id: 3 }, { newSlug: 'db' }]);
  });
});

describe('findCycle', () => {
  const edges: Record<string, string[]> = { a: ['b'], b: ['c', 'd'], c: [], d: ['a'], e: ['e'] };
  it.each([
    ['a', ['a', 'b', 'd', 'a']],
    ['c', null],
    ['e', ['e', 'e']],
  ])('from %s', (start, cycle) => {
    expect(findCycle(start, (n) => edges[n] ?? [])).toEqual(cycle);
  });
});

describe('writeOrder', () => {
  it('puts each new parent before its dependants', () => {
    const items = [
      { slug: 'c', t: [{ newSlug: 'b' }] },
      { slug: 'b', t: [{ newSlug: 'a' }, { id: 4 }] },
      { slug: 'a', t: [] },
      { slug: 'x', t: [] },
    ];
    expect(writeOrder(items, (i) => i.t).map((i) => i.slug)).toEqual(['a', 'b', 'c', 'x']);
  });
});
