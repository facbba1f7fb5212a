/**
 * The rules of status page subscriptions (docs/subscribers.md), pure: what an address must look
 * like, what a subscribe body may hold, how long a confirmation link lives and what a link that
 * was followed means now, and the throttle's sizes.
 */
import type { FieldError } from '../common/http/api-error';

/** A confirmation link works this long after it was mailed. */
export const CONFIRM_TTL_MS = 48 * 3_600_000;
/** Subscribe requests per address (pending or not, known or not) per hour. */
export const PER_ADDRESS_PER_HOUR = 3;
/** Subscribe requests per client network (an IPv4 /24, an IPv6 /64) per hour. */
export const PER_NETWORK_PER_HOUR = 10;
export const HOUR_MS = 3_600_000;

/** RFC 5321's limits: a path of 256 octets less the brackets; a local part of 64. */
export const EMAIL_MAX = 254;
const LOCAL_MAX = 64;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// RFC 5322 dot-atom: the quoted forms and comments are refused (no mail provider needs them here).
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

export type EmailCheck = { ok: true; email: string } | { ok: false; message: string };

/**
 * An address as subscriptions store it: lower case (one person, one row, however they typed it),
 * trimmed of surrounding spaces. Anything that could end a mail header (CR, LF, other control
 * characters) is refused outright, not cleaned: such an address is an attack, not a typo.
 */
export function checkEmail(v: unknown): EmailCheck {
  if (typeof v !== 'string') return { ok: false, message: 'must be an email address' };
  if (v.length > EMAIL_MAX + 100) return { ok: false, message: `must be at most ${EMAIL_MAX} characters` };
  if (/[\u0000-\u001f\u007f]/.test(v))
    return { ok: false, message: 'must not contain line breaks or control characters' };
  const email = v.trim().toLowerCase();
  if (email.length > EMAIL_MAX) return { ok: false, message: `must be at most ${EMAIL_MAX} characters` };
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return { ok: false, message: 'must be an email address (name@example.com)' };
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > LOCAL_MAX || !LOCAL.test(local))
    return { ok: false, message: 'must be an email address (name@example.com)' };
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1]))
    return {
      ok: false,
      message:
        'must be an email address with a domain name (name@example.com; an international domain in its xn-- form)',
    };
  return { ok: true, email };
}

export interface SubscribeBody {
  email: string;
  challenge: unknown;
}

/**
 * POST /api/public/subscribe {email, challenge}. `form`: the status page's own form, whose
 * challenge widget names its field `cf-turnstile-response` (Cloudflare Turnstile's name).
 */
export function parseSubscribeBody(
  body: unknown,
  form = false,
): { ok: true; value: SubscribeBody } | { ok: false; errors: FieldError[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, errors: [{ field: 'email', message: 'required' }] };
  const b = body as Record<string, unknown>;
  const known = form ? ['email', 'challenge', 'cf-turnstile-response'] : ['email', 'challenge'];
  const errors: FieldError[] = Object.keys(b)
    .filter((k) => !known.includes(k))
    .map((k) => ({ field: k.slice(0, 60), message: 'unknown field' }));
  const email = b.email === undefined ? ({ ok: false, message: 'required' } as const) : checkEmail(b.email);
  if (!email.ok) errors.unshift({ field: 'email', message: email.message });
  if (errors.length || !email.ok) return { ok: false, errors };
  return { ok: true, value: { email: email.email, challenge: b.challenge ?? b['cf-turnstile-response'] } };
}

/** What a confirmation link is now: the row it names (by its hash), if any. */
export interface ConfirmRow {
  confirm_expires_at: number | null;
  confirm_used_at: number | null;
}

export type LinkState = 'valid' | 'used' | 'expired' | 'unknown';

export function confirmLinkState(row: ConfirmRow | undefined, now: number): LinkState {
  if (!row) return 'unknown';
  if (row.confirm_used_at !== null) return 'used';
  if (row.confirm_expires_at === null || now >= row.confirm_expires_at) return 'expired';
  return 'valid';
}

/** A token as a path segment carries it: base64url of 32 bytes; anything else names no row. */
export function isTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
