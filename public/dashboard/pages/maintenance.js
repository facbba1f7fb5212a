// Maintenance windows: the list (start now, stop, edit, delete) and the editor, whose schedule
// previews its next five occurrences (POST /maintenance/preview: the service computes them, so
// the page and the engine never disagree) in the browser's zone, the owner's.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { del, get, getAll, patch, post } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { el, when } from '../core/format.js';

const $ = pageIds(
  [
    'del-dialog',
    'del-form',
    'del-title',
    'empty',
    'list-box',
    'loading',
    'mw-cancel',
    'mw-day-box',
    'mw-days-box',
    'mw-form',
    'mw-kind',
    'mw-monitors',
    'mw-once',
    'mw-preview',
    'mw-recurring',
    'mw-save',
    'mw-title',
    'mw-tz',
    'mw-zone',
    'rows',
  ],
  'maintenance.js',
);
const form = $('mw-form');
const f = form.elements;
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const STATE_WORDS = { active: 'In progress', scheduled: 'Scheduled', ended: 'Ended' };
let editing = null;
let monitorNames = new Map();

/** A datetime-local value (the browser's zone) as RFC 3339, or the text as typed when it is not one. */
const toIsoLocal = (v) => (v ? new Date(v).toISOString() : '');
const toLocalInput = (iso) => {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

function schedule() {
  const kind = f['schedule.kind'].value;
  if (kind === 'manual') return { kind };
  if (kind === 'once')
    return { kind, start: toIsoLocal(f['schedule.start'].value), end: toIsoLocal(f['schedule.end'].value) };
  const common = {
    kind,
    start_time: f['schedule.start_time'].value,
    duration_min: Number(f['schedule.duration_min'].value),
    tz: f['schedule.tz'].value.trim(),
    from: f['schedule.from'].value || null,
    until: f['schedule.until'].value || null,
  };
  if (kind === 'weekly')
    return { ...common, days: [...form.querySelectorAll('[name="schedule.days"]:checked')].map((c) => c.value) };
  return { ...common, day: Number(f['schedule.day'].value) };
}

function body() {
  const chosen = [...$('mw-monitors').selectedOptions].map((o) => Number(o.value));
  return {
    title: f.title.value.trim(),
    description: f.description.value.trim() || null,
    monitors: chosen.length ? chosen : null,
    schedule: schedule(),
    public: f.public.checked,
    announce_h: Number(f.announce_h.value),
  };
}

function showKind() {
  const kind = f['schedule.kind'].value;
  $('mw-once').hidden = kind !== 'once';
  $('mw-recurring').hidden = kind !== 'weekly' && kind !== 'monthly';
  $('mw-days-box').hidden = kind !== 'weekly';
  $('mw-day-box').hidden = kind !== 'monthly';
}

// The preview follows the editor, a moment after the last change; an answer that comes back
// after a newer question is dropped.
let asked = 0;
let timer = null;
function previewSoon() {
  clearTimeout(timer);
  timer = setTimeout(preview, 250);
}
async function preview() {
  const n = ++asked;
  const list = $('mw-preview');
  const s = schedule();
  if (s.kind === 'manual') {
    list.replaceChildren(el('li', 'muted', 'Only when started by hand.'));
    return;
  }
  if (s.kind === 'once' && (!s.start || !s.end)) {
    list.replaceChildren(el('li', 'muted', 'Choose when it starts and when it ends.'));
    return;
  }
  try {
    const out = await post('maintenance/preview', { schedule: s });
    if (n !== asked) return;
    list.replaceChildren(
      ...(out.occurrences.length
        ? out.occurrences.map((o) => el('li', null, when(o.start) + ' to ' + when(o.end)))
        : [el('li', 'muted', 'No occurrence to come.')]),
    );
  } catch (err) {
    if (n === asked) list.replaceChildren(el('li', 'muted', 'No preview yet: ' + errorWords(err)));
  }
}

function whenText(w) {
  const span = w.current || w.next;
  if (!span) return w.schedule.kind === 'manual' ? 'When started by hand' : '–';
  const end = span.end ? when(span.end) : 'until stopped';
  return (w.current ? 'Since ' : 'Next: ') + when(span.start) + ', ' + (span.end ? 'until ' + end : end);
}

function button(label, aria, onClick, cls = 'secondary small') {
  const b = el('button', cls, label);
  b.type = 'button';
  b.setAttribute('aria-label', aria);
  b.addEventListener('click', onClick);
  return b;
}

function row(w) {
  const tr = el('tr');
  tr.id = 'window-' + w.id;
  const actions = el('td', 'actions');
  actions.append(
    w.state === 'active'
      ? button('Stop', 'Stop ' + w.title, () => act(() => post(`maintenance/${w.id}/stop`)))
      : button('Start now', 'Start ' + w.title + ' now', () => act(() => post(`maintenance/${w.id}/start`))),
    button('Edit', 'Edit ' + w.title, () => edit(w)),
    button('Delete', 'Delete ' + w.title, () => askDelete(w), 'secondary small danger'),
  );
  const names =
    w.monitors === null ? 'All' : w.monitors.map((id) => monitorNames.get(id) || '#' + id).join(', ') || 'None';
  tr.append(
    el('td', null, w.title),
    el('td', 'state-' + w.state, STATE_WORDS[w.state]),
    el('td', null, whenText(w)),
    el('td', null, names),
    actions,
  );
  return tr;
}

async function act(work) {
  try {
    await work();
    await load();
  } catch (err) {
    say(form.querySelector('.form-error'), errorWords(err));
  }
}

function edit(w) {
  editing = w;
  clearErrors(form);
  f.title.value = w.title;
  f.description.value = w.description || '';
  f['schedule.kind'].value = w.schedule.kind;
  const s = w.schedule;
  if (s.kind === 'once') {
    f['schedule.start'].value = toLocalInput(s.start);
    f['schedule.end'].value = toLocalInput(s.end);
  }
  if (s.kind === 'weekly' || s.kind === 'monthly') {
    f['schedule.start_time'].value = s.start_time;
    f['schedule.duration_min'].value = s.duration_min;
    f['schedule.tz'].value = s.tz;
    f['schedule.from'].value = s.from || '';
    f['schedule.until'].value = s.until || '';
    for (const c of form.querySelectorAll('[name="schedule.days"]')) c.checked = (s.days || []).includes(c.value);
    if (s.kind === 'monthly') f['schedule.day'].value = s.day;
  }
  for (const o of $('mw-monitors').options) o.selected = (w.monitors || []).includes(Number(o.value));
  f.public.checked = w.public;
  f.announce_h.value = w.announce_h;
  $('mw-title').textContent = 'Change "' + w.title + '"';
  $('mw-save').textContent = 'Save the changes';
  $('mw-cancel').hidden = false;
  showKind();
  previewSoon();
  f.title.focus();
}

function resetForm() {
  editing = null;
  form.reset();
  f['schedule.tz'].value = ZONE;
  $('mw-title').textContent = 'New maintenance window';
  $('mw-save').textContent = 'Create the window';
  $('mw-cancel').hidden = true;
  showKind();
  previewSoon();
}

const delDialog = $('del-dialog');
let deleting = null;
function askDelete(w) {
  deleting = w;
  $('del-title').textContent = `Delete the window "${w.title}"?`;
  say(delDialog.querySelector('.form-error'), null);
  delDialog.showModal();
}
delDialog.querySelector('[data-close]').addEventListener('click', () => delDialog.close());
$('del-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  try {
    await del('maintenance/' + deleting.id);
    delDialog.close();
    if (editing && editing.id === deleting.id) resetForm();
    await load();
  } catch (err) {
    say(delDialog.querySelector('.form-error'), errorWords(err));
  }
});

