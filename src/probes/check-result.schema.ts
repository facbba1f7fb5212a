/** The check result answer (check-result.ts toCheckResultDto), for the route description. Pure. */
import {
  described,
  epochMs,
  int,
  JsonSchema,
  nullable,
  num,
  obj,
  oneOfValues,
  ref,
  SchemaSet,
  str,
  time,
} from '../common/validation/common.schema';
import { CHECK_ERROR_CODES } from './check-result';

export const OUTCOMES = ['up', 'down', 'slow', 'unknown'] as const;

/** Milliseconds as measured: a check just run may answer a fraction (stored checks hold whole milliseconds). */
const ms = (what: string): JsonSchema => described(nullable(num({ minimum: 0 })), what);

export const CHECK_RESULT = obj(
  {
    at: time({ description: 'when the check started' }),
    at_ms: epochMs({ description: 'the same moment in epoch milliseconds' }),
    outcome: oneOfValues(OUTCOMES),
    latency_ms: ms('the whole check; null when nothing was measured'),
    phases: obj({
      dns_ms: ms('name lookup'),
      connect_ms: ms('TCP connect'),
      tls_ms: ms('TLS handshake'),
      ttfb_ms: ms('time to the first byte of the answer'),
    }),
    status: described(nullable(int()), 'protocol status (HTTP status, DNS rcode); null when none'),
    error: described(nullable(ref('CheckError')), 'why the check failed; null when it passed'),
    cert: described(
      nullable(obj({ not_after: time(), issuer: str(), subject: str() })),
      'the certificate seen (http over TLS, tls)',
    ),
    detail: described(nullable(str()), 'more words about the result'),
  },
  { description: 'One check (spec "Check result").' },
);

export const CHECK_ERROR = obj({
  code: oneOfValues(CHECK_ERROR_CODES, { description: 'docs/checks.md says when each is used' }),
  message: str(),
});

/** Built when the document is (not at import: reading DTO metadata costs start-up time). */
export function checkSchemas(): SchemaSet {
  return {
    CheckResult: CHECK_RESULT,
    CheckError: CHECK_ERROR,
  };
}
