/**
 * What each kind of change the engine makes puts into the journal (journal.ts): a transition (its
 * timeline line, the incident it opens or ends, its announcements and alert causes), a certificate
 * warning, a network path problem. The journal writes them with the next commit and announces
 * them once it is on disk.
 */
import type { IncidentRow } from '../../events/incident';
import type { Transition } from '../../probes/status';
import type { AlertCauseRecord } from '../alerts/alert-causes';
import { holdAlerts, UpDownAlert } from '../alerts/alert-hold';
import { certWarning } from '../alerts/cert-warnings';
import type { Journal } from './journal';
import type { LiveMonitor } from '../live/live-monitor';
import { transitionLine } from './transition-text';

/**
 * A transition's timeline line and announcement; Down opens the incident, recovery and the
 * other ends close it (the lines carry the incident's id, so they form its timeline).
 * `inMaintenance`: a window holds the monitor (docs/maintenance.md): a Down opens no incident and
 * no down, slow or flapping alert goes out; the window's end opens what is still Down
 * (engine/maintenance/maintenance-journal.ts).
 */
export function journalTransition(journal: Journal, m: LiveMonitor, t: Transition, inMaintenance = false): void {
  const incidents = journal.incidents;
  let incident: IncidentRow | undefined;
  if (t.kind === 'down' && !(inMaintenance && !incidents.openOf(m.id))) {
    incident = incidents.openOf(m.id) ?? incidents.start(m.id, m.config.name, t);
    m.incidentId = incident.id;
  }
  const incidentId = m.incidentId;
  if ((t.kind === 'up' && t.recovered) || t.kind === 'closed') {
    incident = incidents.end(m.id, t.at, t.kind === 'closed' ? t.reason : 'recovered');
    m.incidentId = null;
  }
  const line = t.kind === 'closed' && !incident ? null : transitionLine(m.config.name, t);
  if (line) {
    journal.line({
      kind: line.kind,
      at: t.at,
      monitorId: m.id,
      incidentId,
      actor: 'system',
      text: line.text,
      data: 'error' in t && t.error ? { error: t.error } : t.kind === 'closed' ? { reason: t.reason } : null,
    });
  }
  journal.announceLater({ name: 'monitor.transition', payload: { id: m.id, transition: t } });
  if (incident) journal.announceLater({ name: 'incident', payload: { incident } });
  if (!inMaintenance) alertOf(journal, m, t, incidentId);
  // In maintenance only an up that ends an incident whose down was sent goes out (it was announced).
  else if (t.kind === 'up' && t.recovered && incidentId !== null) alertOf(journal, m, t, incidentId);
}

/**
 * A `cert` line at each tls_warn_days threshold, once per threshold per certificate: the monitor
 * remembers the warning given (`changed` marks it dirty) before the line is journaled.
 */
export function warnCert(journal: Journal, m: LiveMonitor, notAfter: number, now: number, changed: () => void): void {
  const c = m.config;
  const warnDays = c.kind === 'http' || c.kind === 'tls' || c.kind === 'smtp' ? c.settings.tls_warn_days : 0;
  const days = certWarning(notAfter, now, warnDays, m.certWarned);
  if (days === null) return;
  m.certWarned = { notAfter, days };
  changed();
  journalCertWarning(journal, m, notAfter, days, now);
}

/** A `cert` line at a tls_warn_days threshold, its announcement and its alert cause. */
export function journalCertWarning(
  journal: Journal,
  m: LiveMonitor,
  notAfter: number,
  days: number,
  now: number,
): void {
  const left = Math.floor((notAfter - now) / 86_400_000);
  const text =
    left < 0
      ? `${m.config.name}: the certificate has expired`
      : `${m.config.name}: the certificate expires in ${left} day${left === 1 ? '' : 's'} (${new Date(notAfter).toISOString().slice(0, 10)})`;
  journal.line({ kind: 'cert', at: now, monitorId: m.id, actor: 'system', text, data: { not_after: notAfter, days } });
  journal.announceLater({ name: 'monitor.cert', payload: { id: m.id, notAfter, days, at: now } });
  if (journal.alerting) {
    journal.alert({
      monitorId: m.id,
      cause: 'cert',
      at: now,
      incidentId: m.incidentId,
      config: m.config,
      flapping: m.state.flapping === 1,
      cert: { notAfter, days },
    });
  }
}

/** A `path` line (a second opinion succeeded after a failure) and its announcement. */
export function journalPathProblem(journal: Journal, m: LiveMonitor, host: string, at: number): void {
  journal.line({
    kind: 'path',
    at,
    monitorId: m.id,
    actor: 'system',
    text: `${m.config.name}: a network path problem to ${host} (a second check succeeded)`,
    data: { host },
  });
  journal.announceLater({ name: 'path', payload: { host, at } });
}

/**
 * The alert causes of a transition (first_up, paused, unknown and closed are none): up and down
 * go through the flapping hold (engine/alerts/alert-hold.ts), which may also release a held one when flapping ends.
 */
function alertOf(journal: Journal, m: LiveMonitor, t: Transition, incidentId: number | null): void {
  const flapping = m.state.flapping === 1;
  const hold = holdAlerts(m.downAlerted, t, incidentId, m.incidentId, flapping, m.state.status);
  m.downAlerted = hold.downAlerted;
  if (!journal.alerting) return;
  const base = { monitorId: m.id, at: t.at, config: m.config, flapping };
  if (t.kind === 'slow' || t.kind === 'slow_end') journal.alert({ ...base, incidentId, cause: t.kind });
  else if (t.kind === 'flapping') journal.alert({ ...base, incidentId, cause: 'flapping', on: t.on });
  for (const a of hold.alerts) journal.alert(upDownRecord(m, t, a, base));
}

function upDownRecord(
  m: LiveMonitor,
  t: Transition,
  a: UpDownAlert,
  base: Omit<AlertCauseRecord, 'cause' | 'incidentId'>,
): AlertCauseRecord {
  const record: AlertCauseRecord = {
    ...base,
    incidentId: a.incidentId,
    cause: a.cause,
    held: a.held,
    settled: a.settled,
  };
  const s = m.state;
  if (t.kind === 'down') {
    record.error = t.error;
    record.durationMs = t.at - t.failingSince;
  } else if (t.kind === 'up' && t.recovered) {
    record.durationMs = t.at - t.downSince;
  } else if (a.cause === 'down') {
    // Settled Down: the error and the failure run are the state's.
    record.error = s.error_code ? { code: s.error_code, message: s.error_message ?? '' } : null;
    record.durationMs = t.at - (s.failingSince ?? s.since);
  } else {
    // Settled Up: how long it has been up (or slow) without a change.
    record.durationMs = t.at - s.since;
  }
  return record;
}
