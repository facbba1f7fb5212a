/**
 * Judges what an http check collected. The first rule that fails decides the error, in this
 * order: status, header, body_contains, body_not_contains, json rules, max_ms (a wrong answer is
 * worth more to the reader than a slow one).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CheckError } from '../check-result';
import type { HttpSettings } from '../kinds';
import { clip } from './clip';
import { ParsedExpectStatus, parseExpectStatus, statusMatches } from './expect-status';
import { evaluateJsonRule } from './json-path';

export type HttpRules = Pick<
  HttpSettings,
  'expect_status' | 'expect_header' | 'body_contains' | 'body_not_contains' | 'json' | 'max_ms'
>;

export interface HttpFacts {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first 1 MB of the body, or null when no rule needed it. */
  body: Buffer | null;
  /** True when the body was longer than what we read. */
  truncated: boolean;
  latency_ms: number;
}

// Response headers that may carry credentials are never quoted in messages.
const SECRET_HEADER = /cookie|authorization|token|key|secret|password|session/i;

export function judgeHttpResponse(rules: HttpRules, facts: HttpFacts): CheckError | null {
  return (
    judgeStatus(rules.expect_status, facts.status) ??
    judgeHeader(rules.expect_header, facts.headers) ??
    judgeBody(rules, facts) ??
    judgeMaxMs(rules.max_ms, facts.latency_ms)
  );
}

/** True when some rule reads the body, so the checker must keep its first 1 MB. */
export function rulesNeedBody(rules: HttpRules): boolean {
  return rules.body_contains !== null || rules.body_not_contains !== null || rules.json.length > 0;
}

/**
 * expect_status as parsed, by its text: every check of an http monitor judges its status, and a
 * box holds few distinct texts (the default `200-299` for most). Cleared when it grows past 1,000.
 */
const parsedStatus = new Map<string, ParsedExpectStatus>();

function parsedExpectStatus(text: string): ParsedExpectStatus {
  let parsed = parsedStatus.get(text);
  if (!parsed) {
    if (parsedStatus.size >= 1000) parsedStatus.clear();
    parsed = parseExpectStatus(text);
    parsedStatus.set(text, parsed);
  }
  return parsed;
}

function judgeStatus(expectStatus: string, status: number): CheckError | null {
  const parsed = parsedExpectStatus(expectStatus);
  if (!parsed.ok) return { code: 'status', message: `expect_status is not valid: ${parsed.message}` };
  if (statusMatches(parsed.ranges, status)) return null;
  return { code: 'status', message: `expected status ${expectStatus.replace(/\s+/g, '')}, got ${status}` };
}

function judgeHeader(rule: HttpRules['expect_header'], headers: IncomingHttpHeaders): CheckError | null {
  if (!rule) return null;
  const name = rule.name.toLowerCase();
  const raw = headers[name];
  if (raw === undefined) return { code: 'header', message: `header ${name} is missing` };
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value.includes(rule.contains)) return null;
  const got = SECRET_HEADER.test(name) ? '' : `, got ${JSON.stringify(clip(value))}`;
  return { code: 'header', message: `header ${name}: expected to contain ${JSON.stringify(rule.contains)}${got}` };
}

function judgeBody(rules: HttpRules, facts: HttpFacts): CheckError | null {
  if (!rulesNeedBody(rules)) return null;
  const text = (facts.body ?? Buffer.alloc(0)).toString('utf8');
  const scope = facts.truncated ? 'the first 1 MB of the body' : 'body';
  if (rules.body_contains !== null && !text.includes(rules.body_contains)) {
    return { code: 'body', message: `${scope} does not contain ${JSON.stringify(rules.body_contains)}` };
  }
  if (rules.body_not_contains !== null && text.includes(rules.body_not_contains)) {
    return { code: 'body', message: `${scope} contains ${JSON.stringify(rules.body_not_contains)}` };
  }
  if (rules.json.length === 0) return null;
  if (facts.truncated) {
    return { code: 'json', message: 'body is larger than 1 MB, so it cannot be read as JSON' };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return { code: 'json', message: parsed.message };
  for (const rule of rules.json) {
    const message = evaluateJsonRule(rule, parsed.value);
    if (message !== null) return { code: 'json', message };
  }
  return null;
}

function judgeMaxMs(maxMs: number | null, latencyMs: number): CheckError | null {
  if (maxMs === null || latencyMs <= maxMs) return null;
  return { code: 'too_slow', message: `took ${Math.round(latencyMs)} ms, more than max_ms ${maxMs}` };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'body is empty, not JSON' };
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch {
    return { ok: false, message: `body is not JSON (it starts with ${JSON.stringify(clip(text, 40))})` };
  }
}
