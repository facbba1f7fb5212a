/**
 * The content security policy of the dashboard's pages: our own scripts, styles and API, nothing
 * inline, no framing. With a bot challenge configured the sign-in pages also load the challenge
 * widget (Cloudflare Turnstile's script and its frame), and nothing else from outside. Pure.
 */
import { TURNSTILE_ORIGIN } from '../common/http/security-headers';

export { TURNSTILE_ORIGIN };
export const TURNSTILE_SCRIPT = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js?render=explicit`;

export function pageCsp(opts: { challenge: boolean; app?: boolean }): string {
  const extra = opts.challenge ? ` ${TURNSTILE_ORIGIN}` : '';
  return [
    "default-src 'none'",
    `script-src 'self'${extra}`,
    "style-src 'self'",
    // The dashboard shows uploaded logos and icons drawn in a canvas (blob: and data: URLs).
    opts.app ? "img-src 'self' data: blob:" : "img-src 'self' data:",
    `connect-src 'self'${extra}`,
    ...(opts.challenge ? [`frame-src ${TURNSTILE_ORIGIN}`] : []),
    // The installable dashboard: its manifest and its service worker, both our own.
    // ... and the status page preview, drawn in a frame from the page's own stylesheet and fonts.
    ...(opts.app ? ["font-src 'self'", "frame-src 'self'", "manifest-src 'self'", "worker-src 'self'"] : []),
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
