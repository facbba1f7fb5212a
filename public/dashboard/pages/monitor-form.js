// Create and edit a monitor of any kind. Every input is named by the API's dotted
// field path (`http.url`, `http.headers.0.value`), so the API's validation errors land next to
// the inputs they name. New monitors start from the defaults of GET /settings; secrets come
// back as ******** and are sent back as ******** (kept) unless the owner types a new value.
// "Test now" runs the unsaved monitor once (POST /monitors/test) and shows the result.
import '../core/shell.js';
import { ApiFailure } from '../../shared/errors.js';
import { busy, pageIds } from '../../shared/page.js';
import { get, getAll, patch, post } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { el } from '../core/format.js';
import { heartbeatPanel } from '../monitor/heartbeat.js';
import { resultView } from '../monitor/check-result.js';
import { drawLocationChoices, locationsBody, quorumWords } from '../monitor/locations-field.js';
import { addRow as addListRow, checkField, selectField, textField } from '../core/rows.js';

const $ = pageIds(
  [
    'cancel',
    'channel-choices',
    'created',
    'depends-choices',
    'depends-filter',
    'created-go',
    'created-title',
    'form-title',
    'group-list',
    'heartbeat-panel',
    'loading',
    'location-choices',
    'm-interval',
    'm-quorum-hint',
    'm-name-hint',
    'monitor-form',
    'save',
    'test',
    'test-body',
    'test-result',
    'where-fields',
    'where-none',
    'where-section',
  ],
  'monitor-form.js',
);
const form = $('monitor-form');
const editId = form.dataset.monitorId || null;
const KINDS = [
  'http',
  'tcp',
  'ping',
  'dns',
  'tls',
  'heartbeat',
  'smtp',
  'docker',
  'redis',
  'postgres',
  'mysql',
  'mqtt',
  'grpc',
];
const OPS = ['==', '!=', '<', '<=', '>', '>=', 'contains', 'exists', 'not_exists'];

const input = (name) => form.elements.namedItem(name);

// --- repeatable rows (headers, JSON rules) ---------------------------------------------------

const ROWS = {
  'http.headers': (i, v = {}) => [
    textField(`http.headers.${i}.name`, 'Name', v.name, { autocomplete: 'off' }),
    textField(`http.headers.${i}.value`, 'Value', v.value, { autocomplete: 'off' }),
    checkField(`http.headers.${i}.secret`, 'Secret', !!v.secret),
  ],
  'http.json': (i, v = {}) => jsonRuleRow('http', i, v),
  'mqtt.json': (i, v = {}) => jsonRuleRow('mqtt', i, v),
  'grpc.metadata': (i, v = {}) => [
    textField(`grpc.metadata.${i}.name`, 'Name', v.name, { autocomplete: 'off' }),
    textField(`grpc.metadata.${i}.value`, 'Value', v.value, { autocomplete: 'off' }),
    checkField(`grpc.metadata.${i}.secret`, 'Secret', !!v.secret),
  ],
};

/** A JSON rule's row, of http's answer or mqtt's message. */
function jsonRuleRow(k, i, v) {
  return [
    textField(`${k}.json.${i}.path`, 'Path', v.path, { placeholder: '$.status' }),
    selectField(`${k}.json.${i}.op`, 'Test', OPS, v.op || '=='),
    textField(
      `${k}.json.${i}.value`,
      'Value',
      v.value === undefined || v.value === null ? '' : typeof v.value === 'string' ? v.value : JSON.stringify(v.value),
    ),
  ];
}

const addRow = (list, value) => addListRow(form, list, ROWS[list], value);

form.querySelectorAll('[data-add]').forEach((b) =>
  b.addEventListener('click', () => {
    const row = addRow(b.dataset.add);
    row.querySelector('input').focus();
  }),
);

// --- kind and auth switches ------------------------------------------------------------------

function kind() {
  return form.querySelector('input[name=kind]:checked').value;
}

function showKind() {
  const k = kind();
  form.querySelectorAll('.kind-fields').forEach((d) => {
    d.hidden = d.dataset.kind !== k;
  });
  $('m-interval').min = k === 'heartbeat' ? 30 : 10;
  $('where-section').hidden = k === 'heartbeat';
}

function showQuorum() {
  const n = form.querySelectorAll('input[name=locations]:checked').length;
  $('m-quorum-hint').textContent = quorumWords(n, input('quorum').value.trim());
}

function showAuth() {
  const t = input('http.auth.type').value;
  form.querySelectorAll('[data-auth]').forEach((d) => {
    d.hidden = d.dataset.auth !== t;
  });
}

