/**
 * The engine's side of probe locations (docs/agents.md, "Quorum"): a result from any location
 * stepped through the quorum rule and applied, each monitor judged again at once when a location
 * goes offline or comes back, and the live stream told when a location's row of `state.locations`
 * changed. Everything a location changes waits in the journal for the writer's next transaction
 * (state rows, incidents, timeline lines, outbox rows) and is announced after it commits.
 */
import type { EventBus } from '../../events/event-bus';
import { LOCAL_NAME } from '../../catalog/locations.table';
import type { EventInput } from '../../events/events.service';
import type { CheckResult } from '../../probes/check-result';
import type { CheckWriter } from '../../history/writer';
import type { Journal } from '../journal/journal';
import { LiveMonitor, policyOf } from '../live/live-monitor';
import type { LiveSet } from '../live/live-set';
import { MachineInput, machineInput, Policy, Step } from '../state-machine';
import { LocationVotes, VoteStep } from './location-votes';

/** A location whose votes start or stop counting (locations/location-book.ts sweep()). */
export interface LocationMove {
  name: string;
  /** Its timeline line and the owner's notice (offline, back online), or null (a first contact says nothing). */
  said: { line: EventInput; notice: string } | null;
}

export interface LocationJudgeDeps {
  live: LiveSet;
  votes: LocationVotes;
  journal: Journal;
  writer: CheckWriter;
  bus: EventBus;
  /** The engine's one way to give a monitor a new state (transitions, incidents, the dirty row). */
  apply(m: LiveMonitor, s: Step): void;
}

export class LocationJudge {
  constructor(private readonly d: LocationJudgeDeps) {}

  /** A result of a probe location's agent, stored already by locations/: a vote, then the quorum's verdict. */
  remote(id: number, location: string, result: CheckResult, counted: boolean): void {
    const m = this.d.live.get(id);
    if (!m || m.config.paused || !m.config.locations.includes(location)) return;
    const { at_ms: at, outcome, latency_ms, status, error } = result;
    this.d.bus.emit('check', { id, at, outcome, latency_ms, status, error, location });
    const input = machineInput(result, at, counted, null);
    this.step(m, location, input, policyOf(m.config, { kind: 'scheduled' }));
  }

  /** The step of a result of the service's own check, applied (as step()). */
  local(m: LiveMonitor, input: MachineInput, policy: Policy): VoteStep {
    return this.step(m, LOCAL_NAME, input, policy);
  }

  /**
   * The step of a result from location `name`, applied. When it changed what `state.locations`
   * shows of that location and no transition says so already, the monitor's state is announced
   * (`monitor.locations`, a `state` frame on the stream) once the next commit is on disk.
   */
  step(m: LiveMonitor, name: string, input: MachineInput, policy: Policy): VoteStep {
    const s = this.d.votes.step(m, name, input, policy);
    this.d.apply(m, s);
    if (s.shown === true && s.transitions.length === 0) this.shown(m.id);
    return s;
  }

  /**
   * Locations whose votes start or stop counting: their lines and notices, and every monitor that
   * lists one of them judged again now (rejudge.ts), commit in one transaction of the writer
   * before the notices, transitions and `state` frames go out. Resolves once that commit is
   * done (a failed one is retried by the writer with everything still queued).
   */
  async moved(moves: readonly LocationMove[], now: number): Promise<void> {
    if (moves.length === 0) return;
    for (const { said } of moves) {
      if (!said) continue;
      this.d.journal.line(said.line);
      this.d.journal.announceLater({ name: 'notice', payload: { message: said.notice, at: now } });
    }
    const names = new Set(moves.map((x) => x.name));
    for (const m of this.d.live.all()) {
      if (!m.config.locations.some((n) => names.has(n))) continue;
      const s = this.d.votes.rejudge(m, now, policyOf(m.config, { kind: 'scheduled' }));
      // Its answer's `state.locations` shows the location's new state, whether its own state moved or not.
      if (s) this.d.apply(m, s);
      else this.d.live.changed(m.id);
      if (!s || s.transitions.length === 0) this.shown(m.id);
    }
    await this.d.writer.commit();
  }

  private shown(id: number): void {
    this.d.journal.announceLater({ name: 'monitor.locations', payload: { id } });
  }
}