async function load() {
  const list = await get('maintenance?limit=500');
  $('rows').replaceChildren(...list.items.map(row));
  $('list-box').hidden = list.items.length === 0;
  $('empty').hidden = list.items.length > 0;
  $('loading').hidden = true;
}

form.addEventListener('input', previewSoon);
f['schedule.kind'].addEventListener('change', () => {
  showKind();
  previewSoon();
});
$('mw-cancel').addEventListener('click', resetForm);
form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  clearErrors(form);
  const save = $('mw-save');
  save.disabled = true;
  try {
    if (editing) await patch('maintenance/' + editing.id, body());
    else await post('maintenance', body());
    resetForm();
    await load();
  } catch (err) {
    fieldErrors(form, err, { title: 'Title', monitors: 'Monitors', announce_h: 'Announce' });
  } finally {
    save.disabled = false;
  }
});

$('mw-zone').textContent = '(times in ' + ZONE + ')';
async function start() {
  const monitors = await getAll('monitors');
  monitorNames = new Map(monitors.map((m) => [m.id, m.name]));
  $('mw-monitors').replaceChildren(
    ...monitors.map((m) => {
      const o = el('option', null, m.name);
      o.value = String(m.id);
      return o;
    }),
  );
  resetForm();
  await load();
}
start().catch((err) => {
  $('loading').textContent = 'The maintenance windows could not be loaded: ' + errorWords(err);
});
