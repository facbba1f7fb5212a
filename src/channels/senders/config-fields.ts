/**
 * Small checks the kinds' parseConfig share: a plain object with known fields only, and a
 * receiver URL. Errors carry dotted paths from the channel body (`config.url`). Pure.
 */
import type { FieldError } from '../../common/http/api-error';
import { isMask } from '../../common/secrets/secrets';

export const URL_MAX = 2048;

export type Plain = Record<string, unknown>;

export function isPlain(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Errors for a config that is not an object, or that has fields this kind does not know. */
export function shapeErrors(raw: unknown, known: readonly string[]): FieldError[] {
  if (!isPlain(raw)) return [{ field: 'config', message: 'must be an object' }];
  return Object.keys(raw)
    .filter((k) => !known.includes(k))
    .map((k) => ({ field: `config.${k}`, message: `unknown field (allowed: ${known.join(', ')})` }));
}

/**
 * Why a receiver URL is refused, or null. http:// is allowed as well as https:// (a Mattermost or
 * Home Assistant on the LAN often has no certificate); whether a private address may be reached is
 * the allow_private_targets setting's business, judged when sending. ******** passes: the caller
 * keeps the stored URL.
 */
export function receiverUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return 'must be a URL starting with https:// or http://';
  if (isMask(value)) return null;
  if (value.length > URL_MAX) return `must be at most ${URL_MAX} characters`;
  if (/[\u0000-\u0020\u007f-\u009f]/.test(value)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL starting with https:// or http://';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
  if (!url.hostname) return 'must name a host';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not have a #fragment (it is never sent)';
  return null;
}
