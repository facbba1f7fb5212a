/**
 * A monitor as the engine holds it, and the conversions between its machine state and the stored
 * state row (the counters travel as JSON in the row's `engine` column). Pure.
 */
import { CheckRow, fromRow } from '../../history/check-row';
import { isCounted } from '../../history/rollup-math';
import type { MonitorConfig } from '../../probes/monitor-config';
import type { MonitorState } from '../../probes/status';
import type { StoredStateRow } from '../../catalog/monitor-state.table';
import type { CertWarned } from '../alerts/cert-warnings';
import type { ResultSource } from '../engine.service';
import { FRESH_COUNTERS, MachineCounters, MachineState, Policy, step } from '../state-machine';
import type { Cause } from '../dependencies/dependency-rules';

export interface LiveMonitor {
  id: number;
  config: MonitorConfig;
  state: MachineState;
  incidentId: number | null;
  /** The certificate expiry warning already given, if any. */
  certWarned: CertWarned | null;
  /** The incident whose down alert went out and whose up has not (engine/alerts/alert-hold.ts). */
  downAlerted: number | null;
  /** Down while a monitor it depends on is Down: the incident it joined instead of opening its own. */
  cause?: Cause | null;
  /**
   * Its Down was confirmed while a maintenance window held it: no incident and no down alert yet,
   * which the window's end owes it (engine/maintenance/maintenance-journal.ts), also when that end
   * came while the service was stopped (engine/live/reconcile.ts). Meaningful while Down only.
   */
  heldDown?: boolean;
}

/** What the `engine` column stores besides the state row. */
interface EngineBlob extends MachineCounters {
  certWarned?: CertWarned | null;
  /** Absent in blobs stored before alerts were held while flapping (assumedDownAlerted). */
  downAlerted?: number | null;
  /** LiveMonitor.heldDown; absent (false) in blobs stored before it, and when false. */
  heldDown?: true;
}

export function policyOf(c: MonitorConfig, source: ResultSource): Policy {
  // A heartbeat is down as soon as a deadline passes or a failure is reported: no re-checks exist to confirm it.
  const heartbeat = source.kind === 'missed' || source.kind === 'fail' || source.kind === 'ping';
  return {
    confirm_after: heartbeat ? 1 : c.confirm_after,
    recover_after: heartbeat ? 1 : c.recover_after,
    slow_after: c.slow_after,
    slow_ms: c.slow_ms,
    paused: c.paused,
  };
}

/**
 * A heartbeat monitor's allowance between pings (interval + grace) in ms; null for other kinds.
 * The one place the engine reckons the window: its deadlines and the rollups' cap (capOf).
 */
export function heartbeatWindowMs(c: Extract<MonitorConfig, { kind: 'heartbeat' }>): number;
export function heartbeatWindowMs(c: MonitorConfig): number | null;
export function heartbeatWindowMs(c: MonitorConfig): number | null {
  return c.kind === 'heartbeat' ? (c.interval_s + c.settings.grace_s) * 1000 : null;
}

export function toMonitorState(m: LiveMonitor): MonitorState {
  const s = m.state;
  return {
    monitor_id: m.id,
    status: s.status,
    since: s.since,
    failing: s.failing,
    flapping: s.flapping,
    last_check_at: s.last_check_at,
    last_ok_at: s.last_ok_at,
    latency_ms: s.latency_ms === null ? null : Math.round(s.latency_ms),
    error_code: s.error_code,
    error_message: s.error_message,
    incident_id: m.incidentId,
    cert_expires_at: s.cert_expires_at,
    note: s.note,
    cause_monitor_id: m.cause?.monitorId ?? null,
    cause_incident_id: m.cause?.incidentId ?? null,
  };
}

export function engineBlob(m: LiveMonitor): string {
  const s = m.state;
  const blob: EngineBlob = {
    good: s.good,
    slowRun: s.slowRun,
    history: s.history,
    failingSince: s.failingSince,
    certWarned: m.certWarned,
    downAlerted: m.downAlerted,
  };
  if (m.heldDown) blob.heldDown = true;
  return JSON.stringify(blob);
}

export interface RestoredState {
  state: MachineState;
  certWarned: CertWarned | null;
  /** undefined: the blob predates it. */
  downAlerted: number | null | undefined;
  heldDown: boolean;
}

export function fromStoredState(row: StoredStateRow): RestoredState {
  let blob: Partial<EngineBlob> = {};
  try {
    if (row.engine) blob = JSON.parse(row.engine) as Partial<EngineBlob>;
  } catch {
    // A damaged blob only means runs start counting again.
  }
  // Field by field rather than by spreading the row: a start builds 10,000 of these, and copying
  // with object rest and spread took a sixth of a second of it.
  const state: MachineState = {
    status: row.status,
    since: row.since,
    failing: row.failing,
    flapping: row.flapping,
    last_check_at: row.last_check_at,
    last_ok_at: row.last_ok_at,
    latency_ms: row.latency_ms,
    error_code: row.error_code,
    error_message: row.error_message,
    cert_expires_at: row.cert_expires_at,
    note: row.note,
    good: blob.good ?? FRESH_COUNTERS.good,
    slowRun: blob.slowRun ?? FRESH_COUNTERS.slowRun,
    history: blob.history ?? FRESH_COUNTERS.history,
    failingSince: blob.failingSince === undefined ? FRESH_COUNTERS.failingSince : blob.failingSince,
  };
  return {
    state,
    certWarned: blob.certWarned ?? null,
    downAlerted: blob.downAlerted,
    heldDown: blob.heldDown === true,
  };
}

/**
 * Whether a step changed what the state row must keep across a power cut. The time of the last
 * check, the last good check and its latency (and the machine's run counters) change with every
 * result; the row is written with them at the next fold, and a start after a crash takes them
 * from the results in the log (catchUp). Everything else is written within a second.
 */
export function durableChange(a: MachineState, b: MachineState): boolean {
  return (
    a.status !== b.status ||
    a.since !== b.since ||
    a.failing !== b.failing ||
    a.flapping !== b.flapping ||
    a.error_code !== b.error_code ||
    a.error_message !== b.error_message ||
    a.cert_expires_at !== b.cert_expires_at ||
    a.note !== b.note ||
    a.failingSince !== b.failingSince
  );
}

/**
 * A stored state brought up to the results committed after its row was written (a start after a
 * crash: the monitor's unfolded rows of check_log, oldest first). The machine steps through them
 * again. A change of anything durableChange() looks at was written with the result that made it,
 * so these steps only move what is written lazily: the time of the last check and of the last
 * good one, the latency, the run counters and the flapping window. Should a step still change more
 * (the configuration changed since), the replay stops before it and the next result decides.
 */
export function catchUp(state: MachineState, rows: readonly CheckRow[], policy: Policy): MachineState {
  let s = state;
  for (const r of rows) {
    if (s.last_check_at !== null && r.at <= s.last_check_at) continue;
    const result = fromRow(r);
    const next = step(s, { ...result, counted: isCounted(r) }, policy);
    if (next.transitions.length > 0 || durableChange(s, next.state)) break;
    s = next.state;
  }
  return s;
}
