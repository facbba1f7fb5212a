/**
 * Up and down alerts held while a monitor flaps, and delivered when it settles. Pure.
 *
 * The engine remembers one thing per monitor: `downAlerted`, the incident whose down alert went to
 * the alert layer and whose up alert has not (null when the channels last heard "up", or nothing).
 * While the monitor flaps, its downs and ups are handed over marked `held` (the alert layer writes
 * an `alert` line saying so, and sends nothing). When flapping ends:
 * 1. Down, and the open incident's down was held: that down alert goes now, saying it flapped;
 * 2. Up or Slow, and a down went out whose up did not: an up alert goes now, for that incident;
 * 3. otherwise the channels already know where it stands, and nothing more is sent.
 * Pause, a new target and a deletion end the incident without an up (the timeline says why): the
 * memory starts again, as the state machine's runs do.
 */
import type { MonitorStatus, Transition } from '../../probes/status';

/** One up or down alert the engine hands to the alert layer. */
export interface UpDownAlert {
  cause: 'down' | 'up';
  incidentId: number;
  /** Held back because the monitor flaps (an `alert` line says so; nothing is sent). */
  held: boolean;
  /** Delivered when flapping ended (the message says the monitor flapped before). */
  settled: boolean;
}

export interface HoldOutcome {
  alerts: UpDownAlert[];
  downAlerted: number | null;
}

/**
 * What one transition means for the up/down alerts.
 * `incidentId`: for `down` the incident it opened, for `up` the one it ended; `openIncident`: the
 * incident open after the transition; `flapping` and `status`: the monitor after the whole step.
 */
export function holdAlerts(
  downAlerted: number | null,
  t: Transition,
  incidentId: number | null,
  openIncident: number | null,
  flapping: boolean,
  status: MonitorStatus,
): HoldOutcome {
  if (t.kind === 'down' && incidentId !== null) {
    if (flapping) return { alerts: [{ cause: 'down', incidentId, held: true, settled: false }], downAlerted };
    return { alerts: [{ cause: 'down', incidentId, held: false, settled: false }], downAlerted: incidentId };
  }
  if (t.kind === 'up' && t.recovered && incidentId !== null) {
    if (flapping) return { alerts: [{ cause: 'up', incidentId, held: true, settled: false }], downAlerted };
    return { alerts: [{ cause: 'up', incidentId, held: false, settled: false }], downAlerted: null };
  }
  if (t.kind === 'flapping' && !t.on) {
    if (status === 'down' && openIncident !== null && downAlerted !== openIncident) {
      return {
        alerts: [{ cause: 'down', incidentId: openIncident, held: false, settled: true }],
        downAlerted: openIncident,
      };
    }
    if ((status === 'up' || status === 'slow') && downAlerted !== null) {
      return { alerts: [{ cause: 'up', incidentId: downAlerted, held: false, settled: true }], downAlerted: null };
    }
    return { alerts: [], downAlerted };
  }
  if (t.kind === 'closed' || t.kind === 'paused' || t.kind === 'unknown') return { alerts: [], downAlerted: null };
  return { alerts: [], downAlerted };
}

/**
 * The memory of a monitor stored before it existed (an older `engine` blob): an open incident of
 * a monitor that was not flapping had its down alert; anything else is not known to have had one.
 */
export function assumedDownAlerted(openIncident: number | null, flapping: boolean): number | null {
  return openIncident !== null && !flapping ? openIncident : null;
}
