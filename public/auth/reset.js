// Reset: a new password, proven with the authenticator code or a recovery code; signs in.
import { errorWords } from '../shared/errors.js';
import { busy, pageIds, say } from '../shared/page.js';
import { api, botCheck, withChallenge } from './common.js';

const $ = pageIds(
  ['bot-check', 'code', 'code-field', 'invalid', 'recovery-code', 'recovery-field', 'reset-form', 'toggle-recovery'],
  'reset.js',
);

const token = decodeURIComponent(location.pathname.split('/').pop() || '');
const form = $('reset-form');
const out = form.querySelector('.form-error');
const check = botCheck($('bot-check'));
let recovery = false;
form.hidden = false;

$('toggle-recovery').addEventListener('click', (ev) => {
  recovery = !recovery;
  $('code-field').hidden = recovery;
  $('recovery-field').hidden = !recovery;
  ev.currentTarget.textContent = recovery ? 'Use an authenticator code instead' : 'Use a recovery code instead';
  say(out, null);
  (recovery ? $('recovery-code') : $('code')).focus();
});

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  say(out, null);
  const password = form.password.value;
  const code = $('code').value.replace(/\s+/g, '');
  const recoveryCode = $('recovery-code').value.trim();
  if (password.length < 10) return say(out, 'Choose a password of at least 10 characters.');
  if (!recovery && !/^\d{6}$/.test(code)) return say(out, 'Enter the 6 digits your authenticator app shows.');
  if (recovery && !recoveryCode) return say(out, 'Enter one of your recovery codes.');
  const body = recovery ? { token, password, recovery_code: recoveryCode } : { token, password, code };
  busy(form.querySelector('button[type=submit]'), 'Saving…', async () => {
    try {
      await api('auth/reset', withChallenge(body, check));
      location.replace('/');
    } catch (err) {
      if (err.code === 'not_found') {
        form.hidden = true;
        $('invalid').hidden = false;
        return;
      }
      say(out, errorWords(err, 'Wrong code, or this reset link was used or has expired.'));
    } finally {
      check.reset();
    }
  });
});
