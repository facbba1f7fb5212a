/**
 * JSON rules of http monitors: a small path language (`$.a.b[0]`, `$["key with space"]`) and the
 * comparison of the value found there. Pure: the checker parses the body, this says why it failed.
 *
 * Comparison rules (docs/checks.md repeats them for users):
 * - `==` / `!=` compare JSON values of the same type; the one coercion is between a number and a
 *   numeric string (`"42" == 42`), because values often reach us typed by hand. Objects and arrays
 *   never equal a scalar.
 * - `<`, `<=`, `>`, `>=` need both sides to be numbers or numeric strings.
 * - `contains`: a string contains the text (case-sensitive); an array contains an element that is
 *   `==` to the value.
 * - `exists` passes for any value, null included; `not_exists` passes when the path leads nowhere.
 */
import type { JsonRule } from '../kinds';
import { clip } from './clip';

export type PathSegment = string | number;
export type ParsedJsonPath = { ok: true; segments: PathSegment[] } | { ok: false; message: string };
type Scalar = string | number | boolean | null;

const MAX_PATH_LENGTH = 200;
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*/;
const INDEX = /^\[(0|[1-9]\d{0,5})\]/;
const QUOTED = /^\[(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\]/;
const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const SHAPE = 'write it like $.a.b[0] or $["key with space"]';

export function parseJsonPath(path: string): ParsedJsonPath {
  if (path.length > MAX_PATH_LENGTH) {
    return { ok: false, message: `json path is longer than ${MAX_PATH_LENGTH} characters` };
  }
  if (!path.startsWith('$')) return { ok: false, message: `json path must start with $; ${SHAPE}` };
  const segments: PathSegment[] = [];
  let rest = path.slice(1);
  while (rest !== '') {
    const step = readSegment(rest);
    if (!step) {
      const at = path.length - rest.length;
      return { ok: false, message: `json path "${path}" is not understood at position ${at}; ${SHAPE}` };
    }
    segments.push(step.segment);
    rest = rest.slice(step.length);
  }
  return { ok: true, segments };
}

function readSegment(text: string): { segment: PathSegment; length: number } | null {
  if (text.startsWith('.')) {
    const m = NAME.exec(text.slice(1));
    return m ? { segment: m[0], length: m[0].length + 1 } : null;
  }
  const index = INDEX.exec(text);
  if (index) return { segment: Number(index[1]), length: index[0].length };
  const quoted = QUOTED.exec(text);
  if (quoted) {
    const raw = quoted[1] ?? quoted[2];
    return { segment: raw.replace(/\\(.)/g, '$1'), length: quoted[0].length };
  }
  return null;
}

/** Returns null when the rule holds, otherwise a message that says why not. */
export function evaluateJsonRule(rule: JsonRule, body: unknown): string | null {
  const parsed = parseJsonPath(rule.path);
  if (!parsed.ok) return parsed.message;
  const found = lookup(body, parsed.segments);
  const at = rule.path;
  if (rule.op === 'exists') return found.exists ? null : `${at}: not found`;
  if (rule.op === 'not_exists') {
    return found.exists ? `${at}: expected not to exist, got ${show(found.value)}` : null;
  }
  if (rule.value === undefined) return `${at}: the rule has no value to compare with`;
  const expectation = `${rule.op} ${show(rule.value)}`;
  if (!found.exists) return `${at}: not found (expected ${expectation})`;
  const failure = compare(rule.op, found.value, rule.value);
  return failure === null ? null : `${at}: expected ${expectation}, ${failure}`;
}

/** null when `actual op expected` holds, otherwise the tail of the message. */
function compare(op: JsonRule['op'], actual: unknown, expected: Scalar): string | null {
  const got = `got ${show(actual)}`;
  switch (op) {
    case '==':
      return valuesEqual(actual, expected) ? null : got;
    case '!=':
      return valuesEqual(actual, expected) ? got : null;
    case 'contains':
      return containsValue(actual, expected);
    default: {
      const a = asNumber(actual);
      const e = asNumber(expected);
      if (a === null || e === null) return `but only numbers can be compared; ${got}`;
      return orderHolds(op, a, e) ? null : got;
    }
  }
}

function orderHolds(op: JsonRule['op'], a: number, e: number): boolean {
  if (op === '<') return a < e;
  if (op === '<=') return a <= e;
  if (op === '>') return a > e;
  return a >= e;
}

function containsValue(actual: unknown, expected: Scalar): string | null {
  if (typeof actual === 'string') {
    const needle = typeof expected === 'string' ? expected : JSON.stringify(expected);
    return actual.includes(needle) ? null : `got ${show(actual)}`;
  }
  if (Array.isArray(actual)) {
    return actual.some((item) => valuesEqual(item, expected)) ? null : `got ${show(actual)}`;
  }
  return `but contains needs a string or an array; got ${show(actual)}`;
}

function valuesEqual(actual: unknown, expected: Scalar): boolean {
  const numberAndString =
    (typeof actual === 'number' && typeof expected === 'string') ||
    (typeof actual === 'string' && typeof expected === 'number');
  if (!numberAndString) return actual === expected;
  const a = asNumber(actual);
  return a !== null && a === asNumber(expected);
}

function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return null;
}

function lookup(root: unknown, segments: PathSegment[]): { exists: boolean; value?: unknown } {
  let value = root;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(value) || segment >= value.length) return { exists: false };
      value = value[segment];
    } else {
      if (!isObject(value) || !Object.prototype.hasOwnProperty.call(value, segment)) return { exists: false };
      value = value[segment];
    }
  }
  return { exists: true, value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  return clip(JSON.stringify(value) ?? String(value), 80);
}
