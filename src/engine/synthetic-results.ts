/** Results the engine makes itself: a missed heartbeat, a check that could not run. Pure. */
import { CheckResult, NO_PHASES } from '../probes/check-result';

export function missedHeartbeat(now: number, intervalS: number, graceS: number): CheckResult {
  return {
    at_ms: now,
    outcome: 'down',
    latency_ms: null,
    phases: { ...NO_PHASES },
    status: null,
    error: {
      code: 'heartbeat',
      message: `no ping within ${intervalS + graceS} s (interval ${intervalS} s + grace ${graceS} s)`,
    },
    cert: null,
    detail: null,
  };
}

export function unknownResult(now: number, err: unknown): CheckResult {
  return {
    at_ms: now,
    outcome: 'unknown',
    latency_ms: null,
    phases: { ...NO_PHASES },
    status: null,
    error: {
      code: 'protocol',
      message: `the check could not run: ${err instanceof Error ? err.message : String(err)}`,
    },
    cert: null,
    detail: null,
  };
}
