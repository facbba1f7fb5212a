// What went wrong, in words for the person at the page: the API's refusal as an ApiFailure, and
// every error (API, network, the browser's passkey prompt) as a sentence. Shared by the sign-in
// pages and the dashboard. Pure but for `instanceof`.

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

// The sign-in pages' fields by name, for a refusal that names several at once.
const FIELD_WORDS = {
  email: 'Email',
  password: 'Password',
  code: 'Code',
  recovery_code: 'Recovery code',
  label: 'Name',
  ticket: 'Sign-in',
  token: 'Link',
  challenge: 'Bot check',
  credential: 'Passkey',
  challenge_id: 'Passkey request',
};

/** "the passkey was not accepted: …" as a sentence. */
export function sentence(text) {
  const t = String(text || '').trim();
  return t ? t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.') : '';
}

/** How long "Retry-After" seconds are, in words rounded up to what a person plans by. */
export function waitWords(seconds) {
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
    if (err && err.name === 'NotAllowedError')
      return 'The passkey request was cancelled or timed out. Try again when you are ready.';
    if (err && err.name === 'InvalidStateError')
      return 'This device already holds a passkey for Farsight. Use it to sign in, or add a passkey on another device.';
    if (err && err.name === 'SecurityError')
      return "The browser refused passkeys for this address. Passkeys need https (or localhost) and Farsight's own host name.";
    return 'Something went wrong in the browser: ' + ((err && err.message) || String(err));
  }
  if (err.status === 0) return 'The server could not be reached. Check the connection and try again.';
  if (err.status === 429) return 'Too many attempts. Try again in ' + waitWords(err.retryAfter) + '.';
  if (err.code === 'sign_in') return wrong || err.message;
  if (err.code === 'step_up') return 'Confirm it is you first: you signed in more than 12 hours ago.';
  if (err.field === 'challenge' && err.code === 'forbidden')
    return 'Complete the check that you are not a robot, then try again.';
  if (err.code === 'unavailable')
    return 'The server cannot do this right now (' + err.message + '). Try again in a moment.';
  if (err.code === 'invalid' && err.fields.length) {
    return (
      err.fields.map((f) => (FIELD_WORDS[f.field] || f.field) + ': ' + f.message.replace(/[.]$/, '')).join('. ') + '.'
    );
  }
  return err.message || 'Something went wrong (HTTP ' + err.status + '). Try again.';
}
