/**
 * The monitor state machine: folds check results into a monitor's status (up, down, slow, paused,
 * unknown) and reports every change as a transition for the incident, alert and stream layers.
 * Pure: no I/O and no clock (time comes from result.at_ms or a `now` argument); inputs are never
 * mutated. The rules, and each decision where the specification is silent, are in
 * docs/state-machine.md; keep the two in step.
 */
import { initialState, MonitorStatus, MonitorState, Transition } from '../probes/status';
import type { CheckError, CheckResult } from '../probes/check-result';

/** The part of a monitor's settings the machine reads. Muting is not here: it only holds alerts back. */
export interface Policy {
  confirm_after: number;
  recover_after: number;
  slow_after: number;
  /** null or 0: slowness is off and a `slow` result counts as `up`. */
  slow_ms: number | null;
  paused: boolean;
}

/**
 * What the machine remembers beyond the state row. Small and JSON-safe so the engine can store it
 * beside the row; after a loss, FRESH_COUNTERS is a safe start (runs just begin again).
 */
export interface MachineCounters {
  /** Good checks in a row while down, toward recover_after; 0 otherwise. */
  good: number;
  /** Slow good checks in a row, whatever the status, toward slow_after. */
  slowRun: number;
  /**
   * One char per counted check, oldest first, at most FLAP_WINDOW: '1' when that check changed the
   * status, '0' when not. The quiet run that clears flapping is its trailing '0's.
   */
  history: string;
  /** at_ms of the first failed check of the current failure run (kept while down), else null. */
  failingSince: number | null;
}

/** The state row without the fields the machine does not own: the id, and incident_id (incident layer). */
export type MachineState = Omit<MonitorState, 'monitor_id' | 'incident_id' | 'cause_monitor_id' | 'cause_incident_id'> &
  MachineCounters;

/**
 * What the machine reads of a check result, as the engine hands it over after the blind gate has
 * judged whether it counts. Built field by field (machineInput), not spread from the result: a
 * spread copies every field of results of several shapes, on every check.
 */
export interface MachineInput extends Pick<CheckResult, 'at_ms' | 'outcome' | 'latency_ms' | 'error' | 'cert'> {
  /** false when the result says nothing about the target (the service was blind, a network path problem). */
  counted: boolean;
  /** Why it was not counted. */
  note?: string | null;
}

export function machineInput(result: CheckResult, at: number, counted: boolean, note: string | null): MachineInput {
  return {
    at_ms: at,
    outcome: result.outcome,
    latency_ms: result.latency_ms,
    error: result.error,
    cert: result.cert,
    counted,
    note,
  };
}

export interface Step {
  state: MachineState;
  transitions: Transition[];
}

/** docs/state-machine.md: 6 or more status changes among the last 20 counted checks; cleared after 20 without one. */
export const FLAP_WINDOW = 20;
export const FLAP_CHANGES = 6;
export const FLAP_QUIET = 20;

export const FRESH_COUNTERS: Readonly<MachineCounters> = Object.freeze({
  good: 0,
  slowRun: 0,
  history: '',
  failingSince: null,
});

export function initialMachineState(now: number, paused: boolean): MachineState {
  const { monitor_id: _id, incident_id: _incident, ...row } = initialState(0, paused, now);
  return { ...row, ...FRESH_COUNTERS };
}

export function step(state: MachineState, result: MachineInput, policy: Policy): Step {
  // A paused monitor gets no checks; one that was already running when the pause came is dropped.
  if (policy.paused || state.status === 'paused') return { state, transitions: [] };
  const at = result.at_ms;
  // The one copy a step makes: the helpers below change it, never `state`.
  const next = copyState(state);
  next.last_check_at = at;
  // An `unknown` outcome means the checker could not judge: like a blind result, it moves nothing.
  if (!result.counted || result.outcome === 'unknown') {
    next.note = result.note ?? null;
    return { state: next, transitions: [] };
  }
  next.latency_ms = result.latency_ms;
  next.cert_expires_at = result.cert?.not_after ?? state.cert_expires_at;
  next.note = null;
  const transitions: Transition[] = [];
  if (result.outcome === 'down') onFailure(next, at, result.error, policy, transitions);
  else onGood(next, at, result.outcome === 'slow' && slowIsOn(policy), policy, transitions);
  withFlapping(state.status, next, at, transitions);
  return { state: next, transitions };
}

/** A field-by-field copy: every state the machine makes has one object shape. */
function copyState(s: MachineState): MachineState {
  return {
    status: s.status,
    since: s.since,
    failing: s.failing,
    flapping: s.flapping,
    last_check_at: s.last_check_at,
    last_ok_at: s.last_ok_at,
    latency_ms: s.latency_ms,
    error_code: s.error_code,
    error_message: s.error_message,
    cert_expires_at: s.cert_expires_at,
    note: s.note,
    good: s.good,
    slowRun: s.slowRun,
    history: s.history,
    failingSince: s.failingSince,
  };
}

/** Stops checking; an open incident ends with `paused`. Pausing a paused monitor changes nothing. */
export function pause(state: MachineState, now: number): Step {
  if (state.status === 'paused') return { state, transitions: [] };
  return restart(state, 'paused', now, { kind: 'paused', at: now }, 'paused');
}

/** docs/state-machine.md "Resume": a resumed monitor is `unknown` until its first counted check. */
export function resume(state: MachineState, now: number): Step {
  if (state.status !== 'paused') return { state, transitions: [] };
  return restart(state, 'unknown', now, { kind: 'unknown', at: now, reason: 'resumed' }, null);
}

