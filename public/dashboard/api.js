// The one way the dashboard talks to /api/v1: JSON in and out with the session cookie (the
// browser adds the Origin header to every request that changes something). What goes wrong is
// handled here, once, for every page:
// - no network: the offline banner shows and the request is tried again (with backoff, or at once
//   with "Retry now"); a POST carries an Idempotency-Key, so a repeat never does the work twice;
// - 401: the "signed out" dialog signs in again in place, then the request is repeated;
// - 403 step_up: the step-up dialog confirms with a passkey or password + code, then repeats;
// - anything else: an ApiFailure, whose dotted field paths fieldErrors() puts next to the inputs.
// Nothing on the page is touched meanwhile, so what the owner typed is never lost.
import { ApiFailure, errorWords, getPasskey, passkeySupport, sentence } from '/auth/assets/common.js';

export { ApiFailure, errorWords };

const $ = (id) => document.getElementById(id);

function idempotencyKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return 'dash-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Calls the API; resolves the answer's JSON (null for an empty answer). `opts.raw` sends the body
 * as is with `opts.type` (an upload); `opts.quiet` makes a 401 or step_up fail instead of asking.
 */
export async function api(method, path, body, opts = {}) {
  inFlight += 1;
  try {
    return await call(method, path, body, opts);
  } finally {
    inFlight -= 1;
    lastDone = performance.now();
    if (inFlight === 0) for (const w of [...idleWaiters]) w();
  }
}

async function call(method, path, body, opts) {
  const key = method === 'POST' ? idempotencyKey() : null;
  for (;;) {
    const headers = { Accept: 'application/json' };
    // The API takes a change from a session only as JSON (a DELETE too, though it has no body).
    if (method !== 'GET') headers['Content-Type'] = opts.raw ? opts.type : 'application/json';
    if (key) headers['Idempotency-Key'] = key;
    let res;
    try {
      res = await fetch('/api/v1/' + path, {
        method,
        credentials: 'same-origin',
        headers,
        body: body === undefined ? undefined : opts.raw ? body : JSON.stringify(body),
      });
    } catch {
      await offline();
      continue;
    }
    // A proxy in front answers 502/504 while the service restarts: as good as offline.
    if (res.status === 502 || res.status === 504) {
      await offline();
      continue;
    }
    backOnline();
    if (res.ok) {
      const text = await res.text();
      return text ? JSON.parse(text) : null;
    }
    const json = await res.json().catch(() => null);
    const err = new ApiFailure(res.status, json, Number(res.headers.get('Retry-After')) || null);
    if (err.code === 'sign_in' && !opts.quiet && (await signInAgain())) continue;
    if (err.code === 'step_up' && !opts.quiet && (await stepUp())) continue;
    throw err;
  }
}

export const get = (path) => api('GET', path);

// Requests in flight, so that work which can wait (installing the service worker) waits until
// the page has what it needs.
let inFlight = 0;
let lastDone = 0;
const idleWaiters = new Set();

/** Resolves once the page has loaded and no request has been in flight for `quietMs`. */
export function afterFirstLoad(quietMs = 1000) {
  const loaded = document.readyState === 'complete' ? Promise.resolve() : new Promise((r) => window.addEventListener('load', r, { once: true }));
  return loaded.then(() => new Promise((resolve) => {
    const attempt = () => {
      idleWaiters.delete(attempt);
      if (inFlight > 0) {
        idleWaiters.add(attempt);
        return;
      }
      setTimeout(() => (inFlight === 0 && performance.now() - lastDone >= quietMs ? resolve() : attempt()), quietMs);
    };
    attempt();
  }));
}

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
export const post = (path, body) => api('POST', path, body === undefined ? {} : body);
export const patch = (path, body) => api('PATCH', path, body);
export const put = (path, body) => api('PUT', path, body);
export const del = (path) => api('DELETE', path);

/** Every page of a list (`{items, next_cursor}`), followed with `before`; the next page is asked for before this one is taken in. */
export async function getAll(path, limit = 500) {
  const url = (before) => path + (path.includes('?') ? '&' : '?') + 'limit=' + limit + (before === null ? '' : '&before=' + encodeURIComponent(before));
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
  for (const m of monitors.sort((a, b) => a.name.localeCompare(b.name))) select.appendChild(new Option(m.name, String(m.id)));
  if (selected) select.value = selected;
}

// --- field errors ---------------------------------------------------------------------------

const FIELD_ERROR = 'field-error';

