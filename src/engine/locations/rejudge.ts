/**
 * A monitor judged again without a new result (docs/agents.md, "Quorum"): when a location goes
 * offline or comes back, the votes that count change, and the quorum rule is applied at once to
 * what each location last said, not at the monitor's next result. Pure: the verdict, the clock
 * reading and the policy are the caller's.
 */
import { MachineState, Policy, step, Step } from '../state-machine';
import { isKeptNote, keptNote, LocationTrack, Verdict } from './quorum';

/**
 * The step that brings a monitor's state in line with the quorum's verdict at `now`, or null when
 * nothing changes:
 * - no verdict: the monitor keeps its status and its note says why (too few locations online, or
 *   those online disagree);
 * - a verdict the status already says: only a quorum's "kept" note goes;
 * - another verdict: the machine takes it as a counted result of `now` (confirm and recover of 1:
 *   each location confirmed its own view already), with the latency and error of a location that
 *   says it (`witness`). The time of the last check stays: no check was made.
 */
export function rejudged(
  state: MachineState,
  verdict: Verdict,
  witness: LocationTrack | null,
  now: number,
  policy: Policy,
): Step | null {
  if (policy.paused || state.status === 'paused') return null;
  if (verdict.status === null) {
    const note = keptNote(verdict);
    return state.note === note ? null : { state: { ...state, note }, transitions: [] };
  }
  const says = verdict.status === 'down' ? state.status === 'down' : state.status === 'up' || state.status === 'slow';
  if (says) return isKeptNote(state.note) ? { state: { ...state, note: null }, transitions: [] } : null;
  const s = step(
    state,
    {
      at_ms: now,
      outcome: verdict.status,
      latency_ms: witness?.latency_ms ?? null,
      error: verdict.status === 'down' ? (witness?.error ?? null) : null,
      cert: null,
      counted: true,
      note: null,
    },
    { ...policy, confirm_after: 1, recover_after: 1 },
  );
  const lastOk = verdict.status === 'up' ? Math.max(state.last_ok_at ?? 0, witness?.at ?? 0) || null : state.last_ok_at;
  return { state: { ...s.state, last_check_at: state.last_check_at, last_ok_at: lastOk }, transitions: s.transitions };
}
