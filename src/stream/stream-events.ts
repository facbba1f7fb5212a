/**
 * What each stream event carries (spec "Live stream"), made from what the bus says. Times are
 * RFC 3339 except `at_ms`, as everywhere in the API; nothing here can hold a secret (check errors
 * are the checkers' own messages, the `monitors` event carries ids only). Pure.
 */
import { toIso } from '../common/time';
import type { BusEvents } from '../events/event-bus';
import { IncidentAnswer, toIncidentAnswer } from '../events/incident';
import type { CheckError, Outcome } from '../probes/check-result';
import { MaintenanceMark, MonitorState, StateAnswer, StateLocation, toStateAnswer } from '../probes/status';

export type StreamEvent =
  | 'hello'
  | 'reset'
  | 'check'
  | 'state'
  | 'incident'
  | 'blind'
  | 'path'
  | 'monitors'
  | 'maintenance.started'
  | 'maintenance.ended';

export interface CheckEventData {
  monitor_id: number;
  at_ms: number;
  outcome: Outcome;
  latency_ms: number | null;
  status: number | null;
  error: CheckError | null;
  /** The probe location that checked (docs/agents.md): `local` for the service's own checks. */
  location: string;
}

export function checkData(c: BusEvents['check']): CheckEventData {
  return {
    monitor_id: c.id,
    at_ms: c.at,
    outcome: c.outcome,
    latency_ms: c.latency_ms === null ? null : Math.round(c.latency_ms),
    status: c.status,
    error: c.error === null ? null : { code: c.error.code, message: c.error.message },
    location: c.location ?? 'local',
  };
}

/**
 * JSON.stringify(checkData(c)), written directly: every check makes one, and the generic
 * stringify of a fresh object cost several times more. A test holds the two texts equal.
 */
export function checkDataJson(c: BusEvents['check']): string {
  const latency = c.latency_ms === null ? null : Math.round(c.latency_ms);
  const error =
    c.error === null ? 'null' : `{"code":${JSON.stringify(c.error.code)},"message":${JSON.stringify(c.error.message)}}`;
  return `{"monitor_id":${jsonNumber(c.id)},"at_ms":${jsonNumber(c.at)},"outcome":${JSON.stringify(c.outcome)},"latency_ms":${jsonNumber(latency)},"status":${jsonNumber(c.status)},"error":${error},"location":${JSON.stringify(c.location ?? 'local')}}`;
}

/** A number as JSON writes it (null for null, NaN and the infinities). */
function jsonNumber(n: number | null): string {
  return n !== null && Number.isFinite(n) ? String(n) : 'null';
}

/**
 * The monitor's state as GET /monitors/{id} shows it now; `locations`: its `state.locations` for a
 * monitor judged by quorum (engine votes.answer()), null for one checked from `local` alone.
 */
export function stateData(
  state: MonitorState,
  mutedUntil: number | null,
  now: number,
  maintenance: MaintenanceMark | null = null,
  locations: StateLocation[] | null = null,
): { monitor_id: number; state: StateAnswer } {
  return { monitor_id: state.monitor_id, state: toStateAnswer(state, mutedUntil, now, maintenance, locations) };
}

/** `maintenance.started` / `maintenance.ended`: the window and the monitors it holds (null: every monitor). */
export function maintenanceData(e: BusEvents['maintenance']): {
  window_id: number;
  title: string;
  monitors: number[] | null;
  at: string;
  ends_at: string | null;
} {
  return { window_id: e.window_id, title: e.title, monitors: e.monitors, at: toIso(e.at), ends_at: toIso(e.ends_at) };
}

export function incidentData(e: BusEvents['incident'], now: number): IncidentAnswer {
  return toIncidentAnswer(e.incident, now);
}

export function blindData(b: BusEvents['blind']): { active: boolean; since: string } {
  return { active: b.active, since: toIso(b.since) };
}

export function pathData(p: BusEvents['path']): { host: string; at: string } {
  return { host: p.host, at: toIso(p.at) };
}
