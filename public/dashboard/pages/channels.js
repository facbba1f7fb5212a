// Alert channels: add, change, switch on and off, test and delete them (per kind: email
// recipients, a chat webhook URL, a signed webhook with its secret and headers, the push and
// paging services' fields from channel-services.js), and the delivery log of every attempt,
// filtered by channel.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { del, get, newestOnly, patch, post } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { el, when } from '../core/format.js';
import { addRow, clearRows, textField } from '../core/rows.js';
import { fillService, serviceConfig, serviceInputs, serviceSections, SERVICES } from '../channels/channel-services.js';

const $ = pageIds(
  [
    'add',
    'cf-cancel',
    'cf-chat-url',
    'cf-hook-generate',
    'cf-hook-secret',
    'cf-hook-url',
    'cf-mail-off',
    'cf-save',
    'cf-secret-hint',
    'cf-sign-count',
    'cf-title',
    'cf-to',
    'channel-form',
    'channels',
    'empty',
    'list-section',
    'loading',
    'log',
    'log-channel',
    'log-more',
    'log-section',
  ],
  'channels.js',
);
const form = $('channel-form');
const KIND_WORDS = { email: 'Email', chat: 'Chat', webhook: 'Webhook' };
for (const [k, s] of Object.entries(SERVICES)) KIND_WORDS[k] = s.label;
// The services' parts of the form, before the note on stored secrets.
$('cf-secret-hint').before(...serviceSections());
const HEADER_ROW = (i, v = {}) => [
  textField(`config.headers.${i}.name`, 'Name', v.name, { autocomplete: 'off' }),
  textField(`config.headers.${i}.value`, 'Value', v.value, { autocomplete: 'off' }),
];
let channels = [];
/** The answer of each channel's last test, kept while the list is drawn again. */
const tested = new Map();
let editing = null;
let logBefore = null;
const getLog = newestOnly();

// --- the form --------------------------------------------------------------------------------

const kind = () => form.querySelector('input[name=kind]:checked').value;
function showKind() {
  form.querySelectorAll('.cfg').forEach((d) => {
    const on = d.dataset.kind === kind();
    d.hidden = !on;
    // Only the shown kind's inputs carry their names, so errors find the visible one.
    d.querySelectorAll('[data-name], [name]').forEach((i) => {
      if (!i.dataset.name) i.dataset.name = i.name;
      if (i.dataset.name.startsWith('config.')) i.name = on ? i.dataset.name : '';
    });
  });
  $('cf-secret-hint').hidden = kind() === 'email';
}
form.addEventListener('change', (ev) => {
  if (ev.target.name === 'kind') showKind();
});
form
  .querySelector('[data-add]')
  .addEventListener('click', () => addRow(form, 'config.headers', HEADER_ROW).querySelector('input').focus());

// --- stored secrets and the signing secret ---------------------------------------------------

const MASK = '********';
const SECRET_MIN = 16;

/**
 * A URL or secret input: typed in the clear, so a typo can be seen; a stored value (answered as
 * ********) is shown masked, and the first keystroke replaces it whole.
 */
function showStored(input, value, clearType) {
  const stored = value === MASK;
  input.value = value || '';
  input.type = stored ? 'password' : clearType;
  if (stored) input.dataset.stored = '1';
  else delete input.dataset.stored;
}
for (const [input, clearType] of [
  [$('cf-chat-url'), 'url'],
  [$('cf-hook-url'), 'url'],
  // The services' secret tokens stay password fields; a secret notify URL is typed in the clear.
  ...serviceInputs(form)
    .filter(({ field }) => field.secret)
    .map(({ input, field }) => [input, field.type === 'url' ? 'url' : 'password']),
]) {
  input.addEventListener('beforeinput', (ev) => {
    const input = ev.currentTarget;
    if (!input.dataset.stored) return;
    delete input.dataset.stored;
    input.value = '';
    input.type = clearType;
  });
}
// The secret stays a password field (people may be watching), but a stored one is replaced whole too.
$('cf-hook-secret').addEventListener('beforeinput', (ev) => {
  const input = ev.currentTarget;
  if (!input.dataset.stored) return;
  delete input.dataset.stored;
  input.value = '';
});

/** Says before submit how far the secret is from its 16 characters (a stored one is fine as it is). */
function countSecret() {
  const input = $('cf-hook-secret');
  const n = input.value.length;
  $('cf-sign-count').textContent =
    input.dataset.stored || n === 0
      ? ''
      : n < SECRET_MIN
        ? `${n} of at least ${SECRET_MIN} characters: ${SECRET_MIN - n} more`
        : `${n} characters: long enough`;
}
$('cf-hook-secret').addEventListener('input', countSecret);