/**
 * The kind or target changed: results of the old target say nothing about the new one, so the
 * monitor starts again from `unknown`, and an open incident ends with `config_changed`. A paused
 * monitor stays paused (its runs were already cleared when it was paused).
 */
export function configChanged(state: MachineState, now: number): Step {
  if (state.status === 'paused') return { state, transitions: [] };
  return restart(state, 'unknown', now, { kind: 'unknown', at: now, reason: 'config_changed' }, 'config_changed');
}

/** A failed check, on the step's own copy `s`. */
function onFailure(
  s: MachineState,
  at: number,
  error: CheckError | null,
  policy: Policy,
  transitions: Transition[],
): void {
  const failingSince = s.failingSince ?? at;
  const failedBefore = s.failing;
  s.failing = failedBefore + 1;
  s.failingSince = failingSince;
  s.good = 0;
  s.slowRun = 0;
  s.error_code = error?.code ?? null;
  s.error_message = error?.message ?? null;
  // While down, `failing` keeps counting: it is the number of failed checks of the open incident.
  if (s.status === 'down') return;
  if (failedBefore === 0) transitions.push({ kind: 'failing', at, error });
  // >= rather than ===: confirm_after may have been lowered below a run already under way.
  if (s.failing >= policy.confirm_after) {
    s.status = 'down';
    s.since = at;
    transitions.push({ kind: 'down', at, error, fails: s.failing, failingSince });
  }
}

/** A good (or slow) check, on the step's own copy `s`. */
function onGood(s: MachineState, at: number, slow: boolean, policy: Policy, transitions: Transition[]): void {
  const status = s.status;
  const since = s.since;
  s.slowRun = slow ? s.slowRun + 1 : 0;
  s.last_ok_at = at;
  s.error_code = null;
  s.error_message = null;
  if (status === 'down' && s.good + 1 < policy.recover_after) {
    // Not recovered yet: the incident (and its failure count) stays open.
    s.good += 1;
    return;
  }
  s.good = 0;
  s.failing = 0;
  s.failingSince = null;
  const slowEnough = slow && s.slowRun >= policy.slow_after;
  switch (status) {
    case 'down':
      return land(s, at, slowEnough, { kind: 'up', at, recovered: true, downSince: since }, transitions);
    case 'unknown':
      return land(s, at, slowEnough, { kind: 'up', at, recovered: false }, transitions);
    case 'up':
      if (slowEnough) moveTo(s, 'slow', at, { kind: 'slow', at }, transitions);
      return;
    case 'slow':
      if (!slow) moveTo(s, 'up', at, { kind: 'slow_end', at }, transitions);
      return;
    case 'paused':
      return; // unreachable: step() drops results while paused
  }
}

/** Leaving down or unknown lands on up, or straight on slow when the run of slow checks is already long enough. */
function land(s: MachineState, at: number, slowEnough: boolean, up: Transition, transitions: Transition[]): void {
  moveTo(s, slowEnough ? 'slow' : 'up', at, up, transitions);
  if (slowEnough) transitions.push({ kind: 'slow', at });
}

function moveTo(s: MachineState, status: MonitorStatus, at: number, t: Transition, transitions: Transition[]): void {
  s.status = status;
  s.since = at;
  transitions.push(t);
}

/**
 * Flapping is judged on status changes made by counted checks, after the check's own transitions:
 * 1. record whether this check changed the status (any of up, slow, down, unknown);
 * 2. 6 or more changes among the last 20 counted checks turns it on;
 * 3. while on, 20 counted checks in a row without a change turn it off.
 */
function withFlapping(before: MonitorStatus, s: MachineState, at: number, transitions: Transition[]): void {
  const history = (s.history + (s.status !== before ? '1' : '0')).slice(-FLAP_WINDOW);
  s.history = history;
  if (s.flapping === 0 && countChanges(history) >= FLAP_CHANGES) {
    s.flapping = 1;
    transitions.push({ kind: 'flapping', at, on: true });
  } else if (s.flapping === 1 && quietRun(history) >= FLAP_QUIET) {
    s.flapping = 0;
    transitions.push({ kind: 'flapping', at, on: false });
  }
}

/**
 * Pause, resume and a target change start the runs and the flapping window again: checks from
 * before say nothing about what comes after. Transitions in order: the status, the incident, flapping.
 */
function restart(
  state: MachineState,
  status: MonitorStatus,
  now: number,
  first: Transition,
  closeReason: 'paused' | 'config_changed' | null,
): Step {
  const transitions: Transition[] = [first];
  if (closeReason && state.status === 'down') transitions.push({ kind: 'closed', at: now, reason: closeReason });
  if (state.flapping === 1) transitions.push({ kind: 'flapping', at: now, on: false });
  return {
    state: { ...state, ...FRESH_COUNTERS, status, since: now, failing: 0, flapping: 0 },
    transitions,
  };
}

function slowIsOn(policy: Policy): boolean {
  return policy.slow_ms !== null && policy.slow_ms > 0;
}

function countChanges(history: string): number {
  let n = 0;
  for (let i = 0; i < history.length; i++) if (history.charCodeAt(i) === 49 /* '1' */) n++;
  return n;
}

function quietRun(history: string): number {
  return history.length - 1 - history.lastIndexOf('1');
}
