// API keys: create one (shown once, with a copy button) and revoke them. Both need a fresh
// sign-in, which the API module asks for when the session is older than 12 hours.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { del, get, post } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { el, when } from '../core/format.js';

const $ = pageIds(
  [
    'empty',
    'key-form',
    'list-box',
    'loading',
    'new-key',
    'nk-copy',
    'nk-done',
    'nk-title',
    'nk-value',
    'revoke-dialog',
    'revoke-form',
    'revoke-title',
    'rows',
  ],
  'keys.js',
);
const form = $('key-form');

function row(k) {
  const tr = el('tr');
  const expired = k.expires_at && Date.parse(k.expires_at) < Date.now();
  const last = k.last_used_at ? when(k.last_used_at) + (k.last_ip ? ' from ' + k.last_ip : '') : 'never';
  const cell = el('td');
  const b = el('button', 'secondary small danger', 'Revoke');
  b.type = 'button';
  b.setAttribute('aria-label', 'Revoke ' + k.name);
  b.addEventListener('click', () => askRevoke(k, b));
  cell.appendChild(b);
  tr.append(
    el('td', null, k.name),
    el('td', null, k.prefix + '…'),
    el('td', null, k.scope),
    el('td', null, when(k.created_at)),
    el('td', expired ? 'bad-text' : null, k.expires_at ? when(k.expires_at) + (expired ? ' (expired)' : '') : 'never'),
    el('td', null, last),
    cell,
  );
  return tr;
}

// Revoking asks in the page's own dialog (a browser confirm() cannot be styled, read by every
// screen reader the same way, or show why a revoke failed).
const revokeDialog = $('revoke-dialog');
let revoking = null;
function askRevoke(k, button) {
  revoking = { k, button };
  $('revoke-title').textContent = `Revoke the key "${k.name}"?`;
  say(revokeDialog.querySelector('.form-error'), null);
  revokeDialog.showModal();
}
revokeDialog.querySelector('[data-close]').addEventListener('click', () => revokeDialog.close());
revokeDialog.addEventListener('close', () => {
  if (revoking && revoking.button.isConnected) revoking.button.focus();
  revoking = null;
});
$('revoke-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const submit = ev.currentTarget.querySelector('button[type=submit]');
  submit.disabled = true;
  try {
    await del('keys/' + revoking.k.id);
    revokeDialog.close();
    await load();
    (document.querySelector('#rows button') || form.elements.name).focus();
  } catch (err) {
    say(revokeDialog.querySelector('.form-error'), errorWords(err));
  } finally {
    submit.disabled = false;
  }
});

async function load() {
  const list = await get('keys');
  $('rows').replaceChildren(...list.items.map(row));
  $('list-box').hidden = list.items.length === 0;
  $('empty').hidden = list.items.length > 0;
  $('loading').hidden = true;
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  clearErrors(form);
  const date = form.elements.expires_at.value;
  const body = {
    name: form.elements.name.value.trim(),
    scope: form.elements.scope.value,
    // The end of the chosen day, in the browser's zone.
    expires_at: date ? new Date(date + 'T23:59:59').toISOString() : null,
  };
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const k = await post('keys', body);
    $('nk-value').textContent = k.key;
    $('new-key').hidden = false;
    $('nk-title').focus();
    form.reset();
    await load();
  } catch (err) {
    fieldErrors(form, err, { name: 'Name', scope: 'Scope', expires_at: 'Expires' });
  } finally {
    button.disabled = false;
  }
});

$('nk-copy').addEventListener('click', async (ev) => {
  try {
    await navigator.clipboard.writeText($('nk-value').textContent);
    ev.currentTarget.textContent = 'Copied';
  } catch {
    ev.currentTarget.textContent = 'Select and copy by hand';
  }
});
$('nk-done').addEventListener('click', () => {
  $('nk-value').textContent = '';
  $('new-key').hidden = true;
  form.elements.name.focus();
});

load().catch((err) => {
  $('loading').textContent = 'The keys could not be loaded: ' + errorWords(err);
});
