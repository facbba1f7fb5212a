/**
 * An incident: one outage of one monitor, from its first failed check to its end. The row as
 * stored, and its answer (spec "Incident"). Pure. Rules are in docs/incidents.md.
 */
import { toIso } from '../common/time';
import type { AffectedAnswer } from './incident-affected.table';

export const END_REASONS = ['recovered', 'paused', 'deleted', 'config_changed'] as const;
export type EndReason = (typeof END_REASONS)[number];

/** The incidents table row (the engine writes the first group of fields, PATCH the last two; incidents.table.ts). */
export interface IncidentRow {
  id: number;
  monitor_id: number;
  /** The monitor's name, kept so the incident still reads right after the monitor is deleted. */
  monitor_name: string;
  /** The first failed check of the run that was confirmed Down. */
  started_at: number;
  /** When Down was confirmed. */
  down_at: number;
  ended_at: number | null;
  end_reason: EndReason | null;
  cause_code: string | null;
  cause_message: string | null;
  last_error_code: string | null;
  last_error_message: string | null;
  fails: number;
  acknowledged_at: number | null;
  note: string | null;
}

export interface ErrorObject {
  code: string;
  message: string;
}

export interface IncidentAnswer {
  id: number;
  monitor_id: number;
  monitor_name: string;
  started_at: string;
  ended_at: string | null;
  duration_ms: number;
  cause: ErrorObject | null;
  last_error: ErrorObject | null;
  fails: number;
  acknowledged_at: string | null;
  note: string | null;
  end_reason: EndReason | null;
  /** The monitors down with it because they depend on its monitor (docs/dependencies.md); the routes add it. */
  affected?: AffectedAnswer[];
}

function errorObject(code: string | null, message: string | null): ErrorObject | null {
  return code === null ? null : { code, message: message ?? '' };
}

/** duration_ms grows while the incident is open (measured to `now`). */
export function toIncidentAnswer(r: IncidentRow, now: number): IncidentAnswer {
  const end = r.ended_at ?? Math.max(now, r.started_at);
  return {
    id: r.id,
    monitor_id: r.monitor_id,
    monitor_name: r.monitor_name,
    started_at: toIso(r.started_at),
    ended_at: toIso(r.ended_at),
    duration_ms: end - r.started_at,
    cause: errorObject(r.cause_code, r.cause_message),
    last_error: errorObject(r.last_error_code, r.last_error_message),
    fails: r.fails,
    acknowledged_at: toIso(r.acknowledged_at),
    note: r.note,
    end_reason: r.end_reason,
  };
}
