/**
 * How a public answer goes out, in one place for both ways it is sent: through express by the
 * controller, and ahead of the framework by the fast path (public-fast-path.ts) once the answer
 * is built. The body is compressed as the client accepts (brotli, else gzip); its type, cache rule
 * and the route's own headers (a page's Content-Security-Policy, the JSON's CORS) come with it.
 */
import { pickEncoding } from '../../common/http/compression/accept-encoding';
import type { Packed } from '../../common/http/compression/compression';
import { TURNSTILE_ORIGIN } from '../../common/http/security-headers';

/**
 * The page runs one script of its own and nothing inline; everything it loads comes from here.
 * `form-action 'none'`: the page has no forms (the subscribe form relaxes it: homeCsp);
 * `frame-ancestors 'none'`: it is not framed.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Pages and the JSON are rebuilt at most every 30 s (spec: "page cached 30 s"). */
export const PAGE_CACHE = 'public, max-age=30';

const HTML = 'text/html; charset=utf-8';

/**
 * The home page with the subscribe form posts to itself (`form-action 'self'`), and with a bot
 * challenge loads its widget from the one origin allowed (docs/subscribers.md).
 */
export function homeCsp(subscribers: boolean, challenge: boolean): string {
  if (!subscribers) return PAGE_CSP;
  const csp = PAGE_CSP.replace("form-action 'none'", "form-action 'self'");
  if (!challenge) return csp;
  return csp
    .replace("script-src 'self'", `script-src 'self' ${TURNSTILE_ORIGIN}`)
    .replace("connect-src 'self'", `connect-src 'self' ${TURNSTILE_ORIGIN}`)
    .replace("frame-ancestors 'none'", `frame-src ${TURNSTILE_ORIGIN}; frame-ancestors 'none'`);
}

/** What is sent with a body besides its bytes: its type, cache rule and the route's own headers. */
export interface AnswerKind {
  type: string;
  cache: string;
  headers: Record<string, string>;
}

/** GET /api/public/status: public data without credentials, which other sites may show (a badge, a widget). */
export const PUBLIC_JSON: AnswerKind = {
  type: 'application/json; charset=utf-8',
  cache: PAGE_CACHE,
  headers: { 'Access-Control-Allow-Origin': '*' },
};

/** A page of the status page (home, a service, the history), with its Content-Security-Policy. */
export function pageKind(csp = PAGE_CSP): AnswerKind {
  return { type: HTML, cache: PAGE_CACHE, headers: { 'Content-Security-Policy': csp } };
}

/**
 * The body for this Accept-Encoding, as the buffers to write (json-parts.ts, endWithParts), and
 * every header that goes with it, Content-Length last.
 */
export function publicAnswer(
  acceptEncoding: string | undefined,
  packed: Packed,
  kind: AnswerKind,
): { body: readonly Buffer[]; headers: [string, string][] } {
  const encoding = pickEncoding(acceptEncoding);
  const body = packed.chunks(encoding);
  const headers: [string, string][] = [
    ['Content-Type', kind.type],
    ['Cache-Control', kind.cache],
    ['Vary', 'Accept-Encoding'],
  ];
  if (encoding !== 'identity') headers.push(['Content-Encoding', encoding]);
  for (const [name, value] of Object.entries(kind.headers)) headers.push([name, value]);
  headers.push(['Content-Length', String(encoding === 'identity' ? packed.length : body[0].length)]);
  return { body, headers };
}
