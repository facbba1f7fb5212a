/**
 * `depends_on` as written (docs/dependencies.md): what one body may say (refs: ids, or `slug:<slug>`),
 * and whether the refs of some monitors being written, together with the stored graph, name
 * monitors that exist, not the monitor itself, and make no cycle. Pure: the service reads the
 * stored graph in its transaction and hands it here, so create, patch, bulk and import share one rule.
 */
import type { FieldError } from '../../common/http/api-error';
import { isSlug } from '../../common/validation/ids';

export const MAX_DEPENDS_ON = 10;

/** One entry of `depends_on` as given: a monitor id, or a slug (`slug:<slug>` in the API, a bare slug in import). */
export type DependencyRef = { id: number } | { slug: string };

/** A resolved parent: a stored monitor, or one created by the same request (its id comes with its insert). */
export type DependencyTarget = { id: number } | { newSlug: string };

/** The stored graph: every monitor's slug and the ids it depends on. */
export interface StoredGraph {
  slugOf: ReadonlyMap<number, string>;
  parentsOf: ReadonlyMap<number, readonly number[]>;
}

/** A monitor being written: its slug after the write, its id when it is stored already, its refs. */
export interface DependencyItem {
  key: number;
  slug: string;
  id: number | null;
  refs: readonly DependencyRef[];
}

export type DependencyPlan = {
  /** Parents of each item without errors, in the order given. */
  targets: Map<number, DependencyTarget[]>;
  /** Items whose refs are wrong; a dependant of one of them then fails too (its parent is not written). */
  errors: Map<number, FieldError[]>;
};

/**
 * The refs of a body's `depends_on`, or field errors. The API takes ids and `slug:<slug>`; an
 * import takes slugs only (bare, or as `slug:<slug>`), since ids differ between machines.
 */
export function parseDependencyRefs(
  value: unknown,
  form: 'api' | 'import' = 'api',
): { refs: DependencyRef[]; errors: FieldError[] } {
  const refs: DependencyRef[] = [];
  const errors: FieldError[] = [];
  if (!Array.isArray(value)) return { refs, errors: [{ field: 'depends_on', message: 'must be an array' }] };
  if (value.length > MAX_DEPENDS_ON)
    return { refs, errors: [{ field: 'depends_on', message: `at most ${MAX_DEPENDS_ON} monitors` }] };
  value.forEach((v: unknown, i) => {
    if (form === 'api' && typeof v === 'number' && Number.isSafeInteger(v) && v >= 1) refs.push({ id: v });
    else if (typeof v === 'string' && v.startsWith('slug:') && isSlug(v.slice(5))) refs.push({ slug: v.slice(5) });
    else if (form === 'import' && isSlug(v)) refs.push({ slug: v });
    else
      errors.push({
        field: `depends_on[${i}]`,
        message:
          form === 'import'
            ? 'must be the slug of a monitor (an import names monitors by slug)'
            : 'must be a monitor id or "slug:<slug>"',
      });
  });
  return { refs, errors };
}

/**
 * Resolves and checks the items' refs against the stored graph and each other:
 *  1. each ref names a stored monitor or an item of the same request, not the item itself, once;
 *  2. the graph with the items' edges in place of their stored ones has no cycle through an item;
 *  3. an item that failed is left out (a stored one keeps its stored edges) and the rest are
 *     checked again, until no new item fails: a dependant of a failed new monitor fails too.
 */
