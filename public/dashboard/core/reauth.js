// The two dialogs that let a request carry on instead of failing (api.js opens them):
// - "signed out": the session ended; sign in again in place (passkey, or email, password and
//   code; or in another tab, then "carry on here");
// - "confirm it is you" (step-up): the action needs a sign-in within the last 12 hours; confirm
//   with a passkey or the password and an authenticator code.
// One dialog of each kind at a time, whoever asks; what the owner typed on the page stays.
import { ApiFailure, errorWords, sentence } from '../../shared/errors.js';
import { busy, pageIds, say } from '../../shared/page.js';
import { getPasskey, passkeySupport } from '../../shared/passkeys.js';
import { idempotencyKey, request } from './request.js';

// The dialogs are the shell's (views/dashboard/app.hbs), on every page.
const $ = pageIds(
  [
    'su-dialog',
    'su-passkey',
    'su-or',
    'su-password',
    'su-code',
    'signed-out-dialog',
    'signed-out-password-step',
    'signed-out-code-step',
    'signed-out-email',
    'signed-out-password',
    'signed-out-code',
    'signed-out-passkey',
    'signed-out-or',
    'signed-out-retry',
  ],
  'reauth.js',
);

/** A request that never opens a dialog (the dialogs' own); a POST with its Idempotency-Key like any other. */
const quiet = (method, path, body) => request(method, path, body, method === 'POST' ? { key: idempotencyKey() } : {});

let passkeyCount = null;
async function ownerHasPasskeys() {
  if (passkeyCount === null) {
    try {
      passkeyCount = (await quiet('GET', 'me')).passkeys;
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
    d.querySelectorAll('[data-close]').forEach((b) => {
      b.onclick = () => finish(false);
    });
    setup(form, out, finish);
    if (!d.open) d.showModal();
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
    pk.onclick = () =>
      busy(pk, 'Waiting for your passkey…', async () => {
        say(out, null);
        try {
          const options = await quiet('POST', 'auth/step-up/passkey/options', {});
          const credential = await getPasskey(options.public_key);
          await quiet('POST', 'auth/step-up/passkey/verify', { challenge_id: options.challenge_id, credential });
          finish(true);
        } catch (err) {
          say(out, errorWords(err, sentence(err.message)));
        }
      });
    form.onsubmit = (ev) => {
      ev.preventDefault();
      const password = $('su-password').value;
      const code = $('su-code').value.replace(/\s+/g, '');
      if (!password || !/^\d{6}$/.test(code))
        return say(out, 'Enter your password and the 6 digits your authenticator app shows.');
      busy(form.querySelector('button[type=submit]'), 'Checking…', async () => {
        try {
          await quiet('POST', 'auth/step-up/password', { password, code });
          finish(true);
        } catch (err) {
          say(out, errorWords(err, 'Wrong password or code.'));
        }
      });
    };
    setTimeout(() => (pk.hidden ? $('su-password') : pk).focus(), 0);
  }).finally(() => {
    stepUpOpen = null;
  });
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
    pk.onclick = () =>
      busy(pk, 'Waiting for your passkey…', async () => {
        say(out, null);
        try {
          const options = await quiet('POST', 'auth/passkey/options', {});
          const credential = await getPasskey(options.public_key);
          await quiet('POST', 'auth/passkey/verify', { challenge_id: options.challenge_id, credential });
          finish(true);
        } catch (err) {
          say(out, errorWords(err, sentence(err.message)));
        }
      });
    $('signed-out-retry').onclick = async () => {
      try {
        await quiet('GET', 'me');
        finish(true);
      } catch (err) {
        say(
          out,
          err instanceof ApiFailure && err.code === 'sign_in'
            ? 'Still signed out: sign in in the other tab first.'
            : errorWords(err),
        );
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
            ticket = (await quiet('POST', 'auth/password', { email, password })).ticket;
            $('signed-out-password-step').hidden = true;
            $('signed-out-code-step').hidden = false;
            $('signed-out-code').focus();
            return;
          }
          const code = $('signed-out-code').value.replace(/\s+/g, '');
          if (!/^\d{6}$/.test(code)) return say(out, 'Enter the 6 digits your authenticator app shows.');
          await quiet('POST', 'auth/code', { ticket, code });
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
  }).finally(() => {
    signInOpen = null;
  });
  return signInOpen;
}
