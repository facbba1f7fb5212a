// Security: the owner's sign-in factors and sessions. Passkeys (add, rename, remove), the
// password, the authenticator app (replace), recovery codes (make new), sessions (sign out one or
// every other) and blocked addresses (unblock). Changes that need a fresh sign-in ask for it
// through the API module's step-up dialog, then carry on.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { busy, pageIds, say } from '../../shared/page.js';
import { del, get, patch, post } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { createPasskey, explainNoPasskeys, passkeySupport } from '../../shared/passkeys.js';
import { el, when } from '../core/format.js';

const $ = pageIds(
  [
    'blocked',
    'loading',
    'page-error',
    'passkeys',
    'pk-add',
    'pk-add-cancel',
    'pk-add-open',
    'pk-label',
    'pk-unavailable',
    'pw-form',
    'rc-codes',
    'rc-new',
    'rc-shown',
    'rc-state',
    'security',
    'sessions',
    'ss-others',
    'totp-cancel',
    'totp-code',
    'totp-done',
    'totp-form',
    'totp-open',
    'totp-qr',
    'totp-secret',
    'totp-state',
    'you',
  ],
  'security.js',
);
const METHOD = {
  passkey: 'a passkey',
  password: 'password and authenticator code',
  recovery: 'password and a recovery code',
  setup: 'the first-run setup link',
  enroll: 'an enrolment link',
  reset: 'a password reset',
};
const pageError = (err) => say($('page-error'), err ? errorWords(err) : null);

function fact(dl, term, value) {
  const d = el('div');
  d.append(el('dt', null, term), el('dd', null, value));
  dl.appendChild(d);
}

function smallButton(label, aria, cls, fn) {
  const b = el('button', 'secondary small' + (cls ? ' ' + cls : ''), label);
  b.type = 'button';
  if (aria) b.setAttribute('aria-label', aria);
  b.addEventListener('click', () => fn(b));
  return b;
}

async function loadMe() {
  const me = await get('me');
  const dl = $('you');
  dl.textContent = '';
  fact(dl, 'Email', me.email);
  fact(
    dl,
    'This session',
    'Signed in with ' + (METHOD[me.session.method] || me.session.method) + ', ' + when(me.session.created_at),
  );
  fact(
    dl,
    'Confirmed until',
    me.session.fresh_until ? when(me.session.fresh_until) : 'needs a confirmation for security changes',
  );
  $('totp-state').textContent = me.totp ? 'An authenticator app is set up.' : 'No authenticator app is set up.';
  $('rc-state').textContent = me.recovery_codes_left + ' of 10 recovery codes left.';
}

// --- passkeys ----------------------------------------------------------------------------------

const support = passkeySupport('Sign-in with password and authenticator keeps working.');
if (!support.ok) {
  explainNoPasskeys($('pk-unavailable'), support);
  $('pk-add-open').hidden = true;
}

async function loadPasskeys() {
  const { items } = await get('me/passkeys');
  const ul = $('passkeys');
  ul.textContent = '';
  for (const p of items) {
    const li = el('li');
    const label = el('strong', null, p.label);
    const meta = el(
      'span',
      'muted',
      'Added ' + when(p.created_at) + ' · ' + (p.last_used_at ? 'last used ' + when(p.last_used_at) : 'not used yet'),
    );
    const bar = el('span', 'row-actions');
    bar.append(
      smallButton('Rename', 'Rename ' + p.label, '', () => rename(li, p)),
      smallButton('Remove', 'Remove ' + p.label, 'danger', async (b) => {
        if (!confirm('Remove the passkey ' + p.label + '? It can no longer sign in.')) return;
        b.disabled = true;
        try {
          await del('me/passkeys/' + p.id);
          await Promise.all([loadPasskeys(), loadMe()]);
        } catch (err) {
          b.disabled = false;
          pageError(err);
        }
      }),
    );
    const text = el('span', 'item-text');
    text.append(label, meta);
    li.append(text, bar);
    ul.appendChild(li);
  }
  if (!items.length)
    ul.appendChild(
      el(
        'li',
        'muted',
        "No passkey yet. A passkey signs you in with this device's fingerprint, face or screen lock, with no password or code.",
      ),
    );
}

function rename(li, p) {
  const form = el('form', 'inline-form');
  form.noValidate = true;
  const id = 'rn-' + p.id;
  const l = el('label', 'sr-only', 'New name for ' + p.label);
  l.htmlFor = id;
  const input = el('input');
  input.id = id;
  input.name = 'label';
  input.value = p.label;
  input.maxLength = 100;
  const save = el('button', 'small', 'Save');
  save.type = 'submit';
  const err = el('p', 'form-error');
  err.setAttribute('role', 'alert');
  err.hidden = true;
  form.append(l, input, save, err);
  li.replaceChildren(form);
  input.focus();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      await patch('me/passkeys/' + p.id, { label: input.value.trim() });
      await loadPasskeys();
    } catch (e) {
      fieldErrors(form, e);
    }
  });
}

$('pk-add-open').addEventListener('click', () => {
  $('pk-add').hidden = false;
  $('pk-label').focus();
});
$('pk-add-cancel').addEventListener('click', () => {
  $('pk-add').hidden = true;
});
$('pk-add').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const form = ev.currentTarget;
  clearErrors(form);
  return busy(form.querySelector('button[type=submit]'), 'Waiting for your passkey…', async () => {
    try {
      const options = await post('me/passkeys/options');
      const credential = await createPasskey(options.public_key);
      const label = $('pk-label').value.trim();
      await post(
        'me/passkeys/verify',
        Object.assign({ challenge_id: options.challenge_id, credential }, label ? { label } : {}),
      );
      form.reset();
      form.hidden = true;
      await Promise.all([loadPasskeys(), loadMe()]);
    } catch (err) {
      say(form.querySelector('.form-error'), errorWords(err));
    }
  });
});

