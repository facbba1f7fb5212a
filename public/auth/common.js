// What every sign-in page shares: talking to the API, errors in words, passkeys in the browser,
// the secure-context check, the optional bot challenge and small page helpers. Imported by each
// page's own script module (one per page); nothing here runs by itself.

export const $ = (id) => document.getElementById(id);

/** An API answer that was not a success, with what the page needs to say why. */
export class ApiFailure extends Error {
  constructor(status, body, retryAfter) {
    const e = (body && body.error) || {};
    super(e.message || 'HTTP ' + status);
    this.status = status;
    this.code = e.code || (status === 0 ? 'network' : 'unknown');
    this.field = e.field || null;
    this.fields = e.fields || [];
    this.retryAfter = retryAfter;
  }
}

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

const FIELD_WORDS = {
  email: 'Email', password: 'Password', code: 'Code', recovery_code: 'Recovery code', label: 'Name',
  ticket: 'Sign-in', token: 'Link', challenge: 'Bot check', credential: 'Passkey', challenge_id: 'Passkey request',
};

/** "the passkey was not accepted: …" as a sentence. */
export function sentence(text) {
  const t = String(text || '').trim();
  return t ? t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.') : '';
}

function waitWords(seconds) {
  if (!seconds || seconds < 60) return 'a minute';
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return minutes + ' minutes';
  return Math.round(minutes / 60) + ' hours';
}

/**
 * An error in words for the person at the page. `wrong` is what a 401 means on this form
 * (e.g. "Wrong email or password."), so no page ever says more than the server does.
 */
export function errorWords(err, wrong) {
  if (!(err instanceof ApiFailure)) {
    if (err && err.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out. Try again when you are ready.';
    if (err && err.name === 'InvalidStateError') return 'This device already holds a passkey for Farsight. Use it to sign in, or add a passkey on another device.';
    if (err && err.name === 'SecurityError') return 'The browser refused passkeys for this address. Passkeys need https (or localhost) and Farsight\'s own host name.';
    return 'Something went wrong in the browser: ' + ((err && err.message) || String(err));
  }
  if (err.status === 0) return 'The server could not be reached. Check the connection and try again.';
  if (err.status === 429) return 'Too many attempts. Try again in ' + waitWords(err.retryAfter) + '.';
  if (err.code === 'sign_in') return wrong || err.message;
  if (err.code === 'step_up') return 'Confirm it is you first: you signed in more than 12 hours ago.';
  if (err.field === 'challenge' && err.code === 'forbidden') return 'Complete the check that you are not a robot, then try again.';
  if (err.code === 'unavailable') return 'The server cannot do this right now (' + err.message + '). Try again in a moment.';
  if (err.code === 'invalid' && err.fields.length) {
    return err.fields.map((f) => (FIELD_WORDS[f.field] || f.field) + ': ' + f.message.replace(/[.]$/, '')).join('. ') + '.';
  }
  return err.message || 'Something went wrong (HTTP ' + err.status + '). Try again.';
}

/** Shows a message in a form's role=alert element (or hides it with null). */
export function say(el, text) {
  el.textContent = text || '';
  el.hidden = !text;
}

/** Disables a button with a busy label while work runs; gives the label back afterwards. */
export async function busy(button, label, work) {
  const before = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = label;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = before;
  }
}

/** Shows every moment (<time datetime>) in the visitor's own time zone. */
export function localTimes(root) {
  const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  (root || document).querySelectorAll('time[datetime]').forEach((t) => {
    const d = new Date(t.getAttribute('datetime'));
    if (!isNaN(d)) t.textContent = fmt.format(d);
  });
}

// --- passkeys in the browser --------------------------------------------------------------

