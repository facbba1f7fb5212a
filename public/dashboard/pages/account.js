// The account page: who is signed in, how and since when (views/auth/home.hbs, drawn by the
// server; its times in the visitor's zone by the shell), and adding a passkey, with its own
// step-up form when the sign-in is older than 12 hours (the page's requests are quiet: they
// never open the shell's dialogs, this page asks in place).
import '../core/shell.js';
import { ApiFailure, errorWords, sentence } from '../../shared/errors.js';
import { busy, pageIds, say } from '../../shared/page.js';
import { createPasskey, explainNoPasskeys, getPasskey, passkeySupport } from '../../shared/passkeys.js';
import { api } from '../core/api.js';

const $ = pageIds(
  [
    'add-cancel',
    'add-form',
    'add-passkey',
    'label',
    'passkey-unavailable',
    'step-up-cancel',
    'step-up-code',
    'step-up-form',
    'step-up-or',
    'step-up-passkey',
    'step-up-password',
  ],
  'account.js',
);
/** A refusal is this page's to explain (a step-up asked for in place), never the shell's dialogs'. */
const QUIET = { quiet: true };

const addForm = $('add-form');
const stepUpForm = $('step-up-form');
const addButton = $('add-passkey');
const support = passkeySupport();
const hasPasskeys = document.querySelectorAll('.passkeys li').length > 0;

if (support.ok) addButton.hidden = false;
else explainNoPasskeys($('passkey-unavailable'), support);

addButton.addEventListener('click', () => {
  addButton.hidden = true;
  addForm.hidden = false;
  say(addForm.querySelector('.form-error'), null);
  $('label').focus();
});

$('add-cancel').addEventListener('click', () => {
  addForm.hidden = true;
  addButton.hidden = false;
  addButton.focus();
});

async function addPasskey() {
  const out = addForm.querySelector('.form-error');
  say(out, null);
  const label = addForm.label.value.trim();
  try {
    const options = await api('POST', 'me/passkeys/options', {}, QUIET);
    const credential = await createPasskey(options.public_key);
    await api(
      'POST',
      'me/passkeys/verify',
      Object.assign({ challenge_id: options.challenge_id, credential }, label ? { label } : {}),
      QUIET,
    );
    location.reload();
  } catch (err) {
    if (err instanceof ApiFailure && err.code === 'step_up') return showStepUp();
    say(out, errorWords(err));
  }
}

addForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  busy(addForm.querySelector('button[type=submit]'), 'Waiting for your passkey…', addPasskey);
});

function showStepUp() {
  addForm.hidden = true;
  stepUpForm.hidden = false;
  say(stepUpForm.querySelector('.form-error'), null);
  const withPasskey = hasPasskeys && support.ok;
  $('step-up-passkey').hidden = !withPasskey;
  $('step-up-or').hidden = !withPasskey;
  stepUpForm.querySelector('button[type=submit]').classList.toggle('secondary', withPasskey);
  $('step-up-password').focus();
}

function stepUpDone() {
  stepUpForm.hidden = true;
  stepUpForm.reset();
  addForm.hidden = false;
  busy(addForm.querySelector('button[type=submit]'), 'Waiting for your passkey…', addPasskey);
}

$('step-up-passkey').addEventListener('click', (ev) => {
  const out = stepUpForm.querySelector('.form-error');
  say(out, null);
  busy(ev.currentTarget, 'Waiting for your passkey…', async () => {
    try {
      const options = await api('POST', 'auth/step-up/passkey/options', {}, QUIET);
      const credential = await getPasskey(options.public_key);
      await api('POST', 'auth/step-up/passkey/verify', { challenge_id: options.challenge_id, credential }, QUIET);
      stepUpDone();
    } catch (err) {
      say(out, errorWords(err, sentence(err.message)));
    }
  });
});

stepUpForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const out = stepUpForm.querySelector('.form-error');
  say(out, null);
  const password = $('step-up-password').value;
  const code = $('step-up-code').value.replace(/\s+/g, '');
  if (!password || !/^\d{6}$/.test(code))
    return say(out, 'Enter your password and the 6 digits your authenticator app shows.');
  busy(stepUpForm.querySelector('button[type=submit]'), 'Checking…', async () => {
    try {
      await api('POST', 'auth/step-up/password', { password, code }, QUIET);
      stepUpDone();
    } catch (err) {
      say(out, errorWords(err, 'Wrong password or code.'));
    }
  });
});

$('step-up-cancel').addEventListener('click', () => {
  stepUpForm.hidden = true;
  stepUpForm.reset();
  addButton.hidden = !support.ok;
});
