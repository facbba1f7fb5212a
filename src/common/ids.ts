import { ApiError } from './api-error';

/** Whether a text is an id this service hands out: a positive integer of at most 15 digits. */
export function isIdText(raw: unknown): raw is string {
  return typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw);
}

/** Parses a numeric path id; anything else names no resource, so it is a 404. */
export function parseId(raw: string, what: string): number {
  if (!isIdText(raw)) throw ApiError.notFound(what);
  return Number(raw);
}
