// The one way the dashboard talks to /api/v1, for every page: a request (request.js: JSON with
// the session cookie, tried again while the service cannot be reached, offline.js) that, when the
// answer is
// - 401: opens the "signed out" dialog, signs in again in place, then repeats the request;
// - 403 step_up: opens the step-up dialog, confirms with a passkey or password + code, repeats;
// - anything else that is not a success: rejects with an ApiFailure (field-errors.js puts its
//   dotted field paths next to the inputs).
// A POST keeps one Idempotency-Key through its repeats, so a repeat never does the work twice.
// Nothing on the page is touched meanwhile, so what the owner typed is never lost.
import { idempotencyKey, request, tracked } from './request.js';
import { signInAgain, stepUp } from './reauth.js';

/**
 * Calls the API; resolves the answer's JSON (null for an empty answer). `opts.raw` sends the body
 * as is with `opts.type` (an upload); `opts.quiet` makes a 401 or step_up fail instead of asking.
 */
export function api(method, path, body, opts = {}) {
  const key = method === 'POST' ? idempotencyKey() : null;
  // Counted in flight with its dialogs: nothing that can wait starts while the owner signs in.
  return tracked(async () => {
    for (;;) {
      try {
        return await request(method, path, body, { raw: opts.raw, type: opts.type, key });
      } catch (err) {
        if (err.code === 'sign_in' && !opts.quiet && (await signInAgain())) continue;
        if (err.code === 'step_up' && !opts.quiet && (await stepUp())) continue;
        throw err;
      }
    }
  });
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body === undefined ? {} : body);
export const patch = (path, body) => api('PATCH', path, body);
export const put = (path, body) => api('PUT', path, body);
export const del = (path) => api('DELETE', path);

// A list asked for again (another filter, another range, a live reload) can be answered out of
// order: newestOnly() gives a getter whose older answers come back as null once a newer request
// was made, so only the newest is drawn.
export function newestOnly() {
  let asked = 0;
  return async (path) => {
    const mine = ++asked;
    const answer = await get(path);
    return mine === asked ? answer : null;
  };
}

/** Every page of a list (`{items, next_cursor}`), followed with `before`; the next page is asked for before this one is taken in. */
export async function getAll(path, limit = 500) {
  const url = (before) =>
    path +
    (path.includes('?') ? '&' : '?') +
    'limit=' +
    limit +
    (before === null ? '' : '&before=' + encodeURIComponent(before));
  const items = [];
  let asked = get(url(null));
  for (;;) {
    const page = await asked;
    const more = page.next_cursor !== null && page.next_cursor !== undefined && page.items.length > 0;
    if (more) asked = get(url(page.next_cursor));
    items.push(...page.items);
    if (!more) return items;
  }
}

/** Fills a monitor filter <select> with every monitor by name, choosing `selected` when given. */
export async function fillMonitorFilter(select, selected) {
  const monitors = await getAll('monitors');
  for (const m of monitors.sort((a, b) => a.name.localeCompare(b.name)))
    select.appendChild(new Option(m.name, String(m.id)));
  if (selected) select.value = selected;
}
