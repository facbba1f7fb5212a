/**
 * The body of the status page's own forms (application/x-www-form-urlencoded, read here: the
 * JSON body layer leaves `/status/subscribe` and `/status/unsubscribe/` alone, body-parsing.ts).
 * Small: FORM_LIMIT bytes at most, the first value of each field, UTF-8.
 */
import type { Request } from 'express';
import { ApiError } from '../common/http/api-error';
import { readRawBody } from '../status/uploads/raw-body';

export const FORM_LIMIT = 4 * 1024;

export async function readForm(req: Request): Promise<Record<string, string>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const raw = await readRawBody(req, FORM_LIMIT);
  if (raw.length === 0) return {};
  // RFC 8058's one-click POST is a form too; anything else is refused rather than guessed at.
  if (type !== 'application/x-www-form-urlencoded')
    throw new ApiError('bad_request', 'send the form as application/x-www-form-urlencoded');
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) if (!(k in out)) out[k] = v;
  return out;
}
