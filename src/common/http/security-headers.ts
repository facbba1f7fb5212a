import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/**
 * The content security policy of every answer that is not a page: nothing may load, nothing may
 * frame it. Pages (dashboard, status page) set their own policy, which replaces this one.
 */
export const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** Two years, as browsers' preload lists ask; sent only when the dashboard is served over https. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/** The headers every answer carries: express's, the heartbeat routes', the request-limit answers'. */
export function securityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': DEFAULT_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
  if (https) headers['Strict-Transport-Security'] = HSTS;
  return headers;
}

/**
 * Sets the headers on every response before any handler runs (installed last, so it runs first:
 * the heartbeat routes and the request limits answer ahead of express). A handler may still
 * replace one (a page's own Content-Security-Policy).
 */
export function installSecurityHeaders(server: Server, https: boolean): void {
  const headers = Object.entries(securityHeaders(https));
  const [next] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next(req, res);
  });
}

/**
 * The bot challenge's widget (Cloudflare Turnstile): the one origin the sign-in pages and the status
 * page's subscribe form may load it from (docs/subscribers.md).
 */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';
