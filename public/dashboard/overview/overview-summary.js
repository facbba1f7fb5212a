// The top of the overview: the counts by status (with open incidents and checks a minute), the
// banner while Farsight cannot reach the outside world, and the open incidents with how long each
// has lasted.
import { pageIds } from '../../shared/page.js';
import { duration, el, when } from '../core/format.js';
import { monitors, openIncidents, view } from './overview-state.js';

const $ = pageIds(['blind', 'counts', 'incident-list', 'incidents'], 'overview-summary.js');

function countsNow() {
  const c = { total: 0, up: 0, down: 0, slow: 0, paused: 0, unknown: 0 };
  for (const m of monitors.values()) {
    c.total += 1;
    const s = (m.state && m.state.status) || 'unknown';
    c[s] = (c[s] || 0) + 1;
  }
  return c;
}

export function drawCounts() {
  const c = countsNow();
  const ul = $('counts');
  ul.textContent = '';
  const item = (cls, n, label) => {
    const li = el('li', cls);
    li.append(el('span', 'n', String(n)), el('span', 'label', label));
    ul.appendChild(li);
  };
  item('', c.total, c.total === 1 ? 'monitor' : 'monitors');
  item('up', c.up, 'up');
  item(c.down ? 'down' : '', c.down, 'down');
  item(c.slow ? 'slow' : '', c.slow, 'slow');
  item('', c.paused, 'paused');
  item('', openIncidents.size, openIncidents.size === 1 ? 'open incident' : 'open incidents');
  if (view.summary) item('', Math.round(view.summary.checks_per_min * 10) / 10, 'checks a minute');
  ul.hidden = monitors.size === 0;
}

export function drawBlind() {
  const b = view.summary && view.summary.blind;
  const banner = $('blind');
  banner.hidden = !(b && b.active);
  if (b && b.active) {
    banner.textContent =
      'Farsight cannot reach the outside world since ' +
      when(b.since) +
      ": checks that fail now are not counted and no monitor goes down, because the problem is most likely this server's own connection.";
  }
}

export function drawIncidents() {
  const list = $('incident-list');
  list.textContent = '';
  const items = [...openIncidents.values()].sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at));
  for (const i of items) {
    const li = el('li');
    const name = el('a', null, i.monitor_name);
    name.href = '/incidents/' + i.id;
    li.append(el('span', 'status down', 'Down'), name, el('span', 'cause', (i.cause && i.cause.message) || ''));
    // How long, said once ("for 1 min 58 s"); the moment it began is the title.
    const t = el('time', 'muted', 'for ' + duration(Math.max(0, Date.now() - Date.parse(i.started_at))));
    t.dateTime = i.started_at;
    t.title = when(i.started_at);
    li.appendChild(t);
    if (i.acknowledged_at) li.appendChild(el('span', 'tag-ack', 'acknowledged'));
    list.appendChild(li);
  }
  $('incidents').hidden = items.length === 0;
}
