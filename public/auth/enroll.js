// Break-glass enrolment: the link adds a passkey to the owner account and signs in.
import { errorWords, sentence } from '../shared/errors.js';
import { busy, pageIds, say } from '../shared/page.js';
import { createPasskey, explainNoPasskeys, passkeySupport } from '../shared/passkeys.js';
import { api, botCheck, noBotCheck, withChallenge } from './common.js';

const $ = pageIds(
  ['bot-check', 'checking', 'enroll-fields', 'enroll-form', 'expires', 'invalid', 'passkey-unavailable'],
  'enroll.js',
);

const token = decodeURIComponent(location.pathname.split('/').pop() || '');
const path = 'auth/enroll/' + encodeURIComponent(token);
const form = $('enroll-form');
const out = form.querySelector('.form-error');
let check = noBotCheck;

function invalid() {
  $('checking').hidden = true;
  form.hidden = true;
  $('invalid').hidden = false;
}

async function start() {
  let info;
  try {
    info = await api(path);
  } catch (err) {
    $('checking').textContent = errorWords(err);
    return;
  }
  if (!info.valid) return invalid();
  const expires = $('expires');
  expires.setAttribute('datetime', info.expires_at);
  expires.textContent = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(info.expires_at),
  );
  $('checking').hidden = true;
  form.hidden = false;
  const support = passkeySupport(
    'Then open a new enrolment link there (farsight enroll-link prints one for the public address).',
  );
  if (!support.ok) {
    explainNoPasskeys($('passkey-unavailable'), support);
    $('enroll-fields').hidden = true;
    return;
  }
  check = botCheck($('bot-check'));
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  say(out, null);
  const label = form.label.value.trim();
  busy(form.querySelector('button[type=submit]'), 'Waiting for your passkey…', async () => {
    try {
      const options = await api(path + '/options', withChallenge({}, check));
      const credential = await createPasskey(options.public_key);
      await api(
        path + '/verify',
        Object.assign({ challenge_id: options.challenge_id, credential }, label ? { label } : {}),
      );
      location.replace('/');
    } catch (err) {
      if (err.code === 'not_found') return invalid();
      say(out, errorWords(err, sentence(err.message)));
    } finally {
      check.reset();
    }
  });
});

start();