form.addEventListener('change', (ev) => {
  if (ev.target.name === 'kind') showKind();
  if (ev.target.name === 'http.auth.type') showAuth();
  if (ev.target.name === 'locations' || ev.target.name === 'quorum') showQuorum();
  if (ev.target.name === 'channels_mode') $('channel-choices').hidden = ev.target.value !== 'some';
});

// --- a name from the target ------------------------------------------------------------------

/** The host of a connection URL (redis://, postgres://, mysql://, mqtt://), or null. */
function urlHost(v) {
  const m = /^[a-z]+:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(v);
  return m ? m[1].replace(/^\[|\]$/g, '') || null : null;
}

/** The field each kind's target is typed in, and the host it names (null while it names none). */
const TARGETS = {
  'http.url': (v) => {
    try {
      return new URL(v).hostname.replace(/^\[|\]$/g, '') || null;
    } catch {
      return null;
    }
  },
  'tcp.host': (v) => v,
  'ping.host': (v) => v,
  'tls.host': (v) => v,
  'dns.name': (v) => v,
  'smtp.host': (v) => v,
  'docker.container': (v) => v,
  'redis.url': urlHost,
  'postgres.url': urlHost,
  'mysql.url': urlHost,
  'mqtt.url': urlHost,
  'grpc.target': (v) => (/^\[?([^\]]*?)\]?:\d+$/.exec(v) || [])[1] || null,
};
/** The name last put in for the owner: replaced while they have not typed one of their own. */
let suggested = '';

function suggestName(target) {
  const nameInput = input('name');
  if (editId || (nameInput.value.trim() !== '' && nameInput.value !== suggested)) return;
  const host = (TARGETS[target.name](target.value.trim()) || '').replace(/^www\./i, '');
  nameInput.value = host;
  suggested = host;
  $('m-name-hint').hidden = !host;
}

form.addEventListener('input', (ev) => {
  if (Object.hasOwn(TARGETS, ev.target.name)) suggestName(ev.target);
  if (ev.target.name === 'name') $('m-name-hint').hidden = true;
});

// --- filling the form ------------------------------------------------------------------------

function set(name, value) {
  const i = input(name);
  if (!i) return;
  if (i.type === 'checkbox') i.checked = !!value;
  else i.value = value === null || value === undefined ? '' : String(value);
}

function fill(m) {
  form.querySelector(`input[name=kind][value="${m.kind}"]`).checked = true;
  for (const k of [
    'name',
    'slug',
    'group',
    'description',
    'runbook_url',
    'interval_s',
    'timeout_ms',
    'confirm_after',
    'retry_interval_s',
    'recover_after',
    'slow_ms',
    'slow_after',
    'alert_on_slow',
    'remind_every_min',
    'paused',
    'public',
    'public_name',
    'public_group',
    'sort',
  ]) {
    set(k, m[k]);
  }
  set('tags', (m.tags || []).join(', '));
  const s = m[m.kind] || {};
  for (const [k, v] of Object.entries(s)) {
    if (v !== null && typeof v === 'object') continue;
    set(`${m.kind}.${k}`, v);
  }
  if (m.kind === 'http') {
    for (const h of s.headers || []) addRow('http.headers', h);
    for (const r of s.json || []) addRow('http.json', r);
    set('http.auth.type', s.auth ? s.auth.type : '');
    if (s.auth) for (const k of ['username', 'password', 'token']) set(`http.auth.${k}`, s.auth[k]);
    if (s.expect_header) {
      set('http.expect_header.name', s.expect_header.name);
      set('http.expect_header.contains', s.expect_header.contains);
    }
  }
  if (m.kind === 'mqtt') for (const r of s.json || []) addRow('mqtt.json', r);
  if (m.kind === 'grpc') for (const r of s.metadata || []) addRow('grpc.metadata', r);
  const mode = m.channels === null ? 'all' : m.channels.length ? 'some' : 'none';
  form.querySelector(`input[name=channels_mode][value=${mode}]`).checked = true;
  $('channel-choices').hidden = mode !== 'some';
  for (const id of m.channels || []) {
    const c = form.querySelector(`input[name=channel][value="${id}"]`);
    if (c) c.checked = true;
  }
  for (const id of m.depends_on || []) {
    const c = form.querySelector(`input[name=depends][value="${id}"]`);
    if (c) c.checked = true;
  }
}

