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
 * Down means Down: a paused parent is not Down (nothing is known of it), nor is an unknown one, so
 * its dependants alert for themselves. A maintenance window (issue 36's other half) is meant to
 * arrive as one more field of NodeView (a child in maintenance opens nothing either way).
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
