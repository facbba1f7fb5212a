/**
 * `expect_status`: which protocol status codes count as good, written like `200-299,401`.
 * The monitors validator shows parse messages to users as they are.
 */
import { clip } from './clip';

export type StatusRange = [lo: number, hi: number];

export type ParsedExpectStatus = { ok: true; ranges: StatusRange[] } | { ok: false; message: string };

const MAX_PARTS = 20;
const MIN_CODE = 100;
const MAX_CODE = 599;
const PART = /^(\d{1,3})(?:\s*-\s*(\d{1,3}))?$/;
const EXAMPLE = 'use codes and ranges like 200-299,401';

export function parseExpectStatus(text: string): ParsedExpectStatus {
  if (text.trim() === '') return { ok: false, message: `expected status is empty; ${EXAMPLE}` };
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > MAX_PARTS) {
    return { ok: false, message: `at most ${MAX_PARTS} codes or ranges, got ${parts.length}` };
  }
  const ranges: StatusRange[] = [];
  for (const part of parts) {
    if (part === '') return { ok: false, message: `an entry between commas is empty; ${EXAMPLE}` };
    const m = PART.exec(part);
    if (!m) return { ok: false, message: `"${clip(part, 20)}" is not a status code or range; ${EXAMPLE}` };
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    const outside = [lo, hi].find((code) => code < MIN_CODE || code > MAX_CODE);
    if (outside !== undefined) {
      return { ok: false, message: `${outside} is not an HTTP status code (${MIN_CODE}-${MAX_CODE})` };
    }
    if (lo > hi) return { ok: false, message: `range ${lo}-${hi} runs backwards; write ${hi}-${lo}` };
    ranges.push([lo, hi]);
  }
  return { ok: true, ranges };
}

export function statusMatches(ranges: readonly StatusRange[], code: number): boolean {
  return ranges.some(([lo, hi]) => code >= lo && code <= hi);
}
