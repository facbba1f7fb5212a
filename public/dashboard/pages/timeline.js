// The timeline (GET /events): state changes, incidents, alerts, configuration changes with who
// made them, sign-ins and the service's own notices, newest first, filtered by kind and monitor,
// with new lines added live.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds } from '../../shared/page.js';
import { fillMonitorFilter, newestOnly } from '../core/api.js';
import { el, when } from '../core/format.js';
import { reloadOnEvents } from '../core/stream.js';

const $ = pageIds(['empty', 'f-monitor', 'filters', 'lines', 'live', 'loading', 'more'], 'timeline.js');
const form = $('filters');
let before = null;
/** Each kind of line in words (src/dashboard/timeline-kinds.ts, through the page). */
const KIND_WORDS = JSON.parse($('lines').dataset.kindWords || '{}');
const getLines = newestOnly();

const ACTOR = (a) => (a === 'owner' ? 'you' : a === 'system' ? null : a.startsWith('key:') ? 'key ' + a.slice(4) : a);

function line(e) {
  const li = el('li', 'tl-' + e.kind);
  const t = el('time', null, when(e.at));
  t.dateTime = e.at;
  const text = el('span', 'tl-text', e.text);
  const who = ACTOR(e.actor);
  if (who) text.appendChild(el('span', 'muted', ' · by ' + who));
  if (e.incident_id) {
    const a = el('a', 'tl-link', 'incident');
    a.href = '/incidents/' + e.incident_id;
    text.append(document.createTextNode(' '), a);
  }
  li.append(t, el('span', 'tl-kind', KIND_WORDS[e.kind] || e.kind.replace(/_/g, ' ')), text);
  return li;
}

function query(more) {
  const q = new URLSearchParams({ limit: '50' });
  const kinds = [...form.querySelectorAll('input[name=kind]:checked')].map((i) => i.value);
  if (kinds.length) q.set('kind', kinds.join(','));
  if ($('f-monitor').value) q.set('monitor_id', $('f-monitor').value);
  if (more && before !== null) q.set('before', before);
  return q;
}

async function load(more) {
  const page = await getLines('events?' + query(more));
  if (!page) return; // a newer request draws the list
  if (!more) $('lines').textContent = '';
  for (const e of page.items) $('lines').appendChild(line(e));
  before = page.next_cursor;
  $('more').hidden = before === null;
  $('empty').hidden = more || page.items.length > 0;
  $('loading').hidden = true;
}

const fail = (err) => {
  $('loading').hidden = false;
  $('loading').textContent = 'The timeline could not be loaded: ' + errorWords(err);
};

form.addEventListener('change', () => {
  const q = query(false);
  q.delete('limit');
  history.replaceState(null, '', q.toString() ? '?' + q : location.pathname);
  load(false).catch(fail);
});
form.addEventListener('submit', (ev) => ev.preventDefault());
$('more').addEventListener('click', () => load(true).catch(fail));

const params = new URLSearchParams(location.search);
for (const k of (params.get('kind') || '').split(',')) {
  const box = form.querySelector(`input[name=kind][value="${CSS.escape(k)}"]`);
  if (box) box.checked = true;
}

fillMonitorFilter($('f-monitor'), params.get('monitor_id'))
  .then(() => load(false))
  .catch(fail);

// New lines come with state changes, incidents and changes: reload the newest page shortly after.
const LINE_EVENTS = ['state', 'incident', 'monitors', 'blind', 'path', 'reset'];
reloadOnEvents(
  (name) => LINE_EVENTS.includes(name),
  1500,
  () => {
    if (before === null || $('lines').children.length <= 50) load(false).catch(fail);
  },
  $('live'),
);
