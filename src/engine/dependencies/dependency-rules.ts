/**
 * The rules of dependencies (docs/dependencies.md), pure: no framework, no I/O. The engine asks
 * them at two moments, with a view of the monitors it holds:
 *
 * - a monitor confirms Down: if a monitor it depends on, directly or through others, is Down, the
 *   Down joins that outage's incident (its cause) instead of opening one of its own;
 * - a cause's incident ends (recovery, pause, deletion, a new target): each monitor it affected
 *   that is still Down opens an incident of its own at once and alerts; one that recovered first
 *   left the incident already, without an alert.
 *
 * - a maintenance window lets go of monitors that are still Down (it ended, was stopped, or the
 *   service starts after it ended): they are decided together (releasedOrder), parents first, so
 *   a child whose parent is let go in the same moment joins the parent's new incident.
 *
 * Down means Down: a paused parent is not Down (nothing is known of it), nor is an unknown one, so
 * its dependants alert for themselves. A monitor held by a window opens nothing either way: the
 * engine asks these rules only for monitors no window holds.
 */

/** The monitor whose open incident a Down joined. */
export interface Cause {
  monitorId: number;
  incidentId: number;
}

/** What the rules see of one monitor. */
export interface NodeView {
  parents: readonly number[];
  /** Its status is Down (a paused or unknown monitor is not). */
  down: boolean;
  /** Its own open incident, if any. */
  incidentId: number | null;
  /** The outage it joined, if it is affected itself. */
  cause: Cause | null;
}

export type View = (id: number) => NodeView | undefined;

/**
 * The outage a monitor that confirms Down now belongs to, or null (it opens its own). Breadth
 * first from its parents, so the nearest Down ancestor decides: one with an incident of its own is
 * the cause; one that is affected itself hands on its cause (a chain A ← B ← C, all Down, is one
 * incident: A's). Each monitor is visited once (the graph has no cycle, but a stale view might).
 */
export function causeOf(id: number, view: View): Cause | null {
  const seen = new Set<number>([id]);
  let level = [...(view(id)?.parents ?? [])];
  while (level.length > 0) {
    const next: number[] = [];
    for (const p of level) {
      if (seen.has(p)) continue;
      seen.add(p);
      const n = view(p);
      if (!n) continue;
      if (n.down && n.incidentId !== null) return { monitorId: p, incidentId: n.incidentId };
      if (n.down && n.cause !== null) return n.cause;
      next.push(...n.parents);
    }
    level = next;
  }
  return null;
}

/** What becomes of an affected monitor when its cause's incident ends. */
export type Release = 'own-incident' | 'leave';

/** Still Down: an incident of its own, at once, with its alert. Anything else: it simply leaves. */
export function releaseOf(child: { down: boolean }): Release {
  return child.down ? 'own-incident' : 'leave';
}

/** What becomes of one monitor a window let go while Down: the outage it joins, or null (its own incident). */
export interface ReleasedDecision {
  id: number;
  joins: Cause | null;
}

/**
 * Monitors a maintenance window let go while Down and without an incident, decided in an order
 * where each comes after every monitor of the set it depends on (directly or through others), so
 * a parent let go in the same moment opens its incident first and its dependants join it, as
 * they would have had nothing held them. A parent Down with an incident already joins as usual;
 * a parent up, paused or unknown leaves the child to its own incident. `joins` of a child whose
 * parent decides in the same call names that parent with the incident id -1 (not known yet: the
 * engine opens it just before). A stale cycle among them is broken in the given order.
 */
export function releasedOrder(ids: readonly number[], view: View): ReleasedDecision[] {
  const pending = new Set(ids);
  const decided = new Map<number, Cause | null>();
  const overlay: View = (id) => {
    const n = view(id);
    if (!n || !decided.has(id)) return n;
    const joins = decided.get(id)!;
    return { ...n, down: true, incidentId: joins ? null : PENDING_INCIDENT, cause: joins };
  };
  const waitsFor = (id: number): boolean => {
    const seen = new Set<number>([id]);
    let level = [...(view(id)?.parents ?? [])];
    while (level.length > 0) {
      const next: number[] = [];
      for (const p of level) {
        if (seen.has(p)) continue;
        seen.add(p);
        if (pending.has(p)) return true;
        next.push(...(view(p)?.parents ?? []));
      }
      level = next;
    }
    return false;
  };
  const out: ReleasedDecision[] = [];
  const decide = (id: number) => {
    const joins = causeOf(id, overlay);
    decided.set(id, joins);
    pending.delete(id);
    out.push({ id, joins });
  };
  while (pending.size > 0) {
    const ready = ids.filter((id) => pending.has(id) && !waitsFor(id));
    if (ready.length === 0) decide(ids.find((id) => pending.has(id))!);
    else ready.forEach(decide);
  }
  return out;
}

/** The incident a parent decided in the same releasedOrder() call will open (its id is not known yet). */
export const PENDING_INCIDENT = -1;
