/**
 * Probe locations in the engine (docs/agents.md, "Quorum"): each location's own confirmed status,
 * and the rule that turns the votes of the online locations into the monitor's. Pure: the clock
 * and who is online are the caller's.
 */
import type { CheckError, Outcome } from '../../probes/check-result';

export type LocationStatus = 'up' | 'down' | 'unknown';

/** What one location has seen of one monitor: its confirmed status and the runs toward a change. */
export interface LocationTrack {
  status: LocationStatus;
  /** Failed checks in a row (toward confirm_after). */
  failing: number;
  /** Good checks in a row (toward recover_after while down). */
  passing: number;
  at: number | null;
  latency_ms: number | null;
  error: CheckError | null;
}

export const NEW_TRACK: LocationTrack = Object.freeze({
  status: 'unknown',
  failing: 0,
  passing: 0,
  at: null,
  latency_ms: null,
  error: null,
}) as LocationTrack;

/**
 * One counted result from a location: Down after confirm_after failures in a row, Up after
 * recover_after good ones while Down (a first good check makes an unknown location Up at once,
 * as the monitor's own first check does). An `unknown` outcome moves nothing.
 */
export function foldTrack(
  t: LocationTrack,
  r: { outcome: Outcome; at: number; latency_ms: number | null; error: CheckError | null },
  policy: { confirm_after: number; recover_after: number },
): LocationTrack {
  if (r.outcome === 'unknown') return { ...t, at: r.at };
  if (r.outcome === 'down') {
    const failing = t.failing + 1;
    return {
      status: failing >= policy.confirm_after ? 'down' : t.status,
      failing,
      passing: 0,
      at: r.at,
      latency_ms: r.latency_ms,
      error: r.error,
    };
  }
  const passing = t.passing + 1;
  const up = t.status !== 'down' || passing >= policy.recover_after;
  return {
    status: up ? 'up' : 'down',
    failing: 0,
    passing: up ? 0 : passing,
    at: r.at,
    latency_ms: r.latency_ms,
    error: null,
  };
}

export interface Vote {
  name: string;
  online: boolean;
  status: LocationStatus;
}

export interface Verdict {
  /** The monitor's status by quorum, or null: it keeps the state it has. */
  status: 'up' | 'down' | null;
  /** Why it keeps its state when that is worth saying (too few locations online), else null. */
  reason: string | null;
  /** How many agreeing online locations it took. */
  needed: number;
}

/**
 * The quorum rule: among the listed locations that are online, Down when at least `quorum` say
 * Down, Up when at least `quorum` say Up; `quorum` null is a majority of those online. Offline
 * locations are left out; when fewer are online than the quorum needs, the state is kept and
 * the reason says so. A location that has not judged yet (unknown) counts for neither side.
 */
export function judgeQuorum(votes: readonly Vote[], quorum: number | null): Verdict {
  const online = votes.filter((v) => v.online);
  const offline = votes.filter((v) => !v.online).map((v) => v.name);
  const needed = quorum ?? Math.floor(online.length / 2) + 1;
  if (online.length === 0 || online.length < needed) {
    const who = offline.length ? ` (offline: ${offline.join(', ')})` : '';
    return {
      status: null,
      reason: `kept: only ${online.length} of ${votes.length} locations online${who}, and ${needed} must agree`,
      needed,
    };
  }
  const down = online.filter((v) => v.status === 'down').length;
  const up = online.filter((v) => v.status === 'up').length;
  if (down >= needed) return { status: 'down', reason: null, needed };
  if (up >= needed) return { status: 'up', reason: null, needed };
  return { status: null, reason: null, needed };
}

/** The note of a monitor that keeps its state because the quorum reached no verdict (the rule's one wording). */
export function keptNote(v: Verdict): string {
  if (v.reason !== null) return v.reason;
  // With one vote needed, no verdict means no location online has judged yet (its first result).
  return v.needed === 1
    ? 'kept: no location online has judged it yet'
    : `kept: the locations online do not agree yet (${v.needed} must agree)`;
}

/** Whether a monitor's note is the quorum's (keptNote): a verdict that agrees with the state clears it. */
export function isKeptNote(note: string | null): boolean {
  return note !== null && note.startsWith('kept: ');
}
