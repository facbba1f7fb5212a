import { Cause, causeOf, NodeView, releasedOrder, releaseOf } from './dependency-rules';

/**
 * A tiny world of monitors stepped by the rules, as the engine steps them: `down X` confirms X
 * Down (joining a cause, or opening an incident of its own), `up X` recovers it (an incident it
 * owned ends and releases what it affected), `pause X` pauses it. Each row says what each monitor
 * is after the steps: `own` (an incident of its own), `in:<cause>` (affected), or `-`.
 */
type Node = { parents: number[]; status: 'up' | 'down' | 'paused'; incidentId: number | null; cause: Cause | null };

function world(parents: Record<string, string[]>) {
  const names = Object.keys(parents);
  const id = (n: string) => names.indexOf(n) + 1;
  const nodes = new Map<number, Node>(
    names.map((n) => [id(n), { parents: parents[n].map(id), status: 'up', incidentId: null, cause: null }]),
  );
  const view = (i: number): NodeView | undefined => {
    const n = nodes.get(i);
    return n && { parents: n.parents, down: n.status === 'down', incidentId: n.incidentId, cause: n.cause };
  };
  let nextIncident = 1;
  const alerts: string[] = [];
  const nameOf = (i: number) => names[i - 1];
  const step = (s: string) => {
    const [verb, who] = s.split(' ');
    const i = id(who);
    const n = nodes.get(i)!;
    if (verb === 'down') {
      n.status = 'down';
      const cause = causeOf(i, view);
      if (cause) {
        n.cause = cause;
        alerts.push(`${nameOf(cause.monitorId)}+${who}`);
      } else {
        n.incidentId = nextIncident++;
        alerts.push(`down ${who}`);
      }
    } else {
      n.status = verb === 'up' ? 'up' : 'paused';
      n.cause = null;
      const ended = n.incidentId;
      n.incidentId = null;
      if (ended !== null && verb === 'up') alerts.push(`up ${who}`);
      if (ended === null) return;
      for (const [ci, c] of nodes) {
        if (c.cause?.incidentId !== ended) continue;
        c.cause = null;
        if (releaseOf({ down: c.status === 'down' }) === 'own-incident') {
          c.incidentId = nextIncident++;
          alerts.push(`down ${nameOf(ci)}`);
        }
      }
    }
  };
  const show = () =>
    names
      .map((n) => {
        const x = nodes.get(id(n))!;
        return `${n}:${x.incidentId !== null ? 'own' : x.cause ? `in:${nameOf(x.cause.monitorId)}` : '-'}`;
      })
      .join(' ');
  return { step, show, alerts };
}

describe('dependency rules, stepped', () => {
  it.each<[string, Record<string, string[]>, string[], string, string[]]>([
    [
      'child down first, then the parent: two incidents',
      { r: [], c: ['r'] },
      ['down c', 'down r'],
      'r:own c:own',
      ['down c', 'down r'],
    ],
    [
      'parent first, then the child: the child joins',
      { r: [], c: ['r'] },
      ['down r', 'down c'],
      'r:own c:in:r',
      ['down r', 'r+c'],
    ],
    [
      'a chain a ← b ← c: one incident, the root’s',
      { a: [], b: ['a'], c: ['b'] },
      ['down a', 'down b', 'down c'],
      'a:own b:in:a c:in:a',
      ['down a', 'a+b', 'a+c'],
    ],
    [
      'a chain whose middle is up: c reaches a through it',
      { a: [], b: ['a'], c: ['b'] },
      ['down a', 'down c'],
      'a:own b:- c:in:a',
      ['down a', 'a+c'],
    ],
    [
      'two parents, one down: the child joins it',
      { p: [], q: [], c: ['p', 'q'] },
      ['down q', 'down c'],
      'p:- q:own c:in:q',
      ['down q', 'q+c'],
    ],
    [
      'two parents, both down: the first listed that is down decides',
      { p: [], q: [], c: ['p', 'q'] },
      ['down q', 'down p', 'down c'],
      'p:own q:own c:in:p',
      ['down q', 'down p', 'p+c'],
    ],
    [
      'the parent recovers while the child still fails: the child gets its own at once',
      { r: [], c: ['r'] },
      ['down r', 'down c', 'up r'],
      'r:- c:own',
      ['down r', 'r+c', 'up r', 'down c'],
    ],
    [
      'the child recovers first: it leaves quietly',
      { r: [], c: ['r'] },
      ['down r', 'down c', 'up c', 'up r'],
      'r:- c:-',
      ['down r', 'r+c', 'up r'],
    ],
    [
      'a paused parent is not down: the child alerts for itself',
      { r: [], c: ['r'] },
      ['pause r', 'down c'],
      'r:- c:own',
      ['down c'],
    ],
    [
      'the parent is paused during the outage: the child is released into its own',
      { r: [], c: ['r'] },
      ['down r', 'down c', 'pause r'],
      'r:- c:own',
      ['down r', 'r+c', 'down c'],
    ],
    [
      'in a chain, the root recovers: each still-down dependant gets its own',
      { a: [], b: ['a'], c: ['b'] },
      ['down a', 'down b', 'down c', 'up a'],
      'a:- b:own c:own',
      ['down a', 'a+b', 'a+c', 'up a', 'down b', 'down c'],
    ],
  ])('%s', (_name, parents, steps, after, alerts) => {
    const w = world(parents);
    steps.forEach(w.step);
    expect(w.show()).toBe(after);
    expect(w.alerts).toEqual(alerts);
  });
});

