// The account page of the dashboard: times in the visitor's zone, adding a passkey (with a
// step-up when the sign-in is older than 12 hours). Signing out is the dashboard shell's.
import {
  $, api, ApiFailure, busy, createPasskey, errorWords, explainNoPasskeys, getPasskey, localTimes, passkeySupport, say, sentence,
} from './common.js';

const addForm = $('add-form');
const stepUpForm = $('step-up-form');
const addButton = $('add-passkey');
const support = passkeySupport();
const hasPasskeys = document.querySelectorAll('.passkeys li').length > 0;

localTimes();
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
    const options = await api('me/passkeys/options', {});
    const credential = await createPasskey(options.public_key);
    await api('me/passkeys/verify', Object.assign({ challenge_id: options.challenge_id, credential }, label ? { label } : {}));
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
      const options = await api('auth/step-up/passkey/options', {});
      const credential = await getPasskey(options.public_key);
      await api('auth/step-up/passkey/verify', { challenge_id: options.challenge_id, credential });
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
  if (!password || !/^\d{6}$/.test(code)) return say(out, 'Enter your password and the 6 digits your authenticator app shows.');
  busy(stepUpForm.querySelector('button[type=submit]'), 'Checking…', async () => {
    try {
      await api('auth/step-up/password', { password, code });
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