function defaults(settings) {
  for (const [k, v] of Object.entries(settings.defaults || {})) set(k, v);
  set('http.method', 'GET');
  set('http.expect_status', '200-399');
  set('http.tls_warn_days', 14);
  set('ping.packets', 3);
  set('dns.record', 'A');
  set('dns.resolver', '1.1.1.1');
  set('tls.port', 443);
  set('tls.tls_warn_days', 14);
  set('heartbeat.grace_s', 60);
  set('smtp.port', 587);
  set('smtp.tls', 'starttls');
  set('smtp.tls_warn_days', 14);
  set('docker.endpoint', 'unix:///var/run/docker.sock');
  set('redis.tls', 'off');
  set('postgres.tls', 'off');
  set('postgres.query', 'SELECT 1');
  set('mysql.tls', 'off');
  set('mysql.query', 'SELECT 1');
  set('mqtt.tls', 'off');
  set('grpc.tls', 'off');
  set('remind_every_min', 0);
  set('sort', 0);
}

// --- reading the form ------------------------------------------------------------------------

const NUMBER = /^-?\d+$/;
function value(name) {
  const i = input(name);
  if (!i) return undefined;
  if (i.type === 'checkbox') return i.checked;
  const v = i.value.trim();
  if (i.type === 'number') return v === '' ? null : NUMBER.test(v) ? Number(v) : v;
  return v === '' ? null : v;
}

function jsonValue(text, op) {
  if (op === 'exists' || op === 'not_exists') return undefined;
  if (text === null) return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  return text;
}

/** The monitor body the form describes: every field of its kind, nulls for what is empty. */
function collect() {
  const k = kind();
  const body = { kind: k };
  for (const f of ['name', 'slug', 'group', 'description', 'runbook_url', 'public_name', 'public_group'])
    body[f] = value(f);
  for (const f of [
    'interval_s',
    'timeout_ms',
    'confirm_after',
    'retry_interval_s',
    'recover_after',
    'slow_after',
    'remind_every_min',
    'sort',
  ]) {
    const v = value(f);
    if (v !== null) body[f] = v;
  }
  body.slow_ms = value('slow_ms');
  for (const f of ['alert_on_slow', 'paused', 'public']) body[f] = value(f);
  // An empty slug: made from the name on create, left as it is on edit.
  if (body.slug === null) delete body.slug;
  const tags = (input('tags').value || '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  body.tags = tags;
  const mode = form.querySelector('input[name=channels_mode]:checked').value;
  body.channels =
    mode === 'all'
      ? null
      : mode === 'none'
        ? []
        : [...form.querySelectorAll('input[name=channel]:checked')].map((c) => Number(c.value));
  // The API refuses more than 10, itself and cycles, naming depends_on (docs/dependencies.md).
  body.depends_on = [...form.querySelectorAll('input[name=depends]:checked')].map((c) => Number(c.value));
  const s = {};
  const box = form.querySelector(`.kind-fields[data-kind="${k}"]`);
  box.querySelectorAll('[name]').forEach((i) => {
    const name = i.name;
    if (
      !name.startsWith(k + '.') ||
      /\.\d+\./.test(name) ||
      name.startsWith('http.auth.') ||
      name.startsWith('http.expect_header.')
    )
      return;
    const v = value(name);
    if (v === null && i.tagName === 'SELECT') return;
    s[name.slice(k.length + 1)] = v;
  });
  if (k === 'http') {
    s.headers = [...form.querySelectorAll('[data-list="http.headers"] .rep-row')].map((_row, i) => ({
      name: value(`http.headers.${i}.name`) || '',
      value: value(`http.headers.${i}.value`) || '',
      secret: value(`http.headers.${i}.secret`),
    }));
    s.json = jsonRules('http');
    const type = value('http.auth.type');
    s.auth =
      type === 'basic'
        ? { type, username: value('http.auth.username') || '', password: input('http.auth.password').value }
        : type === 'bearer'
          ? { type, token: input('http.auth.token').value }
          : null;
    const hn = value('http.expect_header.name');
    s.expect_header = hn ? { name: hn, contains: value('http.expect_header.contains') || '' } : null;
  }
  if (k === 'mqtt') s.json = jsonRules('mqtt');
  if (k === 'grpc') {
    s.service = s.service || '';
    s.metadata = [...form.querySelectorAll('[data-list="grpc.metadata"] .rep-row')].map((_row, i) => ({
      name: value(`grpc.metadata.${i}.name`) || '',
      value: value(`grpc.metadata.${i}.value`) || '',
      secret: value(`grpc.metadata.${i}.secret`),
    }));
  }
  body[k] = s;
  return Object.assign(body, locationsBody(form, $('where-fields')));
}

/** The JSON rule rows of http's or mqtt's fields. */
function jsonRules(k) {
  return [...form.querySelectorAll(`[data-list="${k}.json"] .rep-row`)].map((_row, i) => {
    const op = value(`${k}.json.${i}.op`);
    const rule = { path: value(`${k}.json.${i}.path`) || '', op };
    const v = jsonValue(value(`${k}.json.${i}.value`), op);
    if (v !== undefined) rule.value = v;
    return rule;
  });
}

// --- saving and testing ----------------------------------------------------------------------

const WORDS = {
  name: 'Name',
  slug: 'Slug',
  kind: 'Kind',
  channels: 'Channels',
  depends_on: 'Depends on',
  locations: 'Locations',
  quorum: 'Down when this many agree',
};

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const button = $('save');
  button.disabled = true;
  clearErrors(form);
  try {
    const body = collect();
    const m = editId ? await patch('monitors/' + editId, body) : await post('monitors', body);
    if (m.heartbeat_url) return showHeartbeat(m);
    location.assign('/monitors/' + m.id);
  } catch (err) {
    fieldErrors(form, err, WORDS);
  } finally {
    button.disabled = false;
  }
});

