/**
 * One watchdog ping (docs/watchdog.md): a GET of the owner's URL, bounded in time and in what is
 * read, with no redirect followed, judged into a line for diagnostics. The URL is a secret (it
 * carries a Healthchecks check's UUID): nothing returned here holds it.
 */
import { VERSION } from '../../common/version';

/** A ping that has not answered by then has failed (a hung receiver must not hold the service). */
export const PING_TIMEOUT_MS = 10_000;
/** The start of the answer kept for diagnostics. */
export const ANSWER_MAX = 200;

export interface PingResult {
  ok: boolean;
  /** The HTTP status, when an answer came. */
  status: number | null;
  /** "HTTP 200: OK", the start of the body; or null without an answer. */
  answer: string | null;
  /** Why it failed, in words; null when it did not. */
  error: string | null;
  ms: number;
}

/** Text from outside, made safe to show: control characters out, at most `max` characters. */
export function shown(text: string, max = ANSWER_MAX): string {
  const clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** The verdict on an answer: 2xx is a ping received; a redirect is not followed, so it is a failure. */
export function judge(status: number, location: string | null): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) {
    return `the URL answered a redirect (HTTP ${status}${location ? ` to ${shown(location, 120)}` : ''}), which the watchdog does not follow: use the final URL`;
  }
  return `the URL answered HTTP ${status}`;
}

export async function ping(url: string, timeoutMs = PING_TIMEOUT_MS): Promise<PingResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      method: 'GET',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'User-Agent': `Farsight/${VERSION} watchdog` },
    });
    const body = await firstBytes(res, 1024);
    const answer = `HTTP ${res.status}${body ? `: ${shown(body)}` : ''}`;
    const error = judge(res.status, res.headers.get('location'));
    return { ok: error === null, status: res.status, answer, error, ms: ms() };
  } catch (err) {
    return { ok: false, status: null, answer: null, error: failure(err, timeoutMs), ms: ms() };
  }
}

/** At most `max` bytes of the body, then the rest is dropped unread. */
async function firstBytes(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let got = 0;
  try {
    while (got < max) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      got += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts).subarray(0, max).toString('utf8');
}

/** Words for a ping that got no answer; never the URL (undici's messages name the address only). */
function failure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = e?.cause;
  if (cause?.code) return `the request failed: ${cause.code}${cause.message ? ` (${shown(cause.message, 120)})` : ''}`;
  return `the request failed: ${shown(e?.message ?? String(err), 120)}`;
}
