/**
 * On start, a monitor whose stored state and incident disagree is set right (a pause committed
 * just before a crash, whose state row had not been written yet; a database from before
 * incidents existed): a paused monitor is paused now, a Down one gets its incident, and an
 * incident of a monitor that is not Down ends. A Down monitor held by a maintenance window, or
 * affected while its cause's incident is open (start-load.ts checked it), has no incident of its own.
 *
 * A Down whose window ended while the service was stopped (or in the second between the end and
 * its commit, before a kill) still owes its incident and its down alert: it is let go as the
 * window's end lets go (engine/maintenance/maintenance-journal.ts, releaseDown): parents first,
 * joining a Down parent's outage, or else opening its incident with the down alert queued in the
 * same commit. One whose incident opened (and alerted) before the stop has nothing owed.
 */
import type { Logger } from '@nestjs/common';
import type { IncidentBook } from '../journal/incident-book';
import type { Journal } from '../journal/journal';
import type { MaintenanceBook } from '../maintenance/maintenance-book';
import { Released, releaseDown, ReleaseDeps } from '../maintenance/maintenance-journal';
import { pause, Step } from '../state-machine';
import type { LiveMonitor } from './live-monitor';

export interface ReconcileDeps {
  incidents: IncidentBook;
  journal: Journal;
  maintenance: MaintenanceBook;
  dependencies: ReleaseDeps['dependencies'];
  apply(m: LiveMonitor, s: Step): void;
  markDirty(m: LiveMonitor): void;
  log: Logger;
}

/** What start does with one monitor (pure). */
export type StartFix = 'pause' | 'none' | 'open' | 'release' | 'end';

export interface StartView {
  /** Its configuration says paused. */
  paused: boolean;
  status: LiveMonitor['state']['status'];
  hasOpenIncident: boolean;
  /** A window holds it now. */
  heldNow: boolean;
  /** Affected: in its cause's open incident. */
  affected: boolean;
  /** Its Down was held by a window that no longer holds it (LiveMonitor.heldDown). */
  heldDown: boolean;
}

export function startFix(v: StartView): StartFix {
  if (v.paused && v.status !== 'paused') return 'pause';
  if (v.status === 'down') {
    if (v.hasOpenIncident || v.heldNow || v.affected) return 'none';
    return v.heldDown ? 'release' : 'open';
  }
  return v.hasOpenIncident ? 'end' : 'none';
}

/** Every monitor at once, after all are held (a monitor let go may join a parent's outage). */
export function reconcile(d: ReconcileDeps, monitors: readonly LiveMonitor[], now: number): void {
  const released: Released[] = [];
  for (const m of monitors) {
    const fix = startFix({
      paused: m.config.paused,
      status: m.state.status,
      hasOpenIncident: d.incidents.openOf(m.id) !== undefined,
      heldNow: d.maintenance.markOf(m.id) !== null,
      affected: !!m.cause,
      heldDown: m.heldDown === true,
    });
    if (fix === 'pause') d.apply(m, pause(m.state, now));
    else if (fix === 'open') openWithoutAlert(d, m);
    else if (fix === 'end') endIncident(d, m, now);
    else if (fix === 'release') {
      released.push({
        m,
        words: 'is still down after its maintenance ended (while Farsight was stopped)',
        windowId: null,
      });
      d.log.warn(`${m.config.name} is still down after its maintenance window ended: its incident opens and alerts`);
    }
  }
  releaseDown({ journal: d.journal, dependencies: d.dependencies, changed: (m) => d.markDirty(m) }, released, now);
}

/** A Down without an incident and without a window behind it (a database from before incidents). */
function openWithoutAlert(d: ReconcileDeps, m: LiveMonitor): void {
  const s = m.state;
  const row = d.incidents.start(m.id, m.config.name, {
    at: s.since,
    error: s.error_code ? { code: s.error_code, message: s.error_message ?? '' } : null,
    fails: Math.max(1, s.failing),
    failingSince: s.failingSince ?? s.since,
  });
  m.incidentId = row.id;
  d.markDirty(m);
  d.log.warn(`${m.config.name} was down without an open incident: incident ${row.id} opened`);
}

function endIncident(d: ReconcileDeps, m: LiveMonitor, now: number): void {
  const open = d.incidents.openOf(m.id);
  const ended = d.incidents.end(m.id, now, m.state.status === 'paused' ? 'paused' : 'recovered');
  m.incidentId = null;
  d.markDirty(m);
  if (ended) d.journal.announceLater({ name: 'incident', payload: { incident: ended } });
  d.log.warn(`${m.config.name} is ${m.state.status} but incident ${open?.id} was open: ended`);
}
