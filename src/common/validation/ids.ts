import { ApiError } from '../http/api-error';

/*
 * The one id pattern and the one slug pattern. Validation tests texts against them and the route
 * description publishes the same strings (openapi/), so the document and the service cannot
 * disagree about what names a resource.
 *
 * An id is a positive integer of at most 15 digits: every such number is below 2^53, so a
 * JavaScript number holds it exactly. A slug is 1-60 of a-z, 0-9 and - (spec "Monitor fields").
 */
const ID_DIGITS = '[1-9][0-9]{0,14}';
const SLUG_CHARS = '[a-z0-9-]{1,60}';

export const ID_PATTERN = `^${ID_DIGITS}$`;
export const SLUG_PATTERN = `^${SLUG_CHARS}$`;
/** A monitor as every `/monitors/{id}` route names it: `<id>` or `slug:<slug>`. */
export const MONITOR_REF_PATTERN = `^(?:${ID_DIGITS}|slug:${SLUG_CHARS})$`;

const ID = new RegExp(ID_PATTERN);
export const SLUG = new RegExp(SLUG_PATTERN);

/** Whether a text is an id this service hands out. */
export function isIdText(raw: unknown): raw is string {
  return typeof raw === 'string' && ID.test(raw);
}

/** Whether a text is a monitor slug. */
export function isSlug(raw: unknown): raw is string {
  return typeof raw === 'string' && SLUG.test(raw);
}

/** Parses a numeric path id; anything else names no resource, so it is a 404. */
export function parseId(raw: string, what: string): number {
  if (!isIdText(raw)) throw ApiError.notFound(what);
  return Number(raw);
}
