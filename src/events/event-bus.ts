/**
 * The in-process event bus: monitors announce configuration changes here, the engine announces
 * transitions once they are committed; the scheduler, the live stream and caches listen. A
 * listener that throws, or whose promise rejects, is logged and never stops the others or the
 * emitter. Each event's listeners are an array replaced (never changed) when one is added or
 * removed, so an emit walks a fixed list without copying it (every check result is one emit).
 */
import { Injectable, Logger } from '@nestjs/common';
import type { Transition } from '../probes/status';
import type { MonitorConfig } from '../probes/monitor-config';
import type { CheckError, Outcome } from '../probes/check-result';
import type { IncidentRow } from './incident';

export interface BusEvents {
  /** A monitor was created or its configuration changed (targetChanged: kind or target differ). */
  'monitor.changed': {
    id: number;
    created: boolean;
    targetChanged: boolean;
    config: MonitorConfig;
    /** The open incident the change ended (a pause, a new target), written in the change's transaction. */
    endedIncident?: IncidentRow | null;
    /**
     * One of many monitors changed at once (bulk, import): when it is new or re-timed, its checks
     * after the first are spread over its interval instead of falling together with the others'.
     */
    spread?: boolean;
  };
  /** endedIncident: the open incident the deletion ended, written in its transaction. */
  'monitor.deleted': { id: number; endedIncident?: IncidentRow | null };
  /** A heartbeat monitor got a new ping URL: the old one stops working. */
  'monitor.token': { id: number };
  /** A monitor's status moved (incidents, alerts and the live stream listen). */
  'monitor.transition': { id: number; transition: Transition };
  /**
   * What a monitor's `state.locations` shows changed without a transition (a location's status,
   * latency or error; a location offline or back): announced once the commit that carries the
   * monitor's state is on disk (the live stream sends its state again).
   */
  'monitor.locations': { id: number };
  /** A certificate crossed a tls_warn_days threshold. */
  'monitor.cert': { id: number; notAfter: number; days: number; at: number };
  /** A second opinion found a network path problem. */
  path: { host: string; at: number };
  /**
   * A maintenance window started or ended (docs/maintenance.md); announced once its timeline line
   * is on disk. `monitors`: the ids it holds, null for every monitor.
   */
  maintenance: {
    started: boolean;
    window_id: number;
    title: string;
    monitors: number[] | null;
    at: number;
    ends_at: number | null;
  };
  /** The service went blind (no canary reachable) or came back. */
  blind: { active: boolean; since: number };
  /**
   * A check result, the moment it exists: before it is written (GET /checks shows unwritten results
   * too), so the live stream can show it at once. `at` is the stored time (check-row.ts).
   */
  check: {
    id: number;
    at: number;
    outcome: Outcome;
    latency_ms: number | null;
    status: number | null;
    error: CheckError | null;
    /** The probe location that checked, for a result of an agent (docs/agents.md); absent for `local`. */
    location?: string;
  };
  /** An incident opened, closed, or was acknowledged or given a note; announced once it is on disk. */
  incident: { incident: IncidentRow };
  /** A caller's access ended (an API key revoked, a session signed out or ended): its open streams close. */
  'access.ended':
    | { kind: 'key'; keyId: number }
    | { kind: 'session'; sessionId: number }
    | { kind: 'all-sessions'; except: number | null };
  /** On start: the service itself was not running from `from` to `to` (clean: it was stopped, not killed). */
  offline: { from: number; to: number; clean: boolean };
  /** One of the service's own notices in words (a custom host's certificate failed to renew), after its timeline line committed. */
  notice: { message: string; at: number };
}

/** One list type for every event's listeners (on() is where the event and its payload are tied). */
type Listener = (payload: BusEvents[keyof BusEvents]) => unknown;

/** One bus event with its payload, for queues that announce later. */
export type Announcement = { [K in keyof BusEvents]: { name: K; payload: BusEvents[K] } }[keyof BusEvents];

@Injectable()
export class EventBus {
  private readonly listeners = new Map<keyof BusEvents, readonly Listener[]>();
  private readonly log = new Logger('bus');

  emit<K extends keyof BusEvents>(name: K, payload: BusEvents[K]): void {
    const listeners = this.listeners.get(name);
    if (!listeners) return;
    // A listener added or removed meanwhile changes the next emit, not this one.
    for (const listener of listeners) {
      try {
        const out = listener(payload);
        if (out instanceof Promise) out.catch((err: unknown) => this.failed(name, err));
      } catch (err) {
        this.failed(name, err);
      }
    }
  }

  announce(a: Announcement): void {
    this.emit(a.name, a.payload as never);
  }

  private failed(name: string, err: unknown): void {
    this.log.error(`listener of ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }

  on<K extends keyof BusEvents>(name: K, listener: (payload: BusEvents[K]) => unknown): () => void {
    const added = listener as unknown as Listener;
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), added]);
    return () => {
      const now = this.listeners.get(name) ?? [];
      const at = now.lastIndexOf(added);
      if (at >= 0) this.listeners.set(name, [...now.slice(0, at), ...now.slice(at + 1)]);
    };
  }
}