/** Removes the errors fieldErrors() put in a form. */
export function clearErrors(form) {
  form.querySelectorAll('.' + FIELD_ERROR).forEach((p) => p.remove());
  form.querySelectorAll('[aria-invalid]').forEach((el) => {
    el.removeAttribute('aria-invalid');
    const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter((id) => id && !id.startsWith('err-'));
    if (ids.length) el.setAttribute('aria-describedby', ids.join(' '));
    else el.removeAttribute('aria-describedby');
  });
  const general = form.querySelector('.form-error');
  if (general) say(general, null);
}

/**
 * Shows an ApiFailure in a form: each of its fields (dotted paths such as `http.url` or
 * `http.headers.0.value`) next to the input of that name, the rest in the form's .form-error.
 * The first input in error gets the focus.
 */
export function fieldErrors(form, err, words = {}) {
  clearErrors(form);
  const loose = [];
  let first = null;
  const fields = err instanceof ApiFailure && err.code === 'invalid' ? (err.fields.length ? err.fields : [{ field: err.field, message: err.message }]) : [];
  for (const f of fields) {
    // Inputs of list items are named `http.headers.1.value`; the API says `http.headers[1].value`.
    const name = f.field ? f.field.replace(/\[(\d+)\]/g, '.$1') : null;
    const input = name ? form.querySelector('[name="' + CSS.escape(name) + '"]') : null;
    if (!input) {
      loose.push((words[f.field] || f.field || '') + (f.field ? ': ' : '') + f.message);
      continue;
    }
    const p = document.createElement('p');
    p.className = FIELD_ERROR;
    p.id = 'err-' + name.replace(/[^a-z0-9_-]/gi, '-');
    p.textContent = sentence(f.message);
    const field = input.closest('.field');
    if (field) field.appendChild(p);
    else input.after(p);
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', ((input.getAttribute('aria-describedby') || '') + ' ' + p.id).trim());
    first = first || input;
  }
  const general = form.querySelector('.form-error');
  const text = fields.length ? loose.map(sentence).join(' ') : errorWords(err);
  if (general && text) say(general, text);
  if (first) first.focus();
  else if (general && text) general.scrollIntoView({ block: 'nearest' });
}

export function say(el, text) {
  el.textContent = text || '';
  el.hidden = !text;
}

// --- offline ----------------------------------------------------------------------------------

let offlineSince = null;
let retryNow = null;
let failures = 0;

function offline() {
  const banner = $('offline');
  failures += 1;
  if (offlineSince === null) offlineSince = Date.now();
  const wait = Math.min(30, 2 ** Math.min(failures - 1, 5));
  let left = wait;
  const text = () => {
    $('offline-text').textContent = 'Farsight cannot be reached: the network or the service is down. Trying again in ' + left + ' s; nothing you typed is lost.';
  };
  text();
  banner.hidden = false;
  return new Promise((resolve) => {
    const tick = setInterval(() => {
      left -= 1;
      if (left <= 0) done();
      else text();
    }, 1000);
    const done = () => {
      clearInterval(tick);
      window.removeEventListener('online', done);
      retryNow = null;
      $('offline-text').textContent = 'Trying to reach Farsight…';
      resolve();
    };
    retryNow = done;
    window.addEventListener('online', done);
  });
}

function backOnline() {
  failures = 0;
  offlineSince = null;
  const banner = $('offline');
  if (banner) banner.hidden = true;
}

/** Shows the offline banner from outside (the live stream), and hides it. */
export function showOffline(on) {
  const banner = $('offline');
  if (!banner) return;
  if (on) {
    $('offline-text').textContent = 'Farsight cannot be reached: the network or the service is down. Retrying…';
    banner.hidden = false;
  } else if (!retryNow) banner.hidden = true;
}

export function initOffline() {
  $('offline-retry').addEventListener('click', () => {
    if (retryNow) retryNow();
    else location.reload();
  });
}

// --- the two dialogs --------------------------------------------------------------------------

let passkeyCount = null;
async function ownerHasPasskeys() {
  if (passkeyCount === null) {
    try {
      passkeyCount = (await api('GET', 'me', undefined, { quiet: true })).passkeys;
    } catch {
      return false;
    }
  }
  return passkeyCount > 0;
}

/** Opens a dialog; resolves true once `confirm` has succeeded, false when it is closed. */
function dialog(id, setup) {
  const d = $(id);
  const form = d.querySelector('form');
  const out = form.querySelector('.form-error');
  say(out, null);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (ok) => {
      if (settled) return;
      settled = true;
      form.onsubmit = null;
      d.onclose = null;
      d.close();
      resolve(ok);
    };
    d.onclose = () => finish(false);
    d.querySelectorAll('[data-close]').forEach((b) => { b.onclick = () => finish(false); });
    setup(form, out, finish);
    if (!d.open) d.showModal();
  });
}

