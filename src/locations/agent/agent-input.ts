/**
 * What the agent routes accept (docs/agents.md, "Agent protocol v1"). Pure. The envelope of a
 * results batch is all or nothing (a 422 naming the field, nothing stored); a result inside it
 * that cannot count is answered with its reason instead, so an agent's spool never blocks on it.
 */
import { ApiError, FieldError } from '../../common/http/api-error';
import { parseIso } from '../../common/time';
import { textProblem } from '../../common/validation/text-rules';
import { CHECK_ERROR_CODES, CheckErrorCode, CheckResult, NO_PHASES, Outcome } from '../../probes/check-result';

export const MAX_RESULTS = 500;
export const WAIT_S = { min: 0, max: 30, default: 25 };
export const REVISION_MAX = 64;
export const VERSION_MAX = 40;
/** A result from further ahead than this is refused: the agent's clock is wrong. */
export const FUTURE_MS = 60_000;
const MESSAGE_MAX = 1000;
const DETAIL_MAX = 2000;
const CERT_TEXT_MAX = 500;
/** Ten minutes: no check runs longer (timeout_ms is at most 60 s). */
const LATENCY_MAX_MS = 600_000;
const OUTCOMES: readonly Outcome[] = ['up', 'down', 'slow', 'unknown'];

export interface ResultItem {
  seq: number;
  monitor_id: number;
  at: number;
  result: unknown;
}

export interface ResultsBatch {
  agent: { version: string | null; blind: boolean };
  results: ResultItem[];
}

/** GET /api/agent/config's query: the revision held (null: none) and how long to wait for a change. */
export function parseConfigQuery(q: Record<string, unknown>): { revision: string | null; waitMs: number } {
  const errors: FieldError[] = [];
  for (const k of Object.keys(q)) {
    if (k !== 'revision' && k !== 'wait_s')
      errors.push({ field: k.slice(0, 60), message: 'unknown parameter (the config takes revision and wait_s)' });
  }
  let revision: string | null = null;
  if (q.revision !== undefined) {
    if (typeof q.revision !== 'string' || q.revision.length > REVISION_MAX || !/^[\w.-]*$/.test(q.revision))
      errors.push({
        field: 'revision',
        message: `must be the revision last answered (at most ${REVISION_MAX} characters)`,
      });
    else revision = q.revision;
  }
  let wait = WAIT_S.default;
  if (q.wait_s !== undefined) {
    const n = typeof q.wait_s === 'string' && /^\d{1,2}$/.test(q.wait_s) ? Number(q.wait_s) : NaN;
    if (!(n >= WAIT_S.min && n <= WAIT_S.max))
      errors.push({
        field: 'wait_s',
        message: `must be a whole number of seconds from ${WAIT_S.min} to ${WAIT_S.max}`,
      });
    else wait = n;
  }
  if (errors.length) throw ApiError.invalid(errors);
  return { revision, waitMs: wait * 1000 };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The envelope of POST /api/agent/results; throws 422 naming the first fields at fault. */
export function parseResultsBody(body: unknown): ResultsBatch {
  const errors: FieldError[] = [];
  if (!isObject(body)) throw ApiError.invalid([{ field: 'body', message: 'must be a JSON object' }]);
  for (const k of Object.keys(body)) {
    if (k !== 'agent' && k !== 'results')
      errors.push({ field: k.slice(0, 60), message: 'unknown field (a batch has agent and results)' });
  }
  const agent = { version: null as string | null, blind: false };
  if (!isObject(body.agent)) errors.push({ field: 'agent', message: 'must be an object {version, blind}' });
  else {
    const { version, blind } = body.agent;
    if (
      typeof version !== 'string' ||
      version.length === 0 ||
      version.length > VERSION_MAX ||
      !/^[\w.+-]+$/.test(version)
    )
      errors.push({
        field: 'agent.version',
        message: `must be the agent's version, such as 0.1.0 (at most ${VERSION_MAX} characters)`,
      });
    else agent.version = version;
    if (typeof blind !== 'boolean') errors.push({ field: 'agent.blind', message: 'must be true or false' });
    else agent.blind = blind;
  }
  const results: ResultItem[] = [];
  if (!Array.isArray(body.results)) errors.push({ field: 'results', message: 'must be an array of results' });
  else if (body.results.length > MAX_RESULTS)
    errors.push({
      field: 'results',
      message: `at most ${MAX_RESULTS} results a request: send the rest in the next one`,
    });
  else {
    let last = 0;
    body.results.forEach((item: unknown, i) => {
      const at = `results[${i}]`;
      if (!isObject(item)) {
        errors.push({ field: at, message: 'must be an object {seq, monitor_id, at, result}' });
        return;
      }
      const { seq, monitor_id: id, at: time } = item;
      if (!Number.isSafeInteger(seq) || (seq as number) < 1)
        errors.push({ field: `${at}.seq`, message: 'must be a whole number from 1 to 2^53-1' });
      else if ((seq as number) <= last)
        errors.push({ field: `${at}.seq`, message: 'must be greater than the seq before it in the batch' });
      else last = seq as number;
      if (!Number.isSafeInteger(id) || (id as number) < 1)
        errors.push({ field: `${at}.monitor_id`, message: 'must be a monitor id' });
      const ms = typeof time === 'string' && time.length <= 40 ? parseIso(time) : null;
      if (ms === null) errors.push({ field: `${at}.at`, message: 'must be an RFC 3339 time' });
      if (!('result' in item)) errors.push({ field: `${at}.result`, message: 'is needed: the check result' });
      results.push({ seq: seq as number, monitor_id: id as number, at: ms ?? 0, result: item.result });
    });
  }
  if (errors.length) throw ApiError.invalid(errors.slice(0, 20));
  return { agent, results };
}

const nullableNumber = (v: unknown, max: number): v is number | null =>
  v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max);

