/**
 * The engine's side of dependencies (docs/dependencies.md): applies the pure rules of
 * dependency-rules.ts to the monitors it holds, and puts what they decide into the journal, so a
 * join or a release commits with the state rows it changes (durable, then announced). The graph is
 * the live monitors' own `depends_on` (a monitor's change replaces its live record), so it is as
 * current as the engine's view of every monitor, with no second copy to keep in step.
 */
import type { CheckError } from '../../probes/check-result';
import type { Transition } from '../../probes/status';
import type { Journal } from '../journal/journal';
import { journalTransition } from '../journal/journal-entries';
import type { LiveMonitor } from '../live/live-monitor';
import type { LiveSet } from '../live/live-set';
import { Cause, causeOf, NodeView, releaseOf } from './dependency-rules';

export class Dependencies {
  constructor(
    private readonly live: LiveSet,
    private readonly journal: Journal,
    /** The monitor's state changed: answers show it and its row is written within a second. */
    private readonly changed: (m: LiveMonitor) => void,
  ) {}

  /** What the rules see of a monitor the engine holds (dependency-rules.ts). */
  readonly view = (id: number): NodeView | undefined => {
    const m = this.live.get(id);
    if (!m) return undefined;
    return {
      parents: m.config.depends_on,
      down: m.state.status === 'down',
      incidentId: m.incidentId,
      cause: m.cause ?? null,
    };
  };

  /** The outage a Down of this monitor would join now, or null. */
  causeFor(m: LiveMonitor): Cause | null {
    return m.config.depends_on.length === 0 ? null : causeOf(m.id, this.view);
  }

  /**
   * A confirmed Down whose cause is Down: no incident, no alert of its own. The timeline line
   * goes into the cause's incident, the join into incident_affected, and an `affected` cause to the
   * alert layer on the cause's channels. True when it joined (the caller journals nothing more).
   */
  joined(m: LiveMonitor, t: Extract<Transition, { kind: 'down' }>): boolean {
    const cause = this.causeFor(m);
    if (
      !cause ||
      !this.join(m, cause, t.at, t.error, `${m.config.name} is down${t.error ? `: ${t.error.message}` : ''}`)
    )
      return false;
    this.journal.announceLater({ name: 'monitor.transition', payload: { id: m.id, transition: t } });
    return true;
  }

  /**
   * A monitor a maintenance window let go while Down joins its cause's outage, as if its Down had
   * just been confirmed (engine/maintenance/maintenance-journal.ts, releasedOrder). `words` begin
   * its line ("nas is still down at the end of maintenance ..."). True when it joined.
   */
  joinReleased(m: LiveMonitor, cause: Cause, at: number, words: string): boolean {
    const s = m.state;
    const error = s.error_code ? { code: s.error_code as CheckError['code'], message: s.error_message ?? '' } : null;
    if (!this.join(m, cause, at, error, words)) return false;
    this.changed(m);
    return true;
  }

  private join(m: LiveMonitor, cause: Cause, at: number, error: CheckError | null, words: string): boolean {
    const parent = this.live.get(cause.monitorId);
    if (!parent) return false;
    m.cause = cause;
    m.heldDown = false;
    this.journal.line({
      kind: 'down',
      at,
      monitorId: m.id,
      incidentId: cause.incidentId,
      actor: 'system',
      text: `${words}, affected by the outage of ${parent.config.name} (no incident of its own)`,
      data: {
        ...(error ? { error } : {}),
        cause: { monitor_id: cause.monitorId, incident_id: cause.incidentId },
      },
    });
    this.journal.affected.join({
      incident_id: cause.incidentId,
      monitor_id: m.id,
      monitor_name: m.config.name,
      since: at,
    });
    if (this.journal.alerting)
      this.journal.alert({
        monitorId: parent.id,
        cause: 'affected',
        at,
        incidentId: cause.incidentId,
        config: parent.config,
        flapping: parent.state.flapping === 1,
        affected: { id: m.id, name: m.config.name },
      });
    return true;
  }

  /**
   * After a monitor's transitions: an affected monitor that is no longer Down leaves its cause's
   * incident (no alert: it never alerted); a monitor whose incident ended releases the monitors
   * it affected (releaseAll).
   */
  after(m: LiveMonitor, endedIncidentId: number | null, at: number): void {
    if (m.cause && m.state.status !== 'down') {
      this.journal.affected.leave(m.cause.incidentId, m.id, at, m.config.name);
      m.cause = null;
      this.changed(m);
    }
    if (endedIncidentId !== null) this.releaseAll(endedIncidentId, at);
  }

  /**
   * The incident ended (its monitor recovered, was paused, deleted or given a new target): each
   * monitor it affected leaves it; one still Down opens its own incident at once and alerts, as
   * if its Down had just been confirmed.
   */
  releaseAll(incidentId: number, at: number): void {
    for (const child of this.live.all()) {
      if (child.cause?.incidentId !== incidentId) continue;
      this.journal.affected.leave(incidentId, child.id, at, child.config.name);
      child.cause = null;
      if (releaseOf({ down: child.state.status === 'down' }) === 'own-incident') {
        const s = child.state;
        journalTransition(this.journal, child, {
          kind: 'down',
          at,
          error: s.error_code ? { code: s.error_code as CheckError['code'], message: s.error_message ?? '' } : null,
          fails: Math.max(1, s.failing),
          failingSince: s.failingSince ?? s.since,
        });
      }
      this.changed(child);
    }
  }
}