function busy(button, label, work) {
  const before = button.textContent;
  button.disabled = true;
  button.textContent = label;
  return work().finally(() => {
    button.disabled = false;
    button.textContent = before;
  });
}

let stepUpOpen = null;
/** Asks for a fresh confirmation; true once the session is fresh again. One dialog for every caller. */
export function stepUp() {
  if (stepUpOpen) return stepUpOpen;
  stepUpOpen = dialog('su-dialog', (form, out, finish) => {
    form.reset();
    const pk = $('su-passkey');
    pk.hidden = true;
    $('su-or').hidden = true;
    ownerHasPasskeys().then((has) => {
      const ok = has && passkeySupport().ok;
      pk.hidden = !ok;
      $('su-or').hidden = !ok;
    });
    pk.onclick = () => busy(pk, 'Waiting for your passkey…', async () => {
      say(out, null);
      try {
        const options = await api('POST', 'auth/step-up/passkey/options', {}, { quiet: true });
        const credential = await getPasskey(options.public_key);
        await api('POST', 'auth/step-up/passkey/verify', { challenge_id: options.challenge_id, credential }, { quiet: true });
        finish(true);
      } catch (err) {
        say(out, errorWords(err, sentence(err.message)));
      }
    });
    form.onsubmit = (ev) => {
      ev.preventDefault();
      const password = $('su-password').value;
      const code = $('su-code').value.replace(/\s+/g, '');
      if (!password || !/^\d{6}$/.test(code)) return say(out, 'Enter your password and the 6 digits your authenticator app shows.');
      busy(form.querySelector('button[type=submit]'), 'Checking…', async () => {
        try {
          await api('POST', 'auth/step-up/password', { password, code }, { quiet: true });
          finish(true);
        } catch (err) {
          say(out, errorWords(err, 'Wrong password or code.'));
        }
      });
    };
    setTimeout(() => (pk.hidden ? $('su-password') : pk).focus(), 0);
  }).finally(() => { stepUpOpen = null; });
  return stepUpOpen;
}

let signInOpen = null;
/** Signs in again in place after the session ended; true once there is a session again. */
export function signInAgain() {
  if (signInOpen) return signInOpen;
  signInOpen = dialog('signed-out-dialog', (form, out, finish) => {
    let ticket = null;
    $('signed-out-password-step').hidden = false;
    $('signed-out-code-step').hidden = true;
    $('signed-out-password').value = '';
    $('signed-out-code').value = '';
    const pk = $('signed-out-passkey');
    const support = passkeySupport();
    pk.hidden = !support.ok;
    $('signed-out-or').hidden = !support.ok;
    pk.onclick = () => busy(pk, 'Waiting for your passkey…', async () => {
      say(out, null);
      try {
        const options = await api('POST', 'auth/passkey/options', {}, { quiet: true });
        const credential = await getPasskey(options.public_key);
        await api('POST', 'auth/passkey/verify', { challenge_id: options.challenge_id, credential }, { quiet: true });
        finish(true);
      } catch (err) {
        say(out, errorWords(err, sentence(err.message)));
      }
    });
    $('signed-out-retry').onclick = async () => {
      try {
        await api('GET', 'me', undefined, { quiet: true });
        finish(true);
      } catch (err) {
        say(out, err instanceof ApiFailure && err.code === 'sign_in' ? 'Still signed out: sign in in the other tab first.' : errorWords(err));
      }
    };
    form.onsubmit = (ev) => {
      ev.preventDefault();
      say(out, null);
      busy(form.querySelector('button[type=submit]'), 'Checking…', async () => {
        try {
          if (ticket === null) {
            const email = $('signed-out-email').value.trim();
            const password = $('signed-out-password').value;
            if (!email || !password) return say(out, 'Enter your email and password.');
            ticket = (await api('POST', 'auth/password', { email, password }, { quiet: true })).ticket;
            $('signed-out-password-step').hidden = true;
            $('signed-out-code-step').hidden = false;
            $('signed-out-code').focus();
            return;
          }
          const code = $('signed-out-code').value.replace(/\s+/g, '');
          if (!/^\d{6}$/.test(code)) return say(out, 'Enter the 6 digits your authenticator app shows.');
          await api('POST', 'auth/code', { ticket, code }, { quiet: true });
          finish(true);
        } catch (err) {
          // The password step asks no code yet; the code step keeps the API's words (it may have expired).
          say(out, errorWords(err, ticket === null ? 'Wrong email or password.' : sentence(err.message)));
          if (err instanceof ApiFailure && err.code === 'sign_in' && ticket !== null) {
            ticket = null;
            $('signed-out-password-step').hidden = false;
            $('signed-out-code-step').hidden = true;
          }
        }
      });
    };
  }).finally(() => { signInOpen = null; });
  return signInOpen;
}