/** 32 random bytes as base64url: 43 characters of visible ASCII, none of them a space. */
function randomSecret() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
$('cf-hook-generate').addEventListener('click', () => {
  const input = $('cf-hook-secret');
  delete input.dataset.stored;
  input.value = randomSecret();
  // Shown, so it can be copied to the receiver: the API never shows it again.
  input.type = 'text';
  countSecret();
  input.focus();
  input.select();
});

function openForm(c) {
  editing = c;
  form.reset();
  clearErrors(form);
  clearRows(form, 'config.headers');
  // A form opened before (for another channel) may have left stored values masked or a secret shown.
  showStored($('cf-chat-url'), '', 'url');
  showStored($('cf-hook-url'), '', 'url');
  showStored($('cf-hook-secret'), '', 'password');
  for (const { input, field } of serviceInputs(form))
    if (field.secret) showStored(input, '', field.type === 'url' ? 'url' : 'password');
  $('cf-title').textContent = c ? 'Change ' + c.name : 'Add a channel';
  $('cf-save').textContent = c ? 'Save the changes' : 'Add the channel';
  form.querySelectorAll('input[name=kind]').forEach((r) => {
    r.disabled = !!c;
    if (c) r.checked = r.value === c.kind;
  });
  if (c) {
    form.elements.name.value = c.name;
    form.elements.enabled.checked = c.enabled;
    form.querySelectorAll('input[name=events]').forEach((e) => {
      e.checked = c.events.includes(e.value);
    });
    if (c.kind === 'email') $('cf-to').value = (c.config.to || []).join('\n');
    if (c.kind === 'chat') showStored($('cf-chat-url'), c.config.url, 'url');
    if (c.kind === 'webhook') {
      showStored($('cf-hook-url'), c.config.url, 'url');
      showStored($('cf-hook-secret'), c.config.secret, 'password');
      for (const h of c.config.headers || []) addRow(form, 'config.headers', HEADER_ROW, h);
    }
    if (SERVICES[c.kind]) fillService(form, c.kind, c.config, showStored);
  }
  countSecret();
  showKind();
  form.hidden = false;
  form.elements.name.focus();
}

function configOf(k) {
  if (k === 'email')
    return {
      to: $('cf-to')
        .value.split(/[\n,]/)
        .map((t) => t.trim())
        .filter(Boolean),
    };
  if (k === 'chat') return { url: $('cf-chat-url').value.trim() };
  if (SERVICES[k]) return serviceConfig(form, k);
  const rows = form.querySelectorAll('[data-list="config.headers"] .rep-row');
  return {
    url: $('cf-hook-url').value.trim(),
    secret: $('cf-hook-secret').value,
    headers: [...rows].map((row) => ({
      name: row.querySelectorAll('input')[0].value.trim(),
      value: row.querySelectorAll('input')[1].value,
    })),
  };
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  clearErrors(form);
  const k = editing ? editing.kind : kind();
  const body = {
    name: form.elements.name.value.trim(),
    enabled: form.elements.enabled.checked,
    events: [...form.querySelectorAll('input[name=events]:checked')].map((e) => e.value),
    config: configOf(k),
  };
  const button = $('cf-save');
  button.disabled = true;
  try {
    if (editing) await patch('channels/' + editing.id, body);
    else await post('channels', Object.assign({ kind: k }, body));
    form.hidden = true;
    await load();
    $('add').focus();
  } catch (err) {
    fieldErrors(form, err, { name: 'Name', events: 'Events', config: 'Settings' });
  } finally {
    button.disabled = false;
  }
});
$('cf-cancel').addEventListener('click', () => {
  form.hidden = true;
  $('add').focus();
});
$('add').addEventListener('click', () => openForm(null));

// --- the list --------------------------------------------------------------------------------

function statusWords(st) {
  if (st.state === 'none') return ['', 'Nothing sent yet'];
  if (st.state === 'ok') return ['up', 'Last delivery worked, ' + when(st.at)];
  return ['down', 'Last delivery failed, ' + when(st.at) + ': ' + (st.error || 'no reason given')];
}

