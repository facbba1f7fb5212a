/**
 * Following redirects, decided without I/O. Up to 5 hops are followed; the 6th redirect, a
 * redirect back to a URL already visited, or one to a scheme other than http(s) fails with
 * `redirects`. Methods change like browsers do: 303 turns anything but HEAD into GET, 301 and 302
 * turn POST into GET; 307 and 308 keep method and body.
 */
import type { CheckError } from '../check-result';
import { failure } from './result-builders';

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface Hop {
  url: URL;
  method: string;
  /** False once a redirect turned the request into a GET: the body is not sent again. */
  sendBody: boolean;
}

export type NextStep = { kind: 'final' } | { kind: 'follow'; hop: Hop } | { kind: 'error'; error: CheckError };

/** `visited` holds hopKey() of every hop made so far, the current one included. */
export function nextStep(
  current: Hop,
  status: number,
  location: string | undefined,
  visited: ReadonlySet<string>,
): NextStep {
  if (!REDIRECT_STATUSES.has(status) || !location) return { kind: 'final' };
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch {
    return {
      kind: 'error',
      error: failure('protocol', `${describeUrl(current.url)} redirected to an invalid location`),
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'error', error: failure('redirects', `redirect to unsupported scheme ${url.protocol}`) };
  }
  const method = redirectedMethod(status, current.method);
  const hop: Hop = { url, method, sendBody: current.sendBody && method === current.method };
  if (visited.has(hopKey(hop))) {
    return {
      kind: 'error',
      error: failure('redirects', `redirect loop: ${describeUrl(current.url)} leads back to ${describeUrl(url)}`),
    };
  }
  if (visited.size > MAX_REDIRECTS) {
    return {
      kind: 'error',
      error: failure(
        'redirects',
        `more than ${MAX_REDIRECTS} redirects (the last one from ${describeUrl(current.url)})`,
      ),
    };
  }
  return { kind: 'follow', hop };
}

export function hopKey(hop: Hop): string {
  const url = new URL(hop.url);
  url.hash = '';
  return `${hop.method} ${url.href}`;
}

/** A URL safe to show: no credentials, query or fragment (they may carry tokens). */
export function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function redirectedMethod(status: number, method: string): string {
  if (status === 303) return method === 'HEAD' ? 'HEAD' : 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}
