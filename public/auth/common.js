// What the sign-in pages share that the dashboard does not: their plain requests (no retries, no
// dialogs: a signed-out visitor has no session to repeat them in) and the optional bot challenge.
// Errors in words, passkeys and page helpers are in public/shared/, which the dashboard uses too.
// Imported by each page's own script module (one per page); nothing here runs by itself.
import { ApiFailure } from '../shared/errors.js';

/** POST (or another method) JSON to /api/v1/<path>; resolves the answer body, rejects with ApiFailure. */
export async function api(path, body, method) {
  let res;
  try {
    res = await fetch('/api/v1/' + path, {
      method: method || (body === undefined ? 'GET' : 'POST'),
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiFailure(0, null, null);
  }
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFailure(res.status, json, Number(res.headers.get('Retry-After')) || null);
  return json;
}

// --- the optional bot challenge (Cloudflare Turnstile, explicit rendering) -----------------

const TURNSTILE = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

/** The bot check of a page where none is shown (yet). */
export const noBotCheck = { token: () => undefined, reset() {} };

/**
 * The bot check of a page: nothing when the server has no challenge configured; otherwise the
 * widget in `container`, whose token goes with the next sign-in request and is then used up.
 */
export function botCheck(container) {
  const siteKey = document.body.dataset.siteKey;
  if (!siteKey) return noBotCheck;
  container.hidden = false;
  let token = null;
  let widget = null;
  const script = document.createElement('script');
  script.src = TURNSTILE;
  script.async = true;
  script.onload = () => {
    widget = window.turnstile.render(container, {
      sitekey: siteKey,
      callback: (t) => {
        token = t;
      },
      'expired-callback': () => {
        token = null;
      },
      'error-callback': () => {
        token = null;
      },
    });
  };
  script.onerror = () => {
    container.textContent =
      'The check that you are not a robot could not be loaded. Check the connection and reload the page.';
    container.className = 'form-error';
  };
  document.head.appendChild(script);
  return {
    token: () => {
      if (!token)
        throw new ApiFailure(
          403,
          { error: { code: 'forbidden', field: 'challenge', message: 'complete the bot challenge first' } },
          null,
        );
      return token;
    },
    reset() {
      token = null;
      if (widget !== null && window.turnstile) window.turnstile.reset(widget);
    },
  };
}

/** The request body with the bot-check token added when there is one. */
export function withChallenge(body, check) {
  const token = check.token();
  return token === undefined ? body : Object.assign({}, body, { challenge: token });
}
