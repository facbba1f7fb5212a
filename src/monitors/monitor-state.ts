/** The live state of a monitor as stored (monitor_state row) and as answered. Pure. */
import { toIso } from '../common/time';

export const MONITOR_STATUSES = ['up', 'down', 'slow', 'paused', 'unknown'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export interface StateRow {
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
}

export interface StateDto {
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
}

export function initialState(monitorId: number, paused: boolean, now: number): StateRow {
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
  };
}

export function toStateDto(s: StateRow, mutedUntil: number | null, now: number): StateDto {
  return {
    status: s.status,
    since: toIso(s.since),
    failing: s.failing,
    flapping: s.flapping === 1,
    muted: mutedUntil !== null && mutedUntil > now,
    last_check_at: toIso(s.last_check_at),
    last_ok_at: toIso(s.last_ok_at),
    latency_ms: s.latency_ms,
    error: s.error_code ? { code: s.error_code, message: s.error_message ?? '' } : null,
    incident_id: s.incident_id,
    cert_expires_at: toIso(s.cert_expires_at),
    note: s.note,
  };
}