$('test').addEventListener('click', (ev) => {
  clearErrors(form);
  const box = $('test-result');
  return busy(ev.currentTarget, 'Testing…', async () => {
    try {
      const body = collect();
      const r = await post('monitors/test', body);
      $('test-body').replaceChildren(resultView(r, body.kind));
      box.hidden = false;
      box.scrollIntoView({ block: 'nearest' });
    } catch (err) {
      fieldErrors(form, err, WORDS);
    }
  });
});

function showHeartbeat(m) {
  form.hidden = true;
  $('cancel').hidden = true;
  $('form-title').textContent = m.name + ' is saved';
  $('heartbeat-panel').replaceChildren(heartbeatPanel(m.heartbeat_url, m.interval_s, m.name));
  $('created-go').href = '/monitors/' + m.id;
  $('created').hidden = false;
  $('created-title').focus();
}

/** One checkbox per other monitor, by name; the search box hides the ones that do not match. */
function dependsChoices(others) {
  const box = $('depends-choices');
  if (!others.length) box.appendChild(el('p', 'hint', 'No other monitors yet.'));
  for (const x of others.sort((a, b) => a.name.localeCompare(b.name))) {
    const l = el('label', 'check');
    const i = el('input');
    i.type = 'checkbox';
    i.name = 'depends';
    i.value = String(x.id);
    l.append(i, document.createTextNode(' ' + x.name + (x.group ? ' (' + x.group + ')' : '')));
    l.dataset.text = (x.name + ' ' + x.slug + ' ' + (x.group || '')).toLowerCase();
    box.appendChild(l);
  }
  $('depends-filter').addEventListener('input', () => {
    const q = $('depends-filter').value.trim().toLowerCase();
    for (const l of box.querySelectorAll('label'))
      l.hidden = q !== '' && !l.dataset.text.includes(q) && !l.querySelector('input').checked;
  });
}

// --- start -----------------------------------------------------------------------------------

async function start() {
  const [settings, channels, monitors, current, places] = await Promise.all([
    get('settings'),
    get('channels'),
    getAll('monitors'),
    editId ? get('monitors/' + editId) : Promise.resolve(null),
    get('locations'),
  ]);
  const groups = [...new Set(monitors.map((m) => m.group).filter(Boolean))].sort();
  $('group-list').replaceChildren(...groups.map((g) => new Option(g)));
  const choices = $('channel-choices');
  if (!channels.items.length) choices.appendChild(el('p', 'hint', 'No channels yet.'));
  for (const c of channels.items) {
    const l = el('label', 'check');
    const i = el('input');
    i.type = 'checkbox';
    i.name = 'channel';
    i.value = String(c.id);
    l.append(i, document.createTextNode(' ' + c.name + ' (' + c.kind + (c.enabled ? '' : ', off') + ')'));
    choices.appendChild(l);
  }
  choices.hidden = true;
  dependsChoices(monitors.filter((x) => String(x.id) !== String(editId)));
  const elsewhere = drawLocationChoices(
    $('location-choices'),
    places.items,
    (current && current.locations) || ['local'],
  );
  $('where-fields').hidden = !elsewhere;
  $('where-none').hidden = elsewhere;
  if (current && current.quorum != null) input('quorum').value = String(current.quorum);
  input('quorum').addEventListener('input', showQuorum);
  showQuorum();
  if (current) fill(current);
  else {
    defaults(settings);
    const k = new URLSearchParams(location.search).get('kind');
    if (KINDS.includes(k)) form.querySelector(`input[name=kind][value="${k}"]`).checked = true;
  }
  showKind();
  showAuth();
  $('loading').hidden = true;
  form.hidden = false;
  if (!current) input('http.url').focus();
}

start().catch((err) => {
  $('loading').textContent =
    err instanceof ApiFailure && err.status === 404
      ? 'There is no such monitor: it may have been deleted.'
      : 'The monitor could not be loaded: ' + err.message;
});