/** A result the checkers made, checked like any input; a text says why it cannot be stored. */
export function parseCheckResult(raw: unknown, at: number): CheckResult | string {
  if (!isObject(raw)) return 'the result is not an object';
  const { outcome, latency_ms, phases, status, error, cert, detail } = raw;
  if (!OUTCOMES.includes(outcome as Outcome)) return `outcome must be one of ${OUTCOMES.join(', ')}`;
  if (!nullableNumber(latency_ms ?? null, LATENCY_MAX_MS)) return 'latency_ms must be null or 0 to 600000';
  let ph = { ...NO_PHASES };
  if (phases !== undefined && phases !== null) {
    if (!isObject(phases)) return 'phases must be an object';
    const p = {
      dns_ms: phases.dns_ms ?? null,
      connect_ms: phases.connect_ms ?? null,
      tls_ms: phases.tls_ms ?? null,
      ttfb_ms: phases.ttfb_ms ?? null,
    };
    if (!Object.values(p).every((v) => nullableNumber(v, LATENCY_MAX_MS))) return 'phases must be null or 0 to 600000';
    ph = p as typeof ph;
  }
  if (!(
    status === undefined ||
    status === null ||
    (Number.isInteger(status) && (status as number) >= 0 && (status as number) <= 65535)
  ))
    return 'status must be null or a whole number';
  let err: CheckResult['error'] = null;
  if (error !== undefined && error !== null) {
    if (!isObject(error) || !(CHECK_ERROR_CODES as readonly unknown[]).includes(error.code))
      return 'error.code must be one of the documented check error codes';
    if (
      typeof error.message !== 'string' ||
      error.message.length > MESSAGE_MAX ||
      textProblem(error.message, { lines: true })
    )
      return `error.message must be text of at most ${MESSAGE_MAX} characters`;
    err = { code: error.code as CheckErrorCode, message: error.message };
  }
  if (outcome === 'down' && err === null) return 'a down result names its error';
  let c: CheckResult['cert'] = null;
  if (cert !== undefined && cert !== null) {
    if (!isObject(cert) || typeof cert.not_after !== 'number' || !Number.isFinite(cert.not_after))
      return 'cert.not_after must be epoch milliseconds';
    const texts = [cert.issuer, cert.subject];
    if (!texts.every((t) => typeof t === 'string' && t.length <= CERT_TEXT_MAX && !textProblem(t)))
      return `cert.issuer and cert.subject must be one line of at most ${CERT_TEXT_MAX} characters`;
    c = { not_after: cert.not_after, issuer: cert.issuer as string, subject: cert.subject as string };
  }
  if (!(
    detail === undefined ||
    detail === null ||
    (typeof detail === 'string' && detail.length <= DETAIL_MAX && !textProblem(detail, { lines: true }))
  ))
    return `detail must be null or text of at most ${DETAIL_MAX} characters`;
  return {
    at_ms: at,
    outcome: outcome as Outcome,
    latency_ms: (latency_ms ?? null) as number | null,
    phases: ph,
    status: (status ?? null) as number | null,
    error: err,
    cert: c,
    detail: (detail ?? null) as string | null,
  };
}
