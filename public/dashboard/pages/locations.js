// Probe locations (docs/agents.md): the list with each one's state and agent, add one (its token
// shown once with the commands that install the agent), rename, a new token, remove. Adding,
// a new token and removing need a fresh sign-in, which the API module asks for (core/api.js).
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { del, get, patch, post } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { ago, el, when } from '../core/format.js';
import { copyOnClick } from '../monitor/heartbeat.js';
import { installText, LOCATION_STATES, plainHttpWarning } from '../locations/location-words.js';

const $ = pageIds(
  [
    'empty',
    'list-box',
    'list-error',
    'loading',
    'loc-form',
    'remove-body',
    'remove-dialog',
    'remove-form',
    'remove-title',
    'rename-dialog',
    'rename-form',
    'rename-title',
    'rotate-dialog',
    'rotate-form',
    'rotate-title',
    'rows',
    'shown',
    'shown-copy',
    'shown-copy-install',
    'shown-done',
    'shown-http',
    'shown-install',
    'shown-title',
    'shown-token',
  ],
  'locations.js',
);
const form = $('loc-form');
const shown = $('shown');

// --- the list --------------------------------------------------------------------------------

function actionButton(label, aria, cls, onClick) {
  const b = el('button', 'secondary small' + (cls ? ' ' + cls : ''), label);
  b.type = 'button';
  b.setAttribute('aria-label', aria);
  b.addEventListener('click', () => onClick(b));
  return b;
}

function row(loc) {
  const tr = el('tr');
  tr.dataset.location = loc.name;
  const s = LOCATION_STATES[loc.state] || { cls: 'unknown', word: loc.state };
  const state = el('td');
  state.append(el('span', 'status ' + s.cls, s.word));
  if (loc.last_seen_at) {
    const seen = el('span', 'muted', ' · last seen ' + ago(loc.last_seen_at));
    seen.title = when(loc.last_seen_at);
    state.append(seen);
  }
  const agent = loc.version ? 'farsight ' + loc.version + (loc.address ? ' from ' + loc.address : '') : '—';
  const actions = el('td', 'row-actions');
  actions.append(
    actionButton('Rename', 'Rename ' + loc.name, null, (b) => askRename(loc, b)),
    actionButton('Rotate token', 'Rotate token of ' + loc.name, null, (b) => askRotate(loc, b)),
    actionButton('Remove', 'Remove ' + loc.name, 'danger', (b) => askRemove(loc, b)),
  );
  tr.append(el('td', null, loc.name), state, el('td', null, agent), el('td', null, String(loc.monitors)), actions);
  return tr;
}

async function load() {
  const list = await get('locations');
  $('rows').replaceChildren(...list.items.map(row));
  $('list-box').hidden = list.items.length === 0;
  $('empty').hidden = list.items.length > 0;
  $('loading').hidden = true;
  say($('list-error'), null);
}

// Online state follows agents' contact: read again every 15 s while the page is in view (a
// location goes offline after 3 of its monitors' intervals without contact, at least 60 s).
setInterval(() => {
  if (document.visibilityState === 'visible' && !document.querySelector('dialog[open]'))
    load().catch((err) => say($('list-error'), 'The locations could not be read again: ' + errorWords(err)));
}, 15_000);

// --- the token, shown once -------------------------------------------------------------------

let shownToken = '';
let shownInstall = '';
function showToken(title, loc, token) {
  const server = shown.dataset.server;
  shownToken = token;
  shownInstall = installText({ server, token, version: shown.dataset.version, envFile: shown.dataset.envFile });
  $('shown-title').textContent = title;
  $('shown-token').textContent = token;
  $('shown-install').textContent = shownInstall;
  say($('shown-http'), plainHttpWarning(server));
  shown.hidden = false;
  $('shown-title').focus();
  shown.dataset.location = loc.name;
}
copyOnClick($('shown-copy'), () => shownToken);
copyOnClick($('shown-copy-install'), () => shownInstall);
$('shown-done').addEventListener('click', () => {
  shownToken = '';
  shownInstall = '';
  $('shown-token').textContent = '';
  $('shown-install').textContent = '';
  shown.hidden = true;
  form.elements.name.focus();
});

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  clearErrors(form);
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const loc = await post('locations', { name: form.elements.name.value.trim() });
    form.reset();
    showToken(`Install the agent for "${loc.name}"`, loc, loc.token);
    await load();
  } catch (err) {
    fieldErrors(form, err, { name: 'Name' });
  } finally {
    button.disabled = false;
  }
});

// --- rename, new token, remove: each in the page's own dialog --------------------------------

function dialog(box, formEl, work) {
  let target = null;
  box.querySelector('[data-close]').addEventListener('click', () => box.close());
  box.addEventListener('close', () => {
    if (target && target.button.isConnected) target.button.focus();
    target = null;
  });
  formEl.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const submit = formEl.querySelector('button[type=submit]');
    submit.disabled = true;
    say(formEl.querySelector('.form-error'), null);
    try {
      await work(target.loc, formEl);
      box.close();
      await load();
    } catch (err) {
      if (formEl.elements.name) fieldErrors(formEl, err, { name: 'New name' });
      else say(formEl.querySelector('.form-error'), errorWords(err));
    } finally {
      submit.disabled = false;
    }
  });
  return (loc, button) => {
    target = { loc, button };
    say(formEl.querySelector('.form-error'), null);
    box.showModal();
  };
}

const openRename = dialog($('rename-dialog'), $('rename-form'), async (loc, f) => {
  await patch('locations/' + loc.id, { name: f.elements.name.value.trim() });
});
function askRename(loc, button) {
  $('rename-title').textContent = `Rename "${loc.name}"`;
  clearErrors($('rename-form'));
  $('rename-form').elements.name.value = loc.name;
  openRename(loc, button);
}

const openRotate = dialog($('rotate-dialog'), $('rotate-form'), async (loc) => {
  const answer = await post('locations/' + loc.id + '/token');
  showToken(`New token for "${loc.name}"`, loc, answer.token);
});
function askRotate(loc, button) {
  $('rotate-title').textContent = `Rotate the token of "${loc.name}"?`;
  openRotate(loc, button);
}

const openRemove = dialog($('remove-dialog'), $('remove-form'), async (loc) => {
  await del('locations/' + loc.id);
  if (shown.dataset.location === loc.name) $('shown-done').click();
});
function askRemove(loc, button) {
  $('remove-title').textContent = `Remove "${loc.name}"?`;
  $('remove-body').textContent =
    'Its agent stops working at once' +
    (loc.monitors > 0
      ? ` and its ${loc.monitors} ${loc.monitors === 1 ? 'monitor is' : 'monitors are'} no longer checked from there.`
      : '.') +
    ' Its past checks stay in their monitors’ history.';
  openRemove(loc, button);
}

load().catch((err) => {
  $('loading').textContent = 'The locations could not be loaded: ' + errorWords(err);
});
