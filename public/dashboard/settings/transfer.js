// Export and import: the export downloaded as a file (secrets masked unless asked for), and an
// import shown first as a dry run (what it would create, update, leave alone, and each error
// with its item and field) before it is applied, all or nothing.
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { api, get } from '../core/api.js';
import { el } from '../core/format.js';

const $ = pageIds(
  [
    'import-form',
    'transfer',
    'x-apply',
    'x-cancel',
    'x-done',
    'x-export',
    'x-file',
    'x-plan',
    'x-plan-body',
    'x-plan-title',
    'x-secrets',
  ],
  'transfer.js',
);
let doc = null;
let fileName = '';

$('x-export').addEventListener('click', async (ev) => {
  const b = ev.currentTarget;
  b.disabled = true;
  try {
    const data = await get('export' + ($('x-secrets').checked ? '?secrets=1' : ''));
    const blob = new Blob([JSON.stringify(data, null, 2) + '\n'], { type: 'application/json' });
    const a = el('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'farsight-export-' + data.exported_at.slice(0, 10) + '.json';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  } catch (err) {
    say($('import-form').querySelector('.form-error'), errorWords(err));
  } finally {
    b.disabled = false;
  }
});

function list(title, names) {
  const d = el('div', 'plan-part');
  d.appendChild(el('strong', null, title + ': ' + names.length));
  if (names.length)
    d.appendChild(el('span', 'muted', ' ' + names.slice(0, 30).join(', ') + (names.length > 30 ? ', …' : '')));
  return d;
}

function errorList(items, label) {
  const ul = el('ul', 'plan-errors');
  for (const e of items) {
    for (const f of e.fields)
      ul.appendChild(el('li', 'bad-text', (label(e) ? label(e) + ': ' : '') + f.field + ' ' + f.message));
  }
  return ul;
}

function plan(r) {
  const body = $('x-plan-body');
  body.textContent = '';
  // The answer is "like bulk": the monitors' report at its top level, the channels' under `channels`.
  for (const [p, label] of [
    [r, 'Monitors'],
    [r.channels, 'Channels'],
  ]) {
    const box = el('div', 'plan-section');
    box.appendChild(el('h4', null, label));
    box.append(list('Created', p.created), list('Updated', p.updated), list('Unchanged', p.unchanged));
    if (p.errors.length) box.appendChild(errorList(p.errors, (e) => e.slug || e.name || '#' + e.index));
    body.appendChild(box);
  }
  const sp = el('div', 'plan-section');
  sp.appendChild(el('h4', null, 'Status page'));
  sp.appendChild(el('p', null, r.status_page.changed ? 'Its settings change.' : 'No change.'));
  if (r.status_page.errors.length) sp.appendChild(errorList([{ fields: r.status_page.errors }], () => ''));
  body.appendChild(sp);
  const errors = r.errors.length + r.channels.errors.length + r.status_page.errors.length;
  $('x-apply').hidden = errors > 0;
  $('x-plan-title').textContent = errors
    ? fileName +
      ' cannot be imported: fix ' +
      (errors === 1 ? 'this problem' : 'these ' + errors + ' problems') +
      ' in it, then pick it again'
    : 'What importing ' + fileName + ' would do';
  $('x-plan').hidden = false;
  $('x-plan-title').focus();
}

$('x-file').addEventListener('change', async (ev) => {
  const out = $('import-form').querySelector('.form-error');
  say(out, null);
  $('x-done').hidden = true;
  $('x-plan').hidden = true;
  const file = ev.target.files[0];
  if (!file) return;
  fileName = file.name;
  // Emptied, so that the same file, once fixed, can be picked again.
  ev.target.value = '';
  try {
    doc = JSON.parse(await file.text());
  } catch {
    return say(out, 'This file is not JSON: pick a file made by an export.');
  }
  try {
    plan(await api('POST', 'import', Object.assign({}, doc, { dry_run: true })));
  } catch (err) {
    say(out, errorWords(err));
  }
});

$('x-apply').addEventListener('click', async (ev) => {
  const b = ev.currentTarget;
  b.disabled = true;
  try {
    const r = await api('POST', 'import', Object.assign({}, doc, { dry_run: false }));
    if (!r.applied) return plan(r);
    $('x-plan').hidden = true;
    $('x-done').textContent =
      `Imported: ${r.created.length} monitors created, ${r.updated.length} updated; ${r.channels.created.length} channels created, ${r.channels.updated.length} updated` +
      (r.status_page.changed ? '; the status page changed.' : '.');
    $('x-done').hidden = false;
  } catch (err) {
    say($('import-form').querySelector('.form-error'), errorWords(err));
  } finally {
    b.disabled = false;
  }
});

$('x-cancel').addEventListener('click', () => {
  $('x-plan').hidden = true;
  doc = null;
});

$('transfer').hidden = false;
