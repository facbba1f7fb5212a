// Service settings: monitor defaults, the time zone of days, retention, the email cap,
// private targets, public metrics and the watchdog, with what comes from the environment shown read-only. Only changed values
// are sent (PATCH /settings needs a fresh sign-in; the step-up dialog asks for it). Export and
// import live here too (transfer.js), and the import from Uptime Kuma (kuma-import.js).
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds } from '../../shared/page.js';
import { get, patch } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { el } from '../core/format.js';
import '../settings/transfer.js';
import '../settings/kuma-import.js';

const $ = pageIds(['loading', 'readonly', 's-tz', 's-tz-hint', 'saved', 'settings-form'], 'settings.js');
const form = $('settings-form');
let current = null;

function offsetWords(min) {
  const sign = min < 0 ? '−' : '+';
  const a = Math.abs(min);
  return 'UTC' + sign + String(Math.floor(a / 60)).padStart(2, '0') + ':' + String(a % 60).padStart(2, '0');
}

const tz = $('s-tz');
for (let m = -720; m <= 840; m += 15) tz.appendChild(new Option(offsetWords(m), String(m)));
const here = -new Date().getTimezoneOffset();
$('s-tz-hint').textContent =
  "Uptime days, daily bars and the email cap's day follow it. This browser is at " + offsetWords(here) + ' now.';

const get_ = (obj, path) => path.split('.').reduce((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);

function fill(s) {
  current = s;
  form.querySelectorAll('[name]').forEach((i) => {
    const v = get_(s, i.name);
    if (i.type === 'checkbox') i.checked = !!v;
    else i.value = v === undefined || v === null ? '' : String(v);
  });
  const dl = $('readonly');
  dl.textContent = '';
  const fact = (t, v) => {
    const d = el('div');
    d.append(el('dt', null, t), el('dd', null, v));
    dl.appendChild(d);
  };
  fact('Owner', s.owner_email || '–');
  fact('Public address', s.public_url + ' (FARSIGHT_PUBLIC_URL)');
  fact(
    'Mail',
    s.email.configured
      ? s.email.providers.join(', ') + ', from ' + s.email.from
      : 'No mail provider (FARSIGHT_SMTP): email channels cannot send',
  );
  fact('Sent today', String(s.email.sent_today) + ' of ' + s.email.daily_cap);
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  clearErrors(form);
  $('saved').hidden = true;
  const body = {};
  form.querySelectorAll('[name]').forEach((i) => {
    const v =
      i.type === 'checkbox'
        ? i.checked
        : i.value.trim() === ''
          ? null
          : /^-?\d+$/.test(i.value.trim())
            ? Number(i.value.trim())
            : i.value.trim();
    const was = get_(current, i.name);
    // An empty field of a section that is off (watchdog: null) is no change either.
    if (v === was || (v === null && (was === null || was === undefined))) return;
    const path = i.name.split('.');
    let o = body;
    for (const k of path.slice(0, -1)) o = o[k] = o[k] || {};
    o[path[path.length - 1]] = v;
  });
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    if (Object.keys(body).length) fill(await patch('settings', body));
    $('saved').textContent = Object.keys(body).length ? 'Saved.' : 'Nothing changed.';
    $('saved').hidden = false;
  } catch (err) {
    fieldErrors(form, err);
  } finally {
    button.disabled = false;
  }
});

get('settings')
  .then((s) => {
    fill(s);
    $('loading').hidden = true;
    form.hidden = false;
  })
  .catch((err) => {
    $('loading').textContent = 'The settings could not be loaded: ' + errorWords(err);
  });
