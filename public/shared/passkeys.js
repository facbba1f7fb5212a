// Passkeys in the browser: whether they can work on this page (and why not, in words), and
// navigator.credentials with the server's options, answered as the API takes them. Shared by the
// sign-in pages and the dashboard.
import { sentence } from './errors.js';

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
      reason:
        'Passkeys need a secure connection. This page is open over plain http at ' +
        location.host +
        ', where browsers allow passkeys only on localhost.',
      advice: [
        'To use passkeys, reach Farsight over https (for example behind a reverse proxy, with FARSIGHT_PUBLIC_URL set to its address).',
        instead,
      ],
    };
  }
  if (!window.PublicKeyCredential || !navigator.credentials) {
    return { ok: false, reason: 'This browser does not offer passkeys: use a current browser.', advice: [instead] };
  }
  if (publicOrigin && location.origin !== publicOrigin) {
    return {
      ok: false,
      reason:
        "Passkeys work only at Farsight's own address, " +
        publicOrigin +
        ', and this page is open at ' +
        location.origin +
        '.',
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