// --- password, authenticator, recovery codes -----------------------------------------------

$('pw-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const form = ev.currentTarget;
  clearErrors(form);
  const ok = form.querySelector('.notice.ok');
  ok.hidden = true;
  try {
    const r = await post('me/password', { current: form.elements.current.value, new: form.elements.new.value });
    form.reset();
    ok.textContent =
      'The password is changed.' +
      (r.signed_out
        ? ' ' + r.signed_out + ' other ' + (r.signed_out === 1 ? 'session was' : 'sessions were') + ' signed out.'
        : '');
    ok.hidden = false;
    await loadSessions();
  } catch (err) {
    fieldErrors(form, err, { current: 'Current password', new: 'New password' });
  }
});

let totpSetup = null;
$('totp-open').addEventListener('click', async (ev) => {
  const b = ev.currentTarget;
  b.disabled = true;
  try {
    totpSetup = await post('me/totp/options');
    $('totp-qr').src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(totpSetup.qr_svg);
    $('totp-secret').textContent = totpSetup.secret;
    $('totp-form').hidden = false;
    $('totp-done').hidden = true;
    b.hidden = true;
    $('totp-code').focus();
  } catch (err) {
    pageError(err);
  } finally {
    b.disabled = false;
  }
});
$('totp-cancel').addEventListener('click', () => {
  $('totp-form').hidden = true;
  $('totp-open').hidden = false;
  totpSetup = null;
});
$('totp-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const form = ev.currentTarget;
  clearErrors(form);
  try {
    const r = await post('me/totp', { setup_id: totpSetup.setup_id, code: $('totp-code').value.replace(/\s+/g, '') });
    form.reset();
    form.hidden = true;
    $('totp-open').hidden = false;
    $('totp-done').textContent =
      'The new authenticator is in use.' +
      (r.signed_out
        ? ' ' + r.signed_out + ' other ' + (r.signed_out === 1 ? 'session was' : 'sessions were') + ' signed out.'
        : '');
    $('totp-done').hidden = false;
    await Promise.all([loadMe(), loadSessions()]);
  } catch (err) {
    fieldErrors(form, err, { code: 'Code' });
  }
});

$('rc-new').addEventListener('click', async (ev) => {
  if (!confirm('Make 10 new recovery codes? The codes you have now stop working.')) return;
  const b = ev.currentTarget;
  b.disabled = true;
  try {
    const r = await post('me/recovery-codes');
    $('rc-codes').replaceChildren(...r.codes.map((c) => el('li', null, c)));
    $('rc-shown').hidden = false;
    await loadMe();
  } catch (err) {
    pageError(err);
  } finally {
    b.disabled = false;
  }
});

// --- sessions and blocked addresses ----------------------------------------------------------

async function loadSessions() {
  const { items } = await get('me/sessions');
  const ul = $('sessions');
  ul.textContent = '';
  for (const ss of items) {
    const li = el('li');
    const text = el('span', 'item-text');
    const title = el('strong', null, (ss.device || 'Unknown browser') + (ss.ip ? ' · ' + ss.ip : ''));
    text.append(
      title,
      el(
        'span',
        'muted',
        'Signed in with ' +
          (METHOD[ss.method] || ss.method) +
          ' ' +
          when(ss.created_at) +
          ' · last seen ' +
          when(ss.seen_at) +
          ' · ends ' +
          when(ss.expires_at),
      ),
    );
    li.appendChild(text);
    if (ss.current) li.appendChild(el('span', 'tag-ack', 'this browser'));
    else {
      li.appendChild(
        smallButton(
          'Sign out',
          'Sign out ' + (ss.device || 'the session') + ' ' + (ss.ip || ''),
          'danger',
          async (b) => {
            b.disabled = true;
            try {
              await del('me/sessions/' + ss.id);
              await loadSessions();
            } catch (err) {
              b.disabled = false;
              pageError(err);
            }
          },
        ),
      );
    }
    ul.appendChild(li);
  }
  $('ss-others').hidden = items.length < 2;
}

$('ss-others').addEventListener('click', async (ev) => {
  const b = ev.currentTarget;
  b.disabled = true;
  try {
    await post('me/sessions/revoke-others');
    await loadSessions();
  } catch (err) {
    pageError(err);
  } finally {
    b.disabled = false;
  }
});

async function loadBlocked() {
  const { items } = await get('me/blocked-ips?limit=100');
  const ul = $('blocked');
  ul.textContent = '';
  for (const b of items) {
    const li = el('li');
    const text = el('span', 'item-text');
    text.append(
      el('strong', null, b.ip),
      el(
        'span',
        'muted',
        'Blocked ' +
          when(b.blocked_at) +
          ' until ' +
          when(b.blocked_until) +
          ' after ' +
          b.failures +
          ' failed attempts' +
          (b.reason === 'repeated' ? ' (a third block in a day)' : ''),
      ),
    );
    li.append(
      text,
      smallButton('Unblock', 'Unblock ' + b.ip, '', async (btn) => {
        btn.disabled = true;
        try {
          await del('me/blocked-ips/' + encodeURIComponent(b.ip));
          await loadBlocked();
        } catch (err) {
          btn.disabled = false;
          pageError(err);
        }
      }),
    );
    ul.appendChild(li);
  }
  if (!items.length) ul.appendChild(el('li', 'muted', 'No address is blocked.'));
}

Promise.all([loadMe(), loadPasskeys(), loadSessions(), loadBlocked()])
  .then(() => {
    $('loading').hidden = true;
    $('security').hidden = false;
  })
  .catch((err) => {
    $('loading').textContent = 'This page could not be loaded: ' + errorWords(err);
  });
