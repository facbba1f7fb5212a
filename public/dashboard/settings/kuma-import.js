// Import from Uptime Kuma (docs/import-kuma.md): the chosen file (kuma.db or a Kuma 1.x JSON
// backup) is sent as it is to POST /import/kuma, first as a dry run whose report is shown item by
// item (what would be created, updated, left alone, and what is skipped and why), then, on Apply,
// again with apply=true. The report is the same one `farsight import-kuma` prints.
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { api } from '../core/api.js';
import { el } from '../core/format.js';

const $ = pageIds(
  ['k-apply', 'k-cancel', 'k-counts', 'k-done', 'k-file', 'k-plan', 'k-plan-title', 'k-rows', 'kuma', 'kuma-form'],
  'kuma-import.js',
);
const KINDS = { monitor: 'Monitor', channel: 'Channel', maintenance: 'Maintenance', status_page: 'Status page' };
let file = null;

function outcomeWords(outcome, dryRun) {
  if (dryRun && (outcome === 'created' || outcome === 'updated')) return 'Would be ' + outcome;
  return outcome[0].toUpperCase() + outcome.slice(1);
}

function counts(r) {
  const c = r.counts;
  const verb = (o) => (r.dry_run ? 'would be ' + o : o);
  return `${c.created} ${verb('created')}, ${c.updated} ${verb('updated')}, ${c.unchanged} unchanged, ${c.skipped} skipped.`;
}

function draw(r, name) {
  const rows = $('k-rows');
  rows.textContent = '';
  for (const item of r.items) {
    const tr = el('tr', 'kuma-' + item.outcome);
    tr.appendChild(el('td', null, outcomeWords(item.outcome, r.dry_run)));
    tr.appendChild(el('td', null, KINDS[item.type] || item.type));
    tr.appendChild(el('td', null, item.name));
    tr.appendChild(el('td', 'muted', item.key && item.key !== item.name ? item.key : ''));
    const why = el('td');
    if (item.reason) why.appendChild(el('span', item.outcome === 'skipped' ? 'bad-text' : null, item.reason));
    if (item.notes.length) {
      const ul = el('ul', 'plan-errors');
      for (const n of item.notes) ul.appendChild(el('li', null, n));
      why.appendChild(ul);
    }
    tr.appendChild(why);
    rows.appendChild(tr);
  }
  $('k-counts').textContent = r.source + ': ' + counts(r);
  const writes = r.counts.created + r.counts.updated;
  $('k-apply').hidden = !r.dry_run || writes === 0;
  $('k-cancel').textContent = r.dry_run && writes > 0 ? 'Cancel' : 'Close';
  $('k-plan-title').textContent = r.dry_run ? `What importing ${name} would do` : `What importing ${name} did`;
  $('k-plan').hidden = false;
  $('k-plan-title').focus();
}

async function send(apply) {
  return api('POST', 'import/kuma' + (apply ? '?apply=true' : ''), file, {
    raw: true,
    type: 'application/octet-stream',
  });
}

$('k-file').addEventListener('change', async (ev) => {
  const out = $('kuma-form').querySelector('.form-error');
  say(out, null);
  $('k-done').hidden = true;
  $('k-plan').hidden = true;
  file = ev.target.files[0] || null;
  // Emptied, so that the same file can be picked again after a change in Kuma.
  ev.target.value = '';
  if (!file) return;
  try {
    draw(await send(false), file.name);
  } catch (err) {
    say(out, errorWords(err));
  }
});

$('k-apply').addEventListener('click', async (ev) => {
  const b = ev.currentTarget;
  b.disabled = true;
  try {
    const r = await send(true);
    draw(r, file.name);
    $('k-done').textContent = 'Imported: ' + counts(r);
    $('k-done').hidden = false;
  } catch (err) {
    say($('kuma-form').querySelector('.form-error'), errorWords(err));
  } finally {
    b.disabled = false;
  }
});

$('k-cancel').addEventListener('click', () => {
  $('k-plan').hidden = true;
  file = null;
});

$('kuma').hidden = false;
