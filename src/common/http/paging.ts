/**
 * The one helper for lists: every list route reads `limit` and `before` through `pageQuery` and
 * builds `{items, next_cursor}` through `toPage` (or `pageOf` + `pageJson` when its items are
 * JSON text already). A route chooses its limit rule (default 50, 1-500 unless the spec says
 * otherwise) and its cursor codec. Values outside the documented range are 422, never silently
 * capped.
 */
import { ApiError, FieldError } from './api-error';

export type CursorValue = string | number;

export interface Page<T> {
  items: T[];
  next_cursor: CursorValue | null;
}

export interface LimitRule {
  default: number;
  min: number;
  max: number;
}

export const DEFAULT_LIMIT: LimitRule = { default: 50, min: 1, max: 500 };

/**
 * How a route writes its cursor into `next_cursor` and reads it back from `before`. A cursor is
 * the sort key of the last item shown, so the next page starts strictly after it.
 */
export interface CursorCodec<C> {
  /** null when the text is not a cursor this route could have handed out. */
  parse(text: string): C | null;
  format(cursor: C): CursorValue;
  /** Named in the 422 message so a client can tell what went wrong. */
  shape?: string;
}

/** Ids and epoch milliseconds: anything larger than a safe integer was never handed out. */
function parseSafeInt(text: string): number | null {
  if (!/^\d{1,16}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

export const ID_CURSOR: CursorCodec<number> = { parse: parseSafeInt, format: (id) => id };

/** Lists in time order where two items can share a millisecond: `<epoch_ms>:<id>`, the id breaking ties. */
export interface TimeIdCursor {
  at: number;
  id: number;
}

export const TIME_ID_CURSOR: CursorCodec<TimeIdCursor> = {
  parse(text) {
    const m = /^(\d{1,15}):(\d{1,15})$/.exec(text);
    return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
  },
  format: (c) => `${c.at}:${c.id}`,
  shape: '<epoch_ms>:<number>',
};
export const EPOCH_CURSOR: CursorCodec<number> = {
  parse: parseSafeInt,
  format: (ms) => ms,
  shape: 'epoch milliseconds',
};

export interface PageQuery<C> {
  limit: number;
  /** The decoded cursor, or null for the first page. */
  before: C | null;
}

type Read<T> = { ok: true; value: T } | { ok: false; error: FieldError };

/** Reads an integer query parameter in [min, max]; absent → default. */
export function intQuery(name: string, raw: unknown, rule: LimitRule): number {
  const n = readInt(name, raw, rule);
  if (!n.ok) throw ApiError.invalid([n.error]);
  return n.value;
}

/** Reads `limit` and `before`; when both are wrong, both are reported (limit first). */
export function pageQuery<C>(
  query: Record<string, unknown>,
  codec: CursorCodec<C>,
  rule: LimitRule = DEFAULT_LIMIT,
): PageQuery<C> {
  const limit = readInt('limit', query.limit, rule);
  const before = readCursor(query.before, codec);
  if (!limit.ok || !before.ok) throw ApiError.invalid([limit, before].flatMap((r) => (r.ok ? [] : [r.error])));
  return { limit: limit.value, before: before.value };
}

function readInt(name: string, raw: unknown, rule: LimitRule): Read<number> {
  if (raw === undefined || raw === '') return { ok: true, value: rule.default };
  const n = typeof raw === 'string' && /^-?\d{1,16}$/.test(raw) ? Number(raw) : null;
  if (n === null)
    return { ok: false, error: { field: name, message: `must be an integer from ${rule.min} to ${rule.max}` } };
  if (n < rule.min || n > rule.max)
    return { ok: false, error: { field: name, message: `must be from ${rule.min} to ${rule.max}` } };
  return { ok: true, value: n };
}

function readCursor<C>(raw: unknown, codec: CursorCodec<C>): Read<C | null> {
  if (raw === undefined || raw === '') return { ok: true, value: null };
  // A repeated parameter arrives as an array; the length cap keeps codecs away from huge input.
  const cursor = typeof raw === 'string' && raw.length <= 100 ? codec.parse(raw) : null;
  if (cursor !== null) return { ok: true, value: cursor };
  const shape = codec.shape ? ` (${codec.shape})` : '';
  return { ok: false, error: { field: 'before', message: `must be the next_cursor of a previous page${shape}` } };
}

/**
 * The page shown from up to limit+1 rows fetched in cursor order: the extra row only says that
 * another page exists; the cursor is taken from the last row shown.
 */
export function pageOf<R>(rows: R[], limit: number, cursorOf: (r: R) => CursorValue): Page<R> {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { items: shown, next_cursor: more ? cursorOf(shown[shown.length - 1]) : null };
}

/** pageOf, with each shown row mapped to its answer. */
export function toPage<R, T>(rows: R[], limit: number, map: (r: R) => T, cursorOf: (r: R) => CursorValue): Page<T> {
  const page = pageOf(rows, limit, cursorOf);
  return { items: page.items.map(map), next_cursor: page.next_cursor };
}

const ITEMS_OPEN = Buffer.from('{"items":[');

/** One item of pageJson: its UTF-8 JSON led by a comma, so that a page is one piece per item. */
export function commaLedJson(value: unknown): Buffer {
  return Buffer.from(`,${JSON.stringify(value)}`);
}

/**
 * The answer of a page whose items are UTF-8 JSON already (kept per item by the caller, each made
 * by commaLedJson), as the pieces to write one after the other: no page-sized string or buffer is
 * built for each answer (a megabyte for 500 monitors, whose collection cost more than the rest of
 * the request), and one piece per item, the first without its comma (a page of 500 was 1,000
 * pieces, each a write through the response).
 */
export function pageJson(page: Page<Buffer>): Buffer[] {
  const parts: Buffer[] = [ITEMS_OPEN];
  page.items.forEach((item, i) => parts.push(i === 0 ? item.subarray(1) : item));
  parts.push(Buffer.from(`],"next_cursor":${JSON.stringify(page.next_cursor)}}`));
  return parts;
}
