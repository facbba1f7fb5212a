/**
 * The words every layer shares about a monitor's condition: its status, its state (the
 * monitor_state row, also held live by the engine), the state's answer shape, and the transitions
 * the state machine announces (incidents, alerts and the live stream consume them). Pure.
 */
import { toIso } from '../common/time';
import type { CheckError } from './check-result';

export const MONITOR_STATUSES = ['up', 'down', 'slow', 'paused', 'unknown'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export interface MonitorState {
  monitor_id: number;
  status: MonitorStatus;
  since: number;
  failing: number;
  flapping: number;
  last_check_at: number | null;
  last_ok_at: number | null;
  latency_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  incident_id: number | null;
  cert_expires_at: number | null;
  note: string | null;
  /** Down because a monitor it depends on is down: that monitor and its incident (docs/dependencies.md). */
  cause_monitor_id: number | null;
  cause_incident_id: number | null;
}

export interface StateAnswer {
  status: MonitorStatus;
  since: string;
  failing: number;
  flapping: boolean;
  muted: boolean;
  last_check_at: string | null;
  last_ok_at: string | null;
  latency_ms: number | null;
  error: { code: string; message: string } | null;
  incident_id: number | null;
  cert_expires_at: string | null;
  note: string | null;
  /** The maintenance window holding the monitor now (docs/maintenance.md), or null. */
  maintenance: { window_id: number; title: string; ends_at: string | null } | null;
  /** The monitor whose outage this one is affected by, and that incident (docs/dependencies.md), or null. */
  cause: { monitor_id: number; incident_id: number } | null;
  /** Each location that checks it, as it stands (docs/agents.md). */
  locations: StateLocation[];
}

/** One probe location's view of a monitor, in its answer's `state.locations`. */
export interface StateLocation {
  name: string;
  status: 'up' | 'down' | 'unknown' | 'offline';
  latency_ms: number | null;
  at: string | null;
  error: { code: string; message: string } | null;
}

/** What the engine knows of the window holding a monitor now (engine/maintenance/maintenance-book.ts). */
export interface MaintenanceMark {
  window_id: number;
  title: string;
  /** null: started by hand, until stopped. */
  ends_at: number | null;
}

export function initialState(monitorId: number, paused: boolean, now: number): MonitorState {
  return {
    monitor_id: monitorId,
    status: paused ? 'paused' : 'unknown',
    since: now,
    failing: 0,
    flapping: 0,
    last_check_at: null,
    last_ok_at: null,
    latency_ms: null,
    error_code: null,
    error_message: null,
    incident_id: null,
    cert_expires_at: null,
    note: null,
    cause_monitor_id: null,
    cause_incident_id: null,
  };
}

/** Whether a monitor muted until `mutedUntil` (epoch ms, or null) is muted at `now`. */
export function isMutedAt(mutedUntil: number | null, now: number): boolean {
  return mutedUntil !== null && mutedUntil > now;
}

export function toStateAnswer(
  s: MonitorState,
  mutedUntil: number | null,
  now: number,
  maintenance: MaintenanceMark | null = null,
  locations: StateLocation[] | null = null,
): StateAnswer {
  const error = s.error_code ? { code: s.error_code, message: s.error_message ?? '' } : null;
  return {
    status: s.status,
    since: toIso(s.since),
    failing: s.failing,
    flapping: s.flapping === 1,
    muted: isMutedAt(mutedUntil, now),
    last_check_at: toIso(s.last_check_at),
    last_ok_at: toIso(s.last_ok_at),
    latency_ms: s.latency_ms,
    error,
    incident_id: s.incident_id,
    cert_expires_at: toIso(s.cert_expires_at),
    note: s.note,
    maintenance: maintenance && { ...maintenance, ends_at: toIso(maintenance.ends_at) },
    cause:
      s.cause_monitor_id === null || s.cause_incident_id === null
        ? null
        : { monitor_id: s.cause_monitor_id, incident_id: s.cause_incident_id },
    // A monitor checked from `local` alone: its one location is the monitor's own state.
    locations: locations ?? [
      {
        name: 'local',
        status: s.status === 'down' ? 'down' : s.status === 'up' || s.status === 'slow' ? 'up' : 'unknown',
        latency_ms: s.latency_ms,
        at: toIso(s.last_check_at),
        error,
      },
    ],
  };
}

/** A change of a monitor's status, as the state machine (engine/state-machine.ts) reports it. */
export type Transition =
  /** First failed check of a run while up, slow or unknown (timeline kind `failing`). */
  | { kind: 'failing'; at: number; error: CheckError | null }
  /** Down confirmed: an incident opens. `error` is the confirming check's, `failingSince` the first failure's time. */
  | { kind: 'down'; at: number; error: CheckError | null; fails: number; failingSince: number }
  /** Recovered from down: the incident closes with `recovered` and an `up` alert goes out. */
  | { kind: 'up'; at: number; recovered: true; downSince: number }
  /** First good check after unknown (new, resumed, config changed): no incident, no alert. */
  | { kind: 'up'; at: number; recovered: false }
  | { kind: 'slow'; at: number }
  /** Slow back to up: the alert event `slow` covers the return to normal. */
  | { kind: 'slow_end'; at: number }
  | { kind: 'flapping'; at: number; on: boolean }
  | { kind: 'paused'; at: number }
  | { kind: 'unknown'; at: number; reason: 'resumed' | 'config_changed' }
  /** The open incident ends for a reason other than recovery. */
  | { kind: 'closed'; at: number; reason: 'paused' | 'config_changed' };
