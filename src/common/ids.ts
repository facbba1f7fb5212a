import { ApiError } from './api-error';

/** Parses a numeric path id; anything else names no resource, so it is a 404. */
export function parseId(raw: string, what: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw ApiError.notFound(what);
  return Number(raw);
}
