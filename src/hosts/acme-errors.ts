/**
 * What went wrong with a certificate order, in words an owner can act on, and the CA's
 * Retry-After. Pure. A hostile or broken CA may answer anything: only a bounded, single-line,
 * printable excerpt of what it said is ever shown.
 */

const MAX_DETAIL = 300;
const MAX_RETRY_AFTER_MS = 7 * 24 * 3_600_000;

export function describeAcmeError(err: unknown, directory: string, timeoutMs: number): string {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(err);
  const ca = `the ACME server at ${directory}`;
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout of \d+ms exceeded/.test(message))
    return `${ca} did not answer within ${timeoutMs / 1000} s`;
  if (code === 'ECONNREFUSED') return `could not connect to ${ca} (connection refused)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `could not resolve the name of ${ca}`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `${ca} closed the connection`;
  if (
    /certificate|self[- ]signed|CERT_|UNABLE_TO_VERIFY/i.test(code) ||
    /self[- ]signed certificate|unable to verify/i.test(message)
  ) {
    return `${ca} presented a certificate this server does not trust (${clean(code || message)}); FARSIGHT_ACME_CA_FILE adds a CA for a private ACME server`;
  }
  if (/Unable to locate API resource URL in ACME directory|read ACME directory/.test(message)) {
    return `${ca} did not answer with an ACME directory (${clean(message)})`;
  }
  if (/Cannot read properties of undefined/.test(message))
    return `${ca} did not answer properly (the connection failed)`;
  if (message === 'Unexpected end of JSON input' || /JSON/.test(message))
    return `${ca} answered something that is not ACME (${clean(message)})`;
  return `${ca} refused the order: ${clean(message) || 'no reason given'}`;
}

/** Printable, one line, bounded. */
export function clean(text: string): string {
  const one = text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > MAX_DETAIL ? `${one.slice(0, MAX_DETAIL - 1)}…` : one;
}

/** A Retry-After header (seconds or an HTTP date) as milliseconds from `now`, capped at a week; null when absent or unreadable. */
export function parseRetryAfter(value: unknown, now: number): number | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  // An HTTP date names its weekday and month; anything else that is not whole seconds is unreadable.
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : /GMT$/.test(text) ? Date.parse(text) - now : NaN;
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** Whether an ACME answer is a rate limit (RFC 8555 6.6). */
export function isRateLimit(status: number, body: unknown): boolean {
  const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
  return status === 429 || type === 'urn:ietf:params:acme:error:rateLimited';
}