function card(c) {
  const li = el('li', 'card-section channel');
  const head = el('div', 'section-head');
  const h = el('h3', null, c.name);
  head.append(
    h,
    el('span', 'muted', KIND_WORDS[c.kind] + (c.kind === 'email' ? ': ' + (c.config.to || []).join(', ') : '')),
  );
  li.appendChild(head);
  const [cls, words] = statusWords(c.status);
  li.appendChild(el('p', cls ? 'status-line ' + cls : 'status-line muted', (c.enabled ? '' : 'Off. ') + words));
  li.appendChild(el('p', 'muted small-text', 'Receives: ' + (c.events.length ? c.events.join(', ') : 'nothing')));
  const out = el('p', 'test-answer');
  out.setAttribute('role', 'status');
  out.hidden = true;
  const show = (cls, words) => {
    out.hidden = false;
    out.className = 'test-answer ' + cls;
    out.textContent = words;
    tested.set(c.id, [cls, words]);
  };
  if (tested.has(c.id)) show(...tested.get(c.id));
  const bar = el('div', 'actions-bar');
  const button = (label, cls, fn) => {
    const b = el('button', cls, label);
    b.type = 'button';
    b.setAttribute('aria-label', label + ': ' + c.name);
    b.addEventListener('click', () => fn(b));
    bar.appendChild(b);
  };
  button('Send a test', 'small', async (b) => {
    b.disabled = true;
    show('muted', 'Sending a test message…');
    try {
      const r = await post('channels/' + c.id + '/test');
      show(
        r.ok ? 'ok-text' : 'bad-text',
        (r.ok ? 'Delivered' : 'Not delivered') +
          (r.provider ? ' by ' + r.provider : '') +
          (r.status ? ' (status ' + r.status + ')' : '') +
          (r.error ? ': ' + r.error : '.'),
      );
      await Promise.all([loadLog(false), load()]);
    } catch (err) {
      show('bad-text', errorWords(err));
    } finally {
      b.disabled = false;
    }
  });
  button(c.enabled ? 'Switch off' : 'Switch on', 'secondary small', async () => {
    try {
      await patch('channels/' + c.id, { enabled: !c.enabled });
      await load();
    } catch (err) {
      say($('loading'), errorWords(err));
    }
  });
  button('Change', 'secondary small', () => openForm(c));
  button('Delete', 'secondary small danger', async () => {
    if (!confirm('Delete the channel ' + c.name + '? Messages waiting for it are dropped; its delivery log stays.'))
      return;
    try {
      await del('channels/' + c.id);
      await load();
    } catch (err) {
      show('bad-text', errorWords(err));
    }
  });
  li.append(bar, out);
  return li;
}

async function load() {
  const [list, settings] = await Promise.all([get('channels'), get('settings')]);
  channels = list.items;
  // Shown inside the email kind's part of the form only: the other kinds need no mail provider.
  $('cf-mail-off').hidden = settings.email.configured;
  $('channels').replaceChildren(...channels.map(card));
  $('list-section').hidden = channels.length === 0;
  $('empty').hidden = channels.length > 0;
  $('log-section').hidden = false;
  const sel = $('log-channel');
  const keep = sel.value;
  sel.length = 1;
  for (const c of channels) sel.appendChild(new Option(c.name, String(c.id)));
  sel.value = keep;
  $('loading').hidden = true;
}

// --- the delivery log --------------------------------------------------------------------------

async function loadLog(more) {
  const q = new URLSearchParams({ limit: '50' });
  if ($('log-channel').value) q.set('channel_id', $('log-channel').value);
  if (more && logBefore !== null) q.set('before', logBefore);
  const page = await getLog('deliveries?' + q);
  if (!page) return; // a newer request draws the log
  const body = $('log');
  if (!more) body.textContent = '';
  for (const d of page.items) {
    const tr = el('tr');
    const t = el('time', null, when(d.at));
    t.dateTime = d.at;
    const td = el('td');
    td.appendChild(t);
    const res = el('td');
    res.appendChild(el('span', 'status ' + (d.ok ? 'up' : 'down'), d.ok ? 'Sent' : 'Failed'));
    if (!d.ok && d.outbox_state === 'retrying') res.appendChild(el('span', 'muted', ' (retrying)'));
    const msg = el('td', 'err-cell-plain', d.summary || '');
    if (d.error) msg.appendChild(el('span', 'bad-text block', d.error));
    tr.append(
      td,
      el('td', null, d.channel_name || '–'),
      res,
      msg,
      el('td', 'muted', (d.provider || '') + (d.status ? ' · ' + d.status : '')),
    );
    body.appendChild(tr);
  }
  if (!more && !page.items.length) {
    const tr = el('tr');
    const td = el('td', 'muted', 'Nothing delivered yet.');
    td.colSpan = 5;
    tr.appendChild(td);
    body.appendChild(tr);
  }
  logBefore = page.next_cursor;
  $('log-more').hidden = logBefore === null;
}
$('log-channel').addEventListener('change', () => loadLog(false));
$('log-more').addEventListener('click', () => loadLog(true));

load()
  .then(() => loadLog(false))
  .catch((err) => {
    $('loading').textContent = 'The channels could not be loaded: ' + errorWords(err);
  });
