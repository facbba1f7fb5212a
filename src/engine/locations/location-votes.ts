/**
 * The engine's per-location state (docs/agents.md, "Quorum"): each location's own track of each
 * monitor that lists more than `local`, and the machine input the quorum rule makes of a new
 * result. A monitor checked from `local` alone never comes here: its results go to the state
 * machine as they always did. Who is online is asked of the locations module (a callback it
 * registers), so an offline agent's votes stop counting as soon as it is judged offline.
 */
import type { MonitorConfig } from '../../probes/monitor-config';
import type { StateLocation } from '../../probes/status';
import { toIso } from '../../common/time';
import { LOCAL_NAME } from '../../catalog/locations.table';
import type { LiveMonitor } from '../live/live-monitor';
import { MachineInput, Policy, step, Step } from '../state-machine';
import { foldTrack, judgeQuorum, LocationTrack, NEW_TRACK } from './quorum';

/** A monitor whose state is judged by quorum: it lists a location besides `local`. */
export function byQuorum(c: Pick<MonitorConfig, 'locations'>): boolean {
  return c.locations.length !== 1 || c.locations[0] !== LOCAL_NAME;
}

export class LocationVotes {
  private readonly tracks = new Map<number, Map<string, LocationTrack>>();
  private online: (name: string) => boolean = () => false;

  /** The locations module says who is online (`local` always is). */
  setOnlineCheck(fn: (name: string) => boolean): void {
    this.online = fn;
  }

  isOnline(name: string): boolean {
    return name === LOCAL_NAME || this.online(name);
  }

  drop(id: number): void {
    this.tracks.delete(id);
  }

  /**
   * A location back from offline votes again on its fresh results only: the view it had before it
   * went silent is forgotten, else that old vote would count again the moment it is back, before
   * anything it says now (its spooled results arrive late: history only, docs/agents.md).
   */
  forget(name: string): void {
    for (const mine of this.tracks.values()) mine.delete(name);
  }

  /**
   * One result of a monitor judged by quorum, from location `name`: its track moves when the
   * result counts, and the answer is what the state machine is given: the quorum's verdict as a
   * counted result with confirm and recover of 1 (each location confirmed its own already), or a
   * result that moves nothing, with the reason, while no verdict is reached.
   */
  vote(
    m: LiveMonitor,
    name: string,
    r: Omit<MachineInput, 'counted'>,
    at: number,
    counted: boolean,
    policy: Policy,
  ): { input: MachineInput; policy: Policy } {
    const c = m.config;
    const mine = this.tracks.get(m.id) ?? new Map<string, LocationTrack>();
    this.tracks.set(m.id, mine);
    const before = mine.get(name) ?? NEW_TRACK;
    // A result older than the location's latest (a spool sent late, out of order) is history only.
    if (before.at !== null && at < before.at) counted = false;
    if (counted) mine.set(name, foldTrack(before, { ...r, at }, c));
    const votes = c.locations.map((n) => ({
      name: n,
      online: this.isOnline(n),
      status: mine.get(n)?.status ?? 'unknown',
    }));
    const verdict = judgeQuorum(votes, c.quorum);
    const quorumPolicy = { ...policy, confirm_after: 1, recover_after: 1 };
    const base = { at_ms: at, cert: counted ? r.cert : null };
    if (verdict.status === null) {
      const note = verdict.reason ?? `kept: ${verdict.needed} of the locations online must agree, and they do not yet`;
      return {
        input: { ...base, outcome: r.outcome, latency_ms: r.latency_ms, error: r.error, counted: false, note },
        policy,
      };
    }
    // This location's own result when it says what the quorum says; else the view of one that does.
    const agrees = (r.outcome === 'down') === (verdict.status === 'down') && r.outcome !== 'unknown';
    const witness = [...mine.values()].find((t) => t.status === verdict.status) ?? NEW_TRACK;
    const outcome = agrees ? r.outcome : verdict.status;
    return {
      input: {
        ...base,
        outcome,
        latency_ms: agrees ? r.latency_ms : witness.latency_ms,
        error: agrees ? r.error : witness.error,
        counted: true,
        note: null,
      },
      policy: quorumPolicy,
    };
  }

  /** Whether the service checks the monitor itself (`local` is among its locations). */
  checkedLocally(c: Pick<MonitorConfig, 'locations'>): boolean {
    return c.locations.includes(LOCAL_NAME);
  }

  /** The step for a result of the service's own check. */
  local(m: LiveMonitor, input: MachineInput, policy: Policy): Step {
    return this.step(m, LOCAL_NAME, input, policy);
  }

  /**
   * The state machine's step for a result from location `name`: as given for a monitor checked
   * from `local` alone, else by quorum (vote() says what the machine is given).
   */
  step(m: LiveMonitor, name: string, input: MachineInput, policy: Policy): Step {
    if (!byQuorum(m.config)) return step(m.state, input, policy);
    const v = this.vote(m, name, input, input.at_ms, input.counted, policy);
    return step(m.state, v.input, v.policy);
  }

  /** `state.locations` of a monitor's answer: each listed location as it stands; null for a monitor checked from `local` alone. */
  answer(id: number, c: MonitorConfig): StateLocation[] | null {
    if (!byQuorum(c)) return null;
    const mine = this.tracks.get(id);
    return c.locations.map((name) => {
      const t = mine?.get(name) ?? NEW_TRACK;
      return {
        name,
        status: this.isOnline(name) ? t.status : 'offline',
        latency_ms: t.latency_ms,
        at: toIso(t.at),
        error: t.error && { code: t.error.code, message: t.error.message },
      };
    });
  }
}