function fromB64u(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

function toB64u(buffer) {
  const bytes = new Uint8Array(buffer);
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const withIds = (list) => (list || []).map((c) => Object.assign({}, c, { id: fromB64u(c.id) }));

/**
 * Whether passkeys can work on this page, and if not, why in words. Browsers offer them only in
 * a secure context (https, or http on localhost), and a passkey belongs to Farsight's own
 * address (FARSIGHT_PUBLIC_URL), so the page must be open there. `instead` is what the person
 * can do meanwhile, on this page.
 */
export function passkeySupport(instead) {
  const body = document.body.dataset;
  const publicOrigin = body.publicOrigin;
  if (!window.isSecureContext) {
    return {
      ok: false,
      reason: 'Passkeys need a secure connection. This page is open over plain http at ' + location.host +
        ', where browsers allow passkeys only on localhost.',
      advice: ['To use passkeys, reach Farsight over https (for example behind a reverse proxy, with FARSIGHT_PUBLIC_URL set to its address).', instead],
    };
  }
  if (!window.PublicKeyCredential || !navigator.credentials) {
    return { ok: false, reason: 'This browser does not offer passkeys: use a current browser.', advice: [instead] };
  }
  if (publicOrigin && location.origin !== publicOrigin) {
    return {
      ok: false,
      reason: 'Passkeys work only at Farsight\'s own address, ' + publicOrigin + ', and this page is open at ' + location.origin + '.',
      advice: [instead],
      link: publicOrigin + location.pathname,
    };
  }
  if (body.passkeyProblem) return { ok: false, reason: sentence(body.passkeyProblem), advice: [instead] };
  return { ok: true };
}

/** Fills a notice element with why passkeys cannot work here, what to do, and a link to the right address. */
export function explainNoPasskeys(el, support) {
  el.textContent = '';
  const line = (node) => {
    const p = document.createElement('p');
    p.appendChild(node);
    el.appendChild(p);
  };
  line(document.createTextNode(support.reason));
  const advice = (support.advice || []).filter(Boolean).join(' ');
  if (advice) line(document.createTextNode(advice));
  if (support.link) {
    const a = document.createElement('a');
    a.href = support.link;
    a.textContent = 'Open this page at ' + new URL(support.link).origin;
    line(a);
  }
  el.hidden = false;
}

/** navigator.credentials.get() with the server's request options; the answer as the API takes it. */
export async function getPasskey(publicKey) {
  const options = Object.assign({}, publicKey, {
    challenge: fromB64u(publicKey.challenge),
    allowCredentials: withIds(publicKey.allowCredentials),
  });
  const cred = await navigator.credentials.get({ publicKey: options });
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toB64u(cred.rawId),
    type: cred.type,
    response: {
      clientDataJSON: toB64u(r.clientDataJSON),
      authenticatorData: toB64u(r.authenticatorData),
      signature: toB64u(r.signature),
      userHandle: r.userHandle ? toB64u(r.userHandle) : null,
    },
  };
}

/** navigator.credentials.create() with the server's creation options; the answer as the API takes it. */
export async function createPasskey(publicKey) {
  const options = Object.assign({}, publicKey, {
    challenge: fromB64u(publicKey.challenge),
    user: Object.assign({}, publicKey.user, { id: fromB64u(publicKey.user.id) }),
    excludeCredentials: withIds(publicKey.excludeCredentials),
  });
  const cred = await navigator.credentials.create({ publicKey: options });
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toB64u(cred.rawId),
    type: cred.type,
    response: {
      clientDataJSON: toB64u(r.clientDataJSON),
      attestationObject: toB64u(r.attestationObject),
      transports: typeof r.getTransports === 'function' ? r.getTransports() : [],
    },
  };
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
      callback: (t) => { token = t; },
      'expired-callback': () => { token = null; },
      'error-callback': () => { token = null; },
    });
  };
  script.onerror = () => {
    container.textContent = 'The check that you are not a robot could not be loaded. Check the connection and reload the page.';
    container.className = 'form-error';
  };
  document.head.appendChild(script);
  return {
    token: () => {
      if (!token) throw new ApiFailure(403, { error: { code: 'forbidden', field: 'challenge', message: 'complete the bot challenge first' } }, null);
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
