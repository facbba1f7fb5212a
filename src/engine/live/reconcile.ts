/**
 * On start, a monitor whose stored state and incident disagree is set right (a pause committed
 * just before a crash, whose state row had not been written yet; a database from before
 * incidents existed): a paused monitor is paused now, a Down one gets its incident, and an
 * incident of a monitor that is not Down ends. A Down monitor held by a maintenance window, or
 * affected while its cause's incident is open (start-load.ts checked it), has no incident of its own.
 */
import type { Logger } from '@nestjs/common';
import type { IncidentBook } from '../journal/incident-book';
import type { Journal } from '../journal/journal';
import type { MaintenanceBook } from '../maintenance/maintenance-book';
import { pause, Step } from '../state-machine';
import type { LiveMonitor } from './live-monitor';

export interface ReconcileDeps {
  incidents: IncidentBook;
  journal: Journal;
  maintenance: MaintenanceBook;
  apply(m: LiveMonitor, s: Step): void;
  markDirty(m: LiveMonitor): void;
  log: Logger;
}

export function reconcile(d: ReconcileDeps, m: LiveMonitor, now: number): void {
  if (m.config.paused && m.state.status !== 'paused') {
    d.apply(m, pause(m.state, now));
    return;
  }
  const open = d.incidents.openOf(m.id);
  if (m.state.status === 'down' && !open && !d.maintenance.markOf(m.id) && !m.cause) {
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
  } else if (m.state.status !== 'down' && open) {
    const ended = d.incidents.end(m.id, now, m.state.status === 'paused' ? 'paused' : 'recovered');
    m.incidentId = null;
    d.markDirty(m);
    if (ended) d.journal.announceLater({ name: 'incident', payload: { incident: ended } });
    d.log.warn(`${m.config.name} is ${m.state.status} but incident ${open.id} was open: ended`);
  }
}
