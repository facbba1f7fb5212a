/**
 * The engine's per-location state (docs/agents.md, "Quorum"): each location's own track of each
 * monitor that lists more than `local`, and the machine input the quorum rule makes of a new
 * result. A monitor checked from `local` alone never comes here: its results go to the state
 * machine as they always did. Who is online is asked of the locations module (a callback it
 * registers): an agent's votes stop counting with the sweep that finds it offline, which judges its
 * monitors again at once (location-judge.ts). The tracks are rebuilt at start from the stored
 * results (restore()).
 */
import type { MonitorConfig } from '../../probes/monitor-config';
import type { StateLocation } from '../../probes/status';
import { toIso } from '../../common/time';
import { CHECK_ERROR_CODES } from '../../probes/check-result';
import { OUTCOME_CODES } from '../../history/check-row';
import type { TrackResultRow } from '../../catalog/location-results.table';
import { LOCAL_NAME } from '../../catalog/locations.table';
import type { LiveMonitor } from '../live/live-monitor';
import { MachineInput, Policy, step, Step } from '../state-machine';
import { foldTrack, judgeQuorum, keptNote, LocationTrack, NEW_TRACK, Verdict } from './quorum';
import { rejudged } from './rejudge';

/**
 * A step of the state machine, and whether the result changed what `state.locations` shows of its
 * location (status, latency or error): the live stream then sends the monitor's state again.
 */
export interface VoteStep extends Step {
  /** Absent for a monitor checked from `local` alone (its state is its one location: nothing more to show). */
  shown?: boolean;
}

/**
 * What a monitor's answer shows of a location's track changed (its time aside: the `check` event
 * carries that; the latency in whole milliseconds, as the dashboard shows it).
 */
function shownChanged(a: LocationTrack, b: LocationTrack): boolean {
  return (
    a.status !== b.status ||
    roundMs(a.latency_ms) !== roundMs(b.latency_ms) ||
    a.error?.code !== b.error?.code ||
    a.error?.message !== b.error?.message
  );
}

const roundMs = (v: number | null): number | null => (v === null ? null : Math.round(v));

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

  /** A location renamed: its tracks (kept by name, as monitors list it) go on under the new name. */
  rename(from: string, to: string): void {
    for (const mine of this.tracks.values()) {
      const track = mine.get(from);
      if (track === undefined) continue;
      mine.delete(from);
      mine.set(to, track);
    }
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
  ): { input: MachineInput; policy: Policy; shown: boolean } {
    const c = m.config;
    const mine = this.tracks.get(m.id) ?? new Map<string, LocationTrack>();
    this.tracks.set(m.id, mine);
    const before = mine.get(name) ?? NEW_TRACK;
    // A result older than the location's latest (a spool sent late, out of order) is history only.
    if (before.at !== null && at < before.at) counted = false;
    let shown = false;
    if (counted) {
      const after = foldTrack(before, { ...r, at }, c);
      mine.set(name, after);
      shown = shownChanged(before, after);
    }
    const verdict = this.verdict(m.config, mine);
    const quorumPolicy = { ...policy, confirm_after: 1, recover_after: 1 };
    const base = { at_ms: at, cert: counted ? r.cert : null };
    if (verdict.status === null) {
      const note = keptNote(verdict);
      return {
        input: { ...base, outcome: r.outcome, latency_ms: r.latency_ms, error: r.error, counted: false, note },
        policy,
        shown,
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
      shown,
    };
  }

  /** The quorum rule over the listed locations as they stand: online now, and each one's last view. */
  private verdict(c: MonitorConfig, mine: Map<string, LocationTrack> | undefined): Verdict {
    const votes = c.locations.map((n) => ({
      name: n,
      online: this.isOnline(n),
      status: mine?.get(n)?.status ?? 'unknown',
    }));
    return judgeQuorum(votes, c.quorum);
  }

  /**
   * The monitor judged again at `now` on what each location last said (a location went offline or
   * came back: rejudge.ts), or null when its state does not move. Only for a monitor judged by quorum.
   */
  rejudge(m: LiveMonitor, now: number, policy: Policy): Step | null {
    if (!byQuorum(m.config)) return null;
    const mine = this.tracks.get(m.id);
    const verdict = this.verdict(m.config, mine);
    const witness =
      verdict.status === null ? null : ([...(mine?.values() ?? [])].find((t) => t.status === verdict.status) ?? null);
    return rejudged(m.state, verdict, witness, now, policy);
  }

  /**
   * Tracks rebuilt at start from each location's last counted results (an agent's:
   * catalog/location-results.table.ts startReadTrackResults; the service's own, `local`:
   * history/latest-checks.ts startReadLocalTrackChecks and the log read back), folded oldest first: `state.locations` and the quorum
   * stand where they stood before the stop, without waiting for fresh results. A monitor no longer
   * judged by quorum, or a location it no longer lists, is skipped.
   */
  restore(rows: readonly TrackResultRow[], configOf: (id: number) => MonitorConfig | undefined): void {
    const ordered = [...rows].sort(
      (a, b) => a.monitor_id - b.monitor_id || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.at - b.at),
    );
    let last: TrackResultRow | null = null;
    for (const r of ordered) {
      // The same result read twice (a `local` one both folded into `checks` and still in the log).
      const twice = last !== null && last.monitor_id === r.monitor_id && last.name === r.name && last.at === r.at;
      last = r;
      const c = configOf(r.monitor_id);
      if (twice || !c || !byQuorum(c) || !c.locations.includes(r.name)) continue;
      const info = r.info ? (JSON.parse(r.info) as { m?: string; n?: string }) : null;
      // History only (blind, late, a path problem): it never counted.
      if (info?.n) continue;
      const mine = this.tracks.get(r.monitor_id) ?? new Map<string, LocationTrack>();
      this.tracks.set(r.monitor_id, mine);
      const code = r.error === null ? undefined : CHECK_ERROR_CODES[r.error - 1];
      const result = {
        outcome: OUTCOME_CODES[r.outcome] ?? 'unknown',
        at: r.at,
        latency_ms: r.latency,
        error: code ? { code, message: info?.m ?? '' } : null,
      };
      mine.set(r.name, foldTrack(mine.get(r.name) ?? NEW_TRACK, result, c));
    }
  }

  /** Whether the service checks the monitor itself (`local` is among its locations). */
  checkedLocally(c: Pick<MonitorConfig, 'locations'>): boolean {
    return c.locations.includes(LOCAL_NAME);
  }

  /** The step for a result of the service's own check. */
  local(m: LiveMonitor, input: MachineInput, policy: Policy): VoteStep {
    return this.step(m, LOCAL_NAME, input, policy);
  }

  /**
   * The state machine's step for a result from location `name`: as given for a monitor checked
   * from `local` alone, else by quorum (vote() says what the machine is given).
   */
  step(m: LiveMonitor, name: string, input: MachineInput, policy: Policy): VoteStep {
    // The hot path (every check of a monitor checked from `local` alone): the machine's own step, as it is.
    if (!byQuorum(m.config)) return step(m.state, input, policy);
    const v = this.vote(m, name, input, input.at_ms, input.counted, policy);
    const s = step(m.state, v.input, v.policy);
    return { state: s.state, transitions: s.transitions, shown: v.shown };
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
        // Whole milliseconds, as stored and as the stream's check events say it.
        latency_ms: roundMs(t.latency_ms),
        at: toIso(t.at),
        error: t.error && { code: t.error.code, message: t.error.message },
      };
    });
  }
}
