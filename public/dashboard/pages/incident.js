// One incident: what happened, its timeline (failing, down, alerts, acknowledgement, up), its
// failed checks; acknowledge it and leave a note. Live: the timeline grows as it happens.
import '../core/shell.js';
import { ApiFailure, errorWords } from '../../shared/errors.js';
import { pageIds } from '../../shared/page.js';
import { get, patch } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { duration, el, ms, when } from '../core/format.js';
import { reloadOnEvents } from '../core/stream.js';

const $ = pageIds(
  [
    'ack',
    'ack-form',
    'ack-saved',
    'checks',
    'facts',
    'i-sub',
    'i-title',
    'incident',
    'live',
    'loading',
    'note',
    'timeline',
  ],
  'incident.js',
);
const root = $('incident');
const id = Number(root.dataset.incidentId);
const form = $('ack-form');
let inc = null;
let noteTouched = false;
/** Each kind of timeline line in words (src/dashboard/timeline-kinds.ts, through the page). */
const KIND_WORDS = JSON.parse($('timeline').dataset.kindWords || '{}');

function fact(dl, term, value) {
  if (value === null || value === undefined || value === '') return;
  const d = el('div');
  const dd = el('dd');
  if (value instanceof Node) dd.appendChild(value);
  else dd.textContent = value;
  d.append(el('dt', null, term), dd);
  dl.appendChild(d);
}

function draw() {
  document.title = 'Incident: ' + inc.monitor_name + ' · Farsight';
  $('i-title').textContent = inc.monitor_name + (inc.ended_at ? ' was down' : ' is down');
  const sub = $('i-sub');
  sub.textContent = '';
  // Named by its monitor and when it began: the incident's id counts every monitor's incidents.
  const a = el('a', null, inc.monitor_name);
  a.href = '/monitors/' + inc.monitor_id;
  sub.append(document.createTextNode('An incident of '), a, document.createTextNode(', since ' + when(inc.started_at)));
  const dl = $('facts');
  dl.textContent = '';
  const state = el('span', 'status ' + (inc.ended_at ? 'up' : 'down'), inc.ended_at ? 'Ended' : 'Open');
  fact(dl, 'State', state);
  fact(dl, 'Started', when(inc.started_at));
  fact(
    dl,
    inc.ended_at ? 'Ended' : 'Down for',
    inc.ended_at
      ? when(inc.ended_at) +
          ' (' +
          ({
            recovered: 'it recovered',
            paused: 'the monitor was paused',
            deleted: 'the monitor was deleted',
            config_changed: 'the monitor was changed',
          }[inc.end_reason] || inc.end_reason) +
          ')'
      : duration(inc.duration_ms),
  );
  if (inc.ended_at) fact(dl, 'Lasted', duration(inc.duration_ms));
  fact(dl, 'Cause', inc.cause && inc.cause.message);
  if (inc.last_error && (!inc.cause || inc.last_error.message !== inc.cause.message))
    fact(dl, 'Latest error', inc.last_error.message);
  fact(dl, 'Failed checks', String(inc.fails));
  fact(dl, 'Acknowledged', inc.acknowledged_at ? when(inc.acknowledged_at) : 'Not yet');
  fact(dl, 'Note', inc.note);
  // Monitors down with it because they depend on its monitor (docs/dependencies.md).
  if (inc.affected && inc.affected.length) {
    const list = el('span');
    inc.affected.forEach((x, i) => {
      if (i > 0) list.append(document.createTextNode(', '));
      const link = el('a', null, x.name);
      link.href = '/monitors/' + x.monitor_id;
      list.append(link, document.createTextNode(x.until ? ' (until ' + when(x.until) + ')' : ''));
    });
    fact(dl, 'Affected', list);
  }
  $('ack').checked = !!inc.acknowledged_at;
  if (!noteTouched) $('note').value = inc.note || '';
  const tl = $('timeline');
  tl.textContent = '';
  for (const line of inc.timeline) {
    const li = el('li', 'tl-' + line.kind);
    const t = el('time', null, when(line.at));
    t.dateTime = line.at;
    li.append(
      t,
      el('span', 'tl-kind', KIND_WORDS[line.kind] || line.kind.replace(/_/g, ' ')),
      el('span', 'tl-text', line.text),
    );
    tl.appendChild(li);
  }
  const body = $('checks');
  body.textContent = '';
  for (const c of inc.checks) {
    const tr = el('tr');
    const td = el('td');
    const t = el('time', null, when(c.at));
    t.dateTime = c.at;
    td.appendChild(t);
    tr.append(
      td,
      el('td', 'num', ms(c.latency_ms)),
      el('td', 'num', c.status === null ? '–' : String(c.status)),
      el('td', 'err-cell', c.error ? c.error.message : ''),
    );
    body.appendChild(tr);
  }
}

async function load() {
  inc = await get('incidents/' + id);
  draw();
  $('loading').hidden = true;
  root.hidden = false;
}

$('note').addEventListener('input', () => {
  noteTouched = true;
});
form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  clearErrors(form);
  $('ack-saved').hidden = true;
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    // Only what changed: each field sent writes its words in the timeline ("withdrew an
    // acknowledgement that was not given" for an untouched box would be noise).
    const body = {};
    if ($('ack').checked !== !!inc.acknowledged_at) body.acknowledged = $('ack').checked;
    const note = $('note').value.trim() === '' ? null : $('note').value;
    if (note !== inc.note) body.note = note;
    if (Object.keys(body).length) inc = Object.assign(inc, await patch('incidents/' + id, body));
    noteTouched = false;
    await load();
    $('ack-saved').hidden = false;
  } catch (err) {
    fieldErrors(form, err);
  } finally {
    button.disabled = false;
  }
});

reloadOnEvents(
  (name, data) => name === 'reset' || (name === 'incident' && data.id === id),
  300,
  () => load().catch(() => undefined),
  $('live'),
);
load().catch((err) => {
  $('loading').textContent =
    err instanceof ApiFailure && err.status === 404
      ? 'There is no such incident.'
      : 'The incident could not be loaded: ' + errorWords(err);
});
