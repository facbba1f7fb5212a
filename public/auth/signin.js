// Sign in: a passkey first (when the owner has one and the browser can), else email and
// password, then the authenticator code or a recovery code. Success lands on the page that was
// asked for (data-next, checked by the server: src/dashboard/next-path.ts), else on /.
import { errorWords, sentence } from '../shared/errors.js';
import { busy, pageIds, say } from '../shared/page.js';
import { explainNoPasskeys, getPasskey, passkeySupport } from '../shared/passkeys.js';
import { api, botCheck, noBotCheck, withChallenge } from './common.js';

const $ = pageIds(
  [
    'bot-check',
    'code',
    'code-field',
    'code-form',
    'email',
    'not-set-up',
    'passkey-button',
    'passkey-error',
    'passkey-step',
    'passkey-unavailable',
    'password-form',
    'password-submit',
    'recovery-code',
    'recovery-field',
    'start-over',
    'toggle-recovery',
  ],
  'signin.js',
);

// The password step asks no code yet, so its refusal does not mention one.
const WRONG_PASSWORD = 'Wrong email or password.';
const passwordForm = $('password-form');
const codeForm = $('code-form');
let check = noBotCheck;
let ticket = null;
let recovery = false;
let passkeyShown = false;

const errorOf = (form) => form.querySelector('.form-error');
const done = () => location.replace(document.body.dataset.next || '/');

async function start() {
  let state;
  try {
    state = await api('auth/state');
  } catch (err) {
    passwordForm.hidden = false;
    return say(errorOf(passwordForm), errorWords(err));
  }
  if (state.signed_in) return done();
  if (state.setup_needed) {
    $('not-set-up').hidden = false;
    return;
  }
  check = botCheck($('bot-check'));
  if (state.methods.passkey) {
    passkeyShown = true;
    $('passkey-step').hidden = false;
    const support = passkeySupport('Meanwhile, sign in with your password and authenticator code.');
    if (support.ok) {
      $('password-submit').classList.add('secondary');
    } else {
      $('passkey-button').hidden = true;
      explainNoPasskeys($('passkey-unavailable'), support);
    }
  }
  passwordForm.hidden = false;
  if (!passkeyShown) $('email').focus();
}

$('passkey-button').addEventListener('click', (ev) => {
  const out = $('passkey-error');
  say(out, null);
  busy(ev.currentTarget, 'Waiting for your passkey…', async () => {
    try {
      const options = await api('auth/passkey/options', withChallenge({}, check));
      const credential = await getPasskey(options.public_key);
      await api('auth/passkey/verify', { challenge_id: options.challenge_id, credential });
      done();
    } catch (err) {
      say(out, errorWords(err, sentence(err.message)));
    } finally {
      check.reset();
    }
  });
});

passwordForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const out = errorOf(passwordForm);
  const email = passwordForm.email.value.trim();
  const password = passwordForm.password.value;
  say(out, null);
  if (!email || !password) return say(out, 'Enter your email and password.');
  busy($('password-submit'), 'Checking…', async () => {
    try {
      const answer = await api('auth/password', withChallenge({ email, password }, check));
      ticket = answer.ticket;
      showCodeStep();
    } catch (err) {
      say(out, errorWords(err, WRONG_PASSWORD));
      passwordForm.password.select();
    } finally {
      check.reset();
    }
  });
});

function showCodeStep() {
  $('passkey-step').hidden = true;
  passwordForm.hidden = true;
  codeForm.hidden = false;
  say(errorOf(codeForm), null);
  (recovery ? $('recovery-code') : $('code')).focus();
}

codeForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const out = errorOf(codeForm);
  say(out, null);
  const code = $('code').value.replace(/\s+/g, '');
  const recoveryCode = $('recovery-code').value.trim();
  if (!recovery && !/^\d{6}$/.test(code)) return say(out, 'Enter the 6 digits your authenticator app shows.');
  if (recovery && !recoveryCode) return say(out, 'Enter one of your recovery codes.');
  busy(codeForm.querySelector('button[type=submit]'), 'Signing in…', async () => {
    try {
      await api('auth/code', recovery ? { ticket, recovery_code: recoveryCode } : { ticket, code });
      done();
    } catch (err) {
      // The API's own words: they say that the sign-in may have expired (5 minutes) and what to do.
      say(out, errorWords(err, sentence(err.message)));
    }
  });
});

$('toggle-recovery').addEventListener('click', (ev) => {
  recovery = !recovery;
  $('code-field').hidden = recovery;
  $('recovery-field').hidden = !recovery;
  ev.currentTarget.textContent = recovery ? 'Use an authenticator code instead' : 'Use a recovery code instead';
  say(errorOf(codeForm), null);
  (recovery ? $('recovery-code') : $('code')).focus();
});

$('start-over').addEventListener('click', () => {
  ticket = null;
  codeForm.hidden = true;
  $('code').value = '';
  $('recovery-code').value = '';
  passwordForm.password.value = '';
  $('passkey-step').hidden = !passkeyShown;
  passwordForm.hidden = false;
  passwordForm.password.focus();
});

start();
