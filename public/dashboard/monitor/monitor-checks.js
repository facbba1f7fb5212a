// A monitor's recent checks, newest first, with a filter by result and "show older": when, the
// result, latency, protocol status and error. A heartbeat monitor's are pings instead, which
// have no latency nor status: when each arrived, what it was (a ping, a missed deadline, a
// failure the job reported) and whether it came on time against the window (ping-timing.js;
// docs/dashboard.md). Live checks are added at the top as they happen.
import { pageIds } from '../../shared/page.js';
import { newestOnly } from '../core/api.js';
import { statusWords } from './check-result.js';
import { duration, el, ms, STATUS_WORDS, when } from '../core/format.js';
import { pingTimings } from './ping-timing.js';

const $ = pageIds(
  ['checks-body', 'checks-head', 'checks-more', 'checks-outcome', 'checks-table', 'checks-title'],
  'monitor-checks.js',
);

const PING_WORDS = { ping: 'Ping', missed: 'Missed', failed: 'Failure reported', unknown: 'Not counted' };
// A heartbeat's results by outcome, as the filter offers them (a heartbeat is never slow).
const PING_FILTER = { '': 'Every ping and deadline', down: 'Missed or failed', up: 'Pings', unknown: 'Not counted' };

let monitor = null;
let before = null;
/** A heartbeat's rows as loaded, newest first: each ping's timing needs the ping before it. */
let pings = [];
const getChecks = newestOnly();

const heartbeat = () => monitor.kind === 'heartbeat';

/** Words and columns for the monitor's kind (called again after the monitor changed). */
export function drawChecksHead(m) {
  const kindChanged = monitor !== null && (monitor.kind === 'heartbeat') !== (m.kind === 'heartbeat');
  monitor = m;
  const hb = heartbeat();
  $('checks-title').textContent = hb ? 'Recent pings and missed deadlines' : 'Recent checks';
  $('checks-table').setAttribute('aria-label', hb ? 'Table of recent pings' : 'Table of recent checks');
  $('checks-more').textContent = hb ? 'Show older pings' : 'Show older checks';
  const cols = hb
    ? [['When'], ['What'], ['Against the window'], ['Message']]
    : [['When'], ['Result'], ['Latency', 'num'], ['Status', 'num'], ['Error']];
  const tr = el('tr');
  for (const [words, cls] of cols) {
    const th = el('th', cls, words);
    th.scope = 'col';
    tr.appendChild(th);
  }
  $('checks-head').replaceChildren(tr);
  for (const o of $('checks-outcome').options) {
    if (!o.dataset.words) o.dataset.words = o.textContent;
    o.textContent = hb && o.value in PING_FILTER ? PING_FILTER[o.value] : o.dataset.words;
    o.hidden = hb && !(o.value in PING_FILTER);
  }
  if (kindChanged) return loadChecks(false);
}

function checkRow(c) {
  const tr = el('tr');
  tr.append(whenCell(c.at), statusCell(c.outcome, (STATUS_WORDS[c.outcome] || c.outcome) + held(c)));
  tr.append(
    el('td', 'num', ms(c.latency_ms)),
    el('td', 'num', statusWords(monitor.kind, c.status) || '–'),
    el('td', 'err-cell', c.error ? c.error.message : ''),
  );
  return tr;
}

function pingRow(c, t) {
  const tr = el('tr');
  tr.append(whenCell(c.at), statusCell(c.outcome, PING_WORDS[t.kind] + held(c)));
  let timing = '–';
  if (t.kind === 'missed') timing = 'Deadline passed';
  else if (t.gapMs !== null) {
    const after = duration(t.gapMs) + ' after the ping before';
    timing = t.lateMs > 0 ? 'Late: ' + duration(t.lateMs) + ' past the deadline (' + after + ')' : 'On time: ' + after;
  }
  const message = c.error ? c.error.message : c.detail || '';
  tr.append(
    el('td', t.lateMs > 0 || t.kind === 'missed' ? 'timing late' : 'timing', timing),
    el('td', c.error ? 'err-cell' : 'err-cell-plain', message),
  );
  return tr;
}

function whenCell(at) {
  const td = el('td');
  const t = el('time', null, when(at));
  t.dateTime = at;
  td.appendChild(t);
  return td;
}

/** A check made while a maintenance window held the monitor: left out of uptime (docs/maintenance.md, "Uptime"). */
function held(c) {
  return c.maintenance_window_id ? ' · maintenance' : '';
}

function statusCell(outcome, words) {
  const td = el('td');
  td.appendChild(el('span', 'status ' + outcome, words));
  return td;
}

/** Draws every loaded ping again: a ping added at either end changes its neighbour's timing. */
function drawPings() {
  const timings = pingTimings(pings, monitor.interval_s, monitor.heartbeat.grace_s);
  $('checks-body').replaceChildren(...pings.map((c, i) => pingRow(c, timings[i])));
}

function emptyRow(outcome) {
  const words = heartbeat()
    ? outcome
      ? 'No pings or deadlines with this result.'
      : 'No pings yet.'
    : outcome
      ? 'No checks with this result.'
      : 'No checks yet.';
  const tr = el('tr');
  const td = el('td', 'muted', words);
  td.colSpan = heartbeat() ? 4 : 5;
  tr.appendChild(td);
  return tr;
}

/** The newest page of results (`more`: the page before the oldest shown). */
export async function loadChecks(more) {
  const outcome = $('checks-outcome').value;
  const q =
    `monitors/${monitor.id}/checks?limit=50` +
    (outcome ? '&outcome=' + outcome : '') +
    (more && before !== null ? '&before=' + before : '');
  const page = await getChecks(q);
  if (!page) return; // a newer request draws the table
  const body = $('checks-body');
  if (heartbeat()) {
    pings = more ? pings.concat(page.items) : page.items;
    drawPings();
  } else {
    if (!more) body.textContent = '';
    for (const c of page.items) body.appendChild(checkRow(c));
  }
  if (!more && !page.items.length) body.replaceChildren(emptyRow(outcome));
  before = page.next_cursor;
  $('checks-more').hidden = page.next_cursor === null;
}

/** A check of this monitor from the stream, at the top when the filter lets it through. */
export function addCheck(c) {
  const outcome = $('checks-outcome').value;
  if (outcome && outcome !== c.outcome) return;
  if (heartbeat()) {
    pings.unshift(c);
    drawPings();
    return;
  }
  const body = $('checks-body');
  if (body.firstChild && body.firstChild.querySelector('td[colspan]')) body.textContent = '';
  body.insertBefore(checkRow(c), body.firstChild);
}

/** Wires the filter and "show older"; `onError` says why a load failed. */
export function initChecks(onError) {
  $('checks-outcome').addEventListener('change', () => loadChecks(false).catch(onError));
  $('checks-more').addEventListener('click', () => loadChecks(true).catch(onError));
}
