/**
 * The one helper for lists: `{items, next_cursor}` with `limit` (default 50, 1-500) and `before`.
 * Values outside the documented range are 422, never silently capped.
 */
import { invalidField } from './api-error';

export interface Page<T> {
  items: T[];
  next_cursor: string | number | null;
}

export interface PageQuery {
  limit: number;
  /** Raw cursor text, or null for the first page. */
  before: string | null;
}

export interface LimitRule {
  default: number;
  min: number;
  max: number;
}

export const DEFAULT_LIMIT: LimitRule = { default: 50, min: 1, max: 500 };

/** Reads an integer query parameter in [min, max]; absent → default. */
export function intQuery(name: string, raw: unknown, rule: LimitRule): number {
  if (raw === undefined || raw === '') return rule.default;
  if (typeof raw !== 'string' || !/^-?\d{1,16}$/.test(raw)) {
    throw invalidField(name, `must be an integer from ${rule.min} to ${rule.max}`);
  }
  const n = Number(raw);
  if (n < rule.min || n > rule.max) throw invalidField(name, `must be from ${rule.min} to ${rule.max}`);
  return n;
}

export function pageQuery(query: Record<string, unknown>, rule: LimitRule = DEFAULT_LIMIT): PageQuery {
  const before = query.before;
  if (before !== undefined && (typeof before !== 'string' || before.length > 100)) {
    throw invalidField('before', 'must be the next_cursor of a previous page');
  }
  return { limit: intQuery('limit', query.limit, rule), before: before === undefined || before === '' ? null : before };
}

/** Parses a `before` cursor that is a positive integer (an id or epoch ms). */
export function intCursor(before: string | null): number | null {
  if (before === null) return null;
  if (!/^\d{1,16}$/.test(before)) throw invalidField('before', 'must be the next_cursor of a previous page');
  return Number(before);
}

/**
 * Builds a page from up to limit+1 rows fetched in cursor order: the extra row only says that
 * another page exists; the cursor is taken from the last row shown.
 */
export function toPage<R, T>(rows: R[], limit: number, map: (r: R) => T, cursorOf: (r: R) => string | number): Page<T> {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { items: shown.map(map), next_cursor: more ? cursorOf(shown[shown.length - 1]) : null };
}