export function planDependencies(stored: StoredGraph, items: readonly DependencyItem[]): DependencyPlan {
  const errors = new Map<number, FieldError[]>();
  for (;;) {
    const live = items.filter((it) => !errors.has(it.key));
    const idBySlug = new Map<string, number>();
    for (const [id, slug] of stored.slugOf) idBySlug.set(slug, id);
    // An item renaming a stored monitor takes its new slug; a new item claims its own.
    for (const it of live) if (it.id !== null) idBySlug.delete(stored.slugOf.get(it.id) ?? '');
    const itemBySlug = new Map(live.map((it) => [it.slug, it]));
    const targets = new Map<number, DependencyTarget[]>();
    const fresh = new Map<number, FieldError[]>();
    for (const it of live) {
      const out = resolveRefs(it, stored, idBySlug, itemBySlug);
      if (Array.isArray(out)) targets.set(it.key, out);
      else fresh.set(it.key, [out]);
    }
    const nodeOf = (t: DependencyTarget) => ('id' in t ? `#${t.id}` : `new:${t.newSlug}`);
    const edges = new Map<string, string[]>();
    const names = new Map<string, string>();
    for (const [id, slug] of stored.slugOf) {
      edges.set(
        `#${id}`,
        (stored.parentsOf.get(id) ?? []).map((p) => `#${p}`),
      );
      names.set(`#${id}`, slug);
    }
    for (const it of live) {
      const node = it.id === null ? `new:${it.slug}` : `#${it.id}`;
      names.set(node, it.slug);
      edges.set(node, (targets.get(it.key) ?? []).map(nodeOf));
    }
    for (const it of live) {
      if (fresh.has(it.key)) continue;
      const node = it.id === null ? `new:${it.slug}` : `#${it.id}`;
      const cycle = findCycle(node, (n) => edges.get(n) ?? []);
      if (cycle)
        fresh.set(it.key, [
          {
            field: 'depends_on',
            message: `would make a cycle: ${cycle.map((n) => names.get(n) ?? n).join(' → ')}`,
          },
        ]);
    }
    if (fresh.size === 0) return { targets, errors };
    for (const [k, e] of fresh) errors.set(k, e);
  }
}

function resolveRefs(
  it: DependencyItem,
  stored: StoredGraph,
  idBySlug: ReadonlyMap<string, number>,
  itemBySlug: ReadonlyMap<string, DependencyItem>,
): DependencyTarget[] | FieldError {
  const out: DependencyTarget[] = [];
  const seen = new Set<string>();
  for (const [i, ref] of it.refs.entries()) {
    const field = `depends_on[${i}]`;
    let target: DependencyTarget | null = null;
    if ('id' in ref) {
      if (stored.slugOf.has(ref.id)) target = { id: ref.id };
      else return { field, message: `there is no monitor ${ref.id}` };
    } else {
      const item = itemBySlug.get(ref.slug);
      const id = item ? item.id : (idBySlug.get(ref.slug) ?? null);
      if (id !== null) target = { id };
      else if (item) target = { newSlug: ref.slug };
      else return { field, message: `there is no monitor with the slug "${ref.slug}"` };
    }
    if (('id' in target && target.id === it.id) || ('newSlug' in target && target.newSlug === it.slug))
      return { field, message: 'a monitor cannot depend on itself' };
    const key = 'id' in target ? `#${target.id}` : target.newSlug;
    if (seen.has(key)) return { field, message: 'names a monitor already named in depends_on' };
    seen.add(key);
    out.push(target);
  }
  return out;
}

/** A path from `start` back to itself (start first and last), or null: depth-first, each node once. */
export function findCycle<K>(start: K, parentsOf: (node: K) => readonly K[]): K[] | null {
  const done = new Set<K>();
  const path: K[] = [start];
  const walk = (node: K): boolean => {
    for (const p of parentsOf(node)) {
      if (p === start) {
        path.push(p);
        return true;
      }
      if (done.has(p)) continue;
      done.add(p);
      path.push(p);
      if (walk(p)) return true;
      path.pop();
    }
    return false;
  };
  return walk(start) ? path : null;
}

/** The items in an order where each new parent is written before its dependants (the plan has no cycle). */
export function writeOrder<T extends { slug: string }>(
  items: readonly T[],
  targetsOf: (item: T) => readonly DependencyTarget[],
): T[] {
  const bySlug = new Map(items.map((it) => [it.slug, it]));
  const placed = new Set<string>();
  const out: T[] = [];
  const place = (it: T) => {
    if (placed.has(it.slug)) return;
    placed.add(it.slug);
    for (const t of targetsOf(it)) {
      const parent = 'newSlug' in t ? bySlug.get(t.newSlug) : undefined;
      if (parent) place(parent);
    }
    out.push(it);
  };
  items.forEach(place);
  return out;
}
