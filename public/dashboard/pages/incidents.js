// Incidents: every incident, open ones first in time, filtered by state and monitor, live.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds } from '../../shared/page.js';
import { fillMonitorFilter, newestOnly } from '../core/api.js';
import { duration, el, when } from '../core/format.js';
import { reloadOnEvents } from '../core/stream.js';

const $ = pageIds(
  ['empty', 'f-monitor', 'f-state', 'filters', 'list-box', 'live', 'loading', 'more', 'rows'],
  'incidents.js',
);
let before = null;
const getRows = newestOnly();

function row(i) {
  const tr = el('tr');
  const name = el('td');
  const a = el('a', null, i.monitor_name);
  a.href = '/incidents/' + i.id;
  name.appendChild(a);
  const started = el('td');
  const t = el('time', null, when(i.started_at));
  t.dateTime = i.started_at;
  started.appendChild(t);
  const state = el('td');
  state.appendChild(el('span', 'status ' + (i.ended_at ? 'up' : 'down'), i.ended_at ? 'Ended' : 'Open'));
  if (i.acknowledged_at) state.appendChild(el('span', 'tag-ack', 'acknowledged'));
  tr.append(
    name,
    started,
    el('td', 'num', duration(i.duration_ms)),
    el('td', 'err-cell', (i.cause && i.cause.message) || ''),
    state,
  );
  return tr;
}

async function load(more) {
  const q = new URLSearchParams({ limit: '50', state: $('f-state').value });
  if ($('f-monitor').value) q.set('monitor_id', $('f-monitor').value);
  if (more && before !== null) q.set('before', before);
  const page = await getRows('incidents?' + q);
  if (!page) return; // a newer request draws the list
  if (!more) $('rows').textContent = '';
  for (const i of page.items) $('rows').appendChild(row(i));
  before = page.next_cursor;
  $('more').hidden = before === null;
  const none = !more && page.items.length === 0;
  $('empty').hidden = !none;
  $('list-box').hidden = none;
  $('loading').hidden = true;
}

function fail(err) {
  $('loading').hidden = false;
  $('loading').textContent = 'The incidents could not be loaded: ' + errorWords(err);
}

const params = new URLSearchParams(location.search);
if (params.get('state')) $('f-state').value = params.get('state');
$('filters').addEventListener('change', () => {
  const q = new URLSearchParams();
  if ($('f-state').value !== 'all') q.set('state', $('f-state').value);
  if ($('f-monitor').value) q.set('monitor_id', $('f-monitor').value);
  history.replaceState(null, '', q.toString() ? '?' + q : location.pathname);
  load(false).catch(fail);
});
$('more').addEventListener('click', () => load(true).catch(fail));

fillMonitorFilter($('f-monitor'), params.get('monitor_id'))
  .then(() => load(false))
  .catch(fail);

reloadOnEvents(
  (name) => name === 'incident' || name === 'reset',
  300,
  () => load(false).catch(fail),
  $('live'),
);
