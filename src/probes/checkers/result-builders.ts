/** Building CheckResults and carrying a judged failure through promise chains. */
import { CertInfo, CheckError, CheckErrorCode, CheckPhases, CheckResult, NO_PHASES } from '../check-result';

export interface ProbeFacts {
  latency_ms: number | null;
  phases?: CheckPhases;
  status?: number | null;
  cert?: CertInfo | null;
  detail?: string | null;
}

/** A result whose outcome follows from `error`: none means up (slow is decided later, by runCheck). */
export function judged(atMs: number, facts: ProbeFacts, error: CheckError | null): CheckResult {
  return {
    at_ms: atMs,
    outcome: error ? 'down' : 'up',
    latency_ms: facts.latency_ms,
    phases: { ...(facts.phases ?? NO_PHASES) },
    status: facts.status ?? null,
    error,
    cert: facts.cert ?? null,
    detail: facts.detail ?? null,
  };
}

export function failure(code: CheckErrorCode, message: string): CheckError {
  return { code, message };
}

/** An Error that already knows its check error; thrown or passed to socket callbacks inside probes. */
export class CheckFailure extends Error {
  constructor(readonly failure: CheckError) {
    super(failure.message);
    this.name = 'CheckFailure';
  }
}

export function emptyPhases(): CheckPhases {
  return { ...NO_PHASES };
}
