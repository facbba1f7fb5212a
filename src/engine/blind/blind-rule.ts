/**
 * When is the service blind? Pure: the gate feeds it what the canaries did since start and what
 * they do now.
 *
 * Blind means "the network we had is gone", not "the internet is unreachable": a canary that has
 * never answered since start (egress blocked, a LAN without internet) says nothing about a change,
 * so it cannot make the service blind. Otherwise such a machine would be blind from its first
 * minute and no monitor would ever go Down.
 */

/**
 * How well blind detection can work: `off` (no canaries configured), `pending` (not probed yet),
 * `unavailable` (no canary has answered since start, so a lost network would go unnoticed), `ok`.
 */
export type BlindDetection = 'off' | 'pending' | 'unavailable' | 'ok';

export interface CanaryAnswer {
  /** The canary's name, e.g. `1.1.1.1:443`. */
  key: string;
  /** It answered this probe. */
  ok: boolean;
}

export interface BlindVerdict {
  /** Every canary that has ever answered since start, this probe included. */
  everAnswered: string[];
  blind: boolean;
  detection: 'ok' | 'unavailable';
  /** Canaries that answered before and fail now. */
  lost: string[];
}

/**
 * Blind = every canary that has ever answered since start fails now, and at least one has ever
 * answered. Canaries that answer for the first time join `everAnswered` (and, answering, end any
 * blind period).
 */
export function blindVerdict(everAnswered: ReadonlySet<string>, probe: readonly CanaryAnswer[]): BlindVerdict {
  const ever = new Set(everAnswered);
  for (const c of probe) if (c.ok) ever.add(c.key);
  // Only canaries still in the probe count: one dropped from the list can no longer be asked.
  const known = probe.filter((c) => ever.has(c.key));
  const lost = known.filter((c) => !c.ok).map((c) => c.key);
  return {
    everAnswered: [...ever],
    blind: known.length > 0 && lost.length === known.length,
    detection: known.length > 0 ? 'ok' : 'unavailable',
    lost,
  };
}
