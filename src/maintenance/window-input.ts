/**
 * What the maintenance routes accept (docs/maintenance.md): a window's body for POST (every
 * required field) and PATCH (only the fields sent), the list's `state` filter and the start body.
 * Pure; every problem is a field error, and nothing is stored unless the whole body is right.
 */
import { ApiError, FieldError } from '../common/http/api-error';
import { parseIso } from '../common/time';
import { textProblem } from '../common/validation/text-rules';
import { requireObjectBody } from '../common/validation/validation';
import type { Schedule } from '../engine/maintenance/schedule';
import { parseSchedule } from '../engine/maintenance/schedule-input';
import type { WindowState } from '../engine/maintenance/window-state';

export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 2000;
export const ANNOUNCE_H = { min: 0, max: 168, default: 24 };
/** A window names at most this many monitors (null covers them all). */
export const MONITORS_MAX = 1000;
const FIELDS = ['title', 'description', 'monitors', 'schedule', 'public', 'announce_h'];
export const WINDOW_STATES = ['scheduled', 'active', 'ended'] as const;

export interface WindowInput {
  title: string;
  description: string | null;
  /** Monitor ids as sent (checked against the catalog by the service). */
  monitors: number[] | null;
  schedule: Schedule;
  public: boolean;
  announce_h: number;
}

/** POST (`partial` false: title and schedule required) or PATCH (`partial`: only what is sent). */
export function parseWindowInput(body: unknown, partial: false): WindowInput;
export function parseWindowInput(body: unknown, partial: true): Partial<WindowInput>;
export function parseWindowInput(body: unknown, partial: boolean): Partial<WindowInput> {
  requireObjectBody(body);
  const errors: FieldError[] = [];
  const out: Partial<WindowInput> = {};
  for (const key of Object.keys(body)) {
    if (!FIELDS.includes(key))
      errors.push({ field: key.slice(0, 60), message: `unknown field (a window takes ${FIELDS.join(', ')})` });
  }
  if ('title' in body || !partial) {
    const t = body.title;
    const problem =
      typeof t !== 'string' ? 'is needed: a short title such as "Router firmware update"' : titleProblem(t);
    if (problem) errors.push({ field: 'title', message: problem });
    else out.title = (t as string).trim();
  }
  if ('description' in body) {
    const d = body.description;
    if (d === null || d === '') out.description = null;
    else if (typeof d !== 'string') errors.push({ field: 'description', message: 'must be text or null' });
    else if (d.length > DESCRIPTION_MAX)
      errors.push({ field: 'description', message: `at most ${DESCRIPTION_MAX} characters` });
    else {
      const problem = textProblem(d, { lines: true });
      if (problem) errors.push({ field: 'description', message: problem });
      else out.description = d;
    }
  } else if (!partial) out.description = null;
  if ('monitors' in body) {
    const v = body.monitors;
    if (v === null) out.monitors = null;
    else if (!Array.isArray(v) || v.length > MONITORS_MAX)
      errors.push({
        field: 'monitors',
        message: `must be null (every monitor) or a list of at most ${MONITORS_MAX} monitor ids`,
      });
    else {
      const bad = v.findIndex((id) => !(typeof id === 'number' && Number.isSafeInteger(id) && id > 0));
      if (bad >= 0)
        errors.push({ field: `monitors[${bad}]`, message: 'must be a monitor id (a positive whole number)' });
      else out.monitors = [...new Set(v as number[])];
    }
  } else if (!partial) out.monitors = null;
  if ('schedule' in body || !partial) {
    const s = parseSchedule(body.schedule);
    if (s.ok) out.schedule = s.schedule;
    else errors.push(...s.errors);
  }
  if ('public' in body) {
    if (typeof body.public === 'boolean') out.public = body.public;
    else errors.push({ field: 'public', message: 'must be true or false' });
  } else if (!partial) out.public = true;
  if ('announce_h' in body) {
    const a = body.announce_h;
    if (typeof a === 'number' && Number.isInteger(a) && a >= ANNOUNCE_H.min && a <= ANNOUNCE_H.max) out.announce_h = a;
    else
      errors.push({
        field: 'announce_h',
        message: `must be a whole number of hours from ${ANNOUNCE_H.min} to ${ANNOUNCE_H.max}`,
      });
  } else if (!partial) out.announce_h = ANNOUNCE_H.default;
  if (errors.length) throw ApiError.invalid(errors);
  return out;
}

function titleProblem(t: string): string | null {
  const trimmed = t.trim();
  if (trimmed.length < 1) return 'is needed: a short title such as "Router firmware update"';
  if (trimmed.length > TITLE_MAX) return `at most ${TITLE_MAX} characters`;
  return textProblem(trimmed);
}

/** `state` of GET /maintenance: one of the three, or absent for all. */
export function stateFilter(query: Record<string, unknown>): WindowState | null {
  const s = query.state;
  if (s === undefined || s === '') return null;
  if (typeof s === 'string' && (WINDOW_STATES as readonly string[]).includes(s)) return s as WindowState;
  throw ApiError.invalid([{ field: 'state', message: `must be one of ${WINDOW_STATES.join(', ')}` }]);
}

/** POST /maintenance/{id}/start: {end?}: an RFC 3339 time after now, or absent/null (until stopped). */
export function parseStartBody(body: unknown, now: number): number | null {
  if (body === undefined || body === null) return null;
  requireObjectBody(body);
  const errors: FieldError[] = [];
  for (const key of Object.keys(body))
    if (key !== 'end') errors.push({ field: key.slice(0, 60), message: 'unknown field (start takes end)' });
  let end: number | null = null;
  if (body.end !== undefined && body.end !== null) {
    const e = parseIso(body.end);
    if (e === null) errors.push({ field: 'end', message: 'must be an RFC 3339 time, or absent to run until stopped' });
    else if (e <= now) errors.push({ field: 'end', message: 'must be in the future' });
    else end = e;
  }
  if (errors.length) throw ApiError.invalid(errors);
  return end;
}

/** How many occurrences POST /maintenance/preview answers. */
export const PREVIEW_COUNT = 5;

/** POST /maintenance/preview: {schedule} only, checked as a window's schedule is. */
export function parsePreviewBody(body: unknown): Schedule {
  requireObjectBody(body);
  const errors: FieldError[] = [];
  for (const key of Object.keys(body))
    if (key !== 'schedule') errors.push({ field: key.slice(0, 60), message: 'unknown field (preview takes schedule)' });
  const s = parseSchedule(body.schedule);
  if (!s.ok) errors.push(...s.errors);
  if (errors.length || !s.ok) throw ApiError.invalid(errors);
  return s.schedule;
}