describe('causeOf', () => {
  const view = (nodes: Record<number, NodeView>) => (id: number) => nodes[id];
  const n = (
    parents: number[],
    down = false,
    incidentId: number | null = null,
    cause: Cause | null = null,
  ): NodeView => ({
    parents,
    down,
    incidentId,
    cause,
  });
  it.each<[string, Record<number, NodeView>, Cause | null]>([
    ['no parents', { 1: n([]) }, null],
    ['a parent up', { 1: n([2]), 2: n([]) }, null],
    ['a parent down with its incident', { 1: n([2]), 2: n([], true, 7) }, { monitorId: 2, incidentId: 7 }],
    [
      'a parent down but affected: its cause',
      { 1: n([2]), 2: n([3], true, null, { monitorId: 3, incidentId: 9 }), 3: n([], true, 9) },
      { monitorId: 3, incidentId: 9 },
    ],
    [
      'the nearest down ancestor wins',
      { 1: n([2, 3]), 2: n([4]), 3: n([], true, 5), 4: n([], true, 6) },
      { monitorId: 3, incidentId: 5 },
    ],
    ['a parent the engine does not hold (deleted meanwhile)', { 1: n([2]) }, null],
    ['a stale cycle does not loop', { 1: n([2]), 2: n([1]) }, null],
  ])('%s', (_name, nodes, cause) => {
    expect(causeOf(1, view(nodes))).toEqual(cause);
  });
});

describe('releasedOrder: what a window lets go while Down', () => {
  // Monitors by letter: `parents`, and what each is when the window ends (`down` with its own
  // incident, `held` (Down, let go by this window, no incident), `up`, `paused`).
  type Is = 'down' | 'held' | 'up' | 'paused';
  const world = (monitors: Record<string, [Is, string[]]>) => {
    const names = Object.keys(monitors);
    const id = (n: string) => names.indexOf(n) + 1;
    const view = (i: number): NodeView | undefined => {
      const m = monitors[names[i - 1]];
      if (!m) return undefined;
      const [is, parents] = m;
      return {
        parents: parents.map(id),
        down: is === 'down' || is === 'held',
        incidentId: is === 'down' ? 100 + i : null,
        cause: null,
      };
    };
    const released = names.filter((n) => monitors[n][0] === 'held').map(id);
    const show = (d: ReturnType<typeof releasedOrder>) =>
      d.map(({ id: i, joins }) => `${names[i - 1]}:${joins ? `in:${names[joins.monitorId - 1]}` : 'own'}`).join(' ');
    return { view, released, show };
  };
  it.each<[string, Record<string, [Is, string[]]>, string]>([
    ['the parent is Down with its incident: the child joins it', { p: ['down', []], c: ['held', ['p']] }, 'c:in:p'],
    ['the parent is Up: the child opens its own', { p: ['up', []], c: ['held', ['p']] }, 'c:own'],
    ['the parent is paused (not Down): the child opens its own', { p: ['paused', []], c: ['held', ['p']] }, 'c:own'],
    [
      'the parent was in the same window: it opens first, the child joins it',
      { p: ['held', []], c: ['held', ['p']] },
      'p:own c:in:p',
    ],
    ['listed child first, the parent still decides first', { c: ['held', ['p']], p: ['held', []] }, 'p:own c:in:p'],
    [
      'a chain let go together: one incident, the root’s',
      { c: ['held', ['b']], b: ['held', ['a']], a: ['held', []] },
      'a:own b:in:a c:in:a',
    ],
    [
      'the parent let go joins its own Down parent, and the child follows it there',
      { g: ['down', []], p: ['held', ['g']], c: ['held', ['p']] },
      'p:in:g c:in:g',
    ],
    ['two unrelated monitors: each its own', { a: ['held', []], b: ['held', []] }, 'a:own b:own'],
    [
      'a stale cycle among them is broken in the given order',
      { a: ['held', ['b']], b: ['held', ['a']] },
      'a:own b:in:a',
    ],
  ])('%s', (_name, monitors, decided) => {
    const w = world(monitors);
    expect(w.show(releasedOrder(w.released, w.view))).toBe(decided);
  });

  it('names a parent decided in the same call with the pending incident id', () => {
    const view = (i: number): NodeView | undefined =>
      ({
        1: { parents: [], down: true, incidentId: null, cause: null },
        2: { parents: [1], down: true, incidentId: null, cause: null },
      })[i];
    expect(releasedOrder([2, 1], view)).toEqual([
      { id: 1, joins: null },
      { id: 2, joins: { monitorId: 1, incidentId: -1 } },
    ]);
  });
});
