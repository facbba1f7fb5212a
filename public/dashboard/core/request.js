// One request to /api/v1, as every dashboard request is sent: JSON in and out with the session
// cookie (the browser adds the Origin header to every request that changes something), tried
// again while the service cannot be reached (offline.js). Any answer that is not a success
// rejects with an ApiFailure; asking the owner to sign in again or confirm is api.js's part.
import { ApiFailure } from '../../shared/errors.js';
import { backOnline, waitUntilRetry } from './offline.js';

/** A fresh Idempotency-Key: a POST repeated (after a lost answer, a sign-in) never does the work twice. */
export function idempotencyKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return 'dash-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Sends one request until it gets an answer; resolves the answer's JSON (null for an empty
 * answer). `opts.raw` sends the body as is with `opts.type` (an upload); `opts.key` is the
 * Idempotency-Key to send.
 */
export function request(method, path, body, opts = {}) {
  return tracked(async () => {
    for (;;) {
      const headers = { Accept: 'application/json' };
      // The API takes a change from a session only as JSON (a DELETE too, though it has no body).
      if (method !== 'GET') headers['Content-Type'] = opts.raw ? opts.type : 'application/json';
      if (opts.key) headers['Idempotency-Key'] = opts.key;
      let res;
      try {
        res = await fetch('/api/v1/' + path, {
          method,
          credentials: 'same-origin',
          headers,
          body: body === undefined ? undefined : opts.raw ? body : JSON.stringify(body),
        });
      } catch {
        await waitUntilRetry();
        continue;
      }
      // A proxy in front answers 502/504 while the service restarts: as good as offline.
      if (res.status === 502 || res.status === 504) {
        await waitUntilRetry();
        continue;
      }
      backOnline();
      if (res.ok) {
        const text = await res.text();
        return text ? JSON.parse(text) : null;
      }
      const json = await res.json().catch(() => null);
      throw new ApiFailure(res.status, json, Number(res.headers.get('Retry-After')) || null);
    }
  });
}

// Requests in flight, so that work which can wait (installing the service worker) waits until
// the page has what it needs.
let inFlight = 0;
let lastDone = 0;
const idleWaiters = new Set();

/** Runs `work` counted as a request in flight (api.js counts a request with its dialogs). */
export async function tracked(work) {
  inFlight += 1;
  try {
    return await work();
  } finally {
    inFlight -= 1;
    lastDone = performance.now();
    if (inFlight === 0) for (const w of [...idleWaiters]) w();
  }
}

/** Resolves once the page has loaded and no request has been in flight for `quietMs`. */
export function afterFirstLoad(quietMs = 1000) {
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise((r) => window.addEventListener('load', r, { once: true }));
  return loaded.then(
    () =>
      new Promise((resolve) => {
        const attempt = () => {
          idleWaiters.delete(attempt);
          if (inFlight > 0) {
            idleWaiters.add(attempt);
            return;
          }
          setTimeout(
            () => (inFlight === 0 && performance.now() - lastDone >= quietMs ? resolve() : attempt()),
            quietMs,
          );
        };
        attempt();
      }),
  );
}
