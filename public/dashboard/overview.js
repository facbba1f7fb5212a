// The overview: counts, the blind banner, open incidents, every monitor grouped by group with
// filters, search and sort, kept live by the stream. Rows are built once and updated in place;
// stream events are gathered and applied once per animation frame, so a burst of events costs
// one layout, not one per event.
import './shell.js';
import { errorWords } from '../shared/errors.js';
import { pageIds, say } from '../shared/page.js';
import { del, get, getAll, post } from './api.js';
import { duration, el, when } from './format.js';
import { buildRows, renameRow, replaceSpark, updateRow } from './monitor-row.js';
import { openStream, showLive } from './stream.js';
import { checklist } from './checklist.js';

const $ = pageIds([
  'blind', 'bulk', 'bulk-clear', 'bulk-count', 'bulk-result', 'clear-filters', 'counts', 'empty',
  'f-group', 'f-kind', 'f-q', 'f-sort', 'f-status', 'f-tag', 'filters', 'incident-list', 'incidents', 'list', 'live', 'loading',
  'monitors', 'select-all', 'shown',
], 'overview.js');
const monitorLink = (id) => '/monitors/' + id;

const monitors = new Map(); // id -> monitor answer
const rows = new Map(); // id -> row element
const openIncidents = new Map(); // id -> incident
let summary = null;
let loaded = false;
let buffered = [];

const STATUS_RANK = { down: 0, slow: 1, unknown: 2, up: 3, paused: 4 };
const filters = { q: '', status: '', group: '', tag: '', kind: '', sort: 'order' };

// --- loading ----------------------------------------------------------------------------------

async function loadAll() {
  const [list, sum, incidents] = await Promise.all([getAll('monitors'), get('summary'), get('incidents?state=open&limit=100')]);
  monitors.clear();
  for (const m of list) monitors.set(m.id, m);
  for (const [id, row] of rows) if (!monitors.has(id)) { row.remove(); rows.delete(id); }
  for (const m of list) {
    const row = rows.get(m.id);
    if (row) {
      updateRow(row, m);
      replaceSpark(row, m);
    }
  }
  summary = sum;
  openIncidents.clear();
  for (const i of incidents.items) openIncidents.set(i.id, i);
  $('loading').hidden = true;
  loaded = true;
  drawAll();
  checklist(monitors.size);
  const queued = buffered;
  buffered = [];
  for (const [name, data] of queued) apply(name, data);
}

// --- drawing ----------------------------------------------------------------------------------

function drawAll() {
  drawCounts();
  drawBlind();
  drawIncidents();
  drawFilterChoices();
  drawList();
}

function countsNow() {
  const c = { total: 0, up: 0, down: 0, slow: 0, paused: 0, unknown: 0 };
  for (const m of monitors.values()) {
    c.total += 1;
    const s = (m.state && m.state.status) || 'unknown';
    c[s] = (c[s] || 0) + 1;
  }
  return c;
}

function drawCounts() {
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
  if (summary) item('', Math.round(summary.checks_per_min * 10) / 10, 'checks a minute');
  ul.hidden = monitors.size === 0;
}

function drawBlind() {
  const b = summary && summary.blind;
  const banner = $('blind');
  banner.hidden = !(b && b.active);
  if (b && b.active) {
    banner.textContent = 'Farsight cannot reach the outside world since ' + when(b.since) +
      ': checks that fail now are not counted and no monitor goes down, because the problem is most likely this server\'s own connection.';
  }
}

function drawIncidents() {
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

function fillSelect(select, values, current) {
  const keep = select.value || current;
  select.length = 1;
  for (const v of values) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = v;
    select.appendChild(o);
  }
  select.value = values.includes(keep) ? keep : '';
}

function drawFilterChoices() {
  const groups = new Set();
  const tags = new Set();
  for (const m of monitors.values()) {
    if (m.group) groups.add(m.group);
    for (const t of m.tags || []) tags.add(t);
  }
  fillSelect($('f-group'), [...groups].sort(), filters.group);
  fillSelect($('f-tag'), [...tags].sort(), filters.tag);
}

function matches(m) {
  const s = (m.state && m.state.status) || 'unknown';
  if (filters.status && s !== filters.status) return false;
  if (filters.group && m.group !== filters.group) return false;
  if (filters.tag && !(m.tags || []).includes(filters.tag)) return false;
  if (filters.kind && m.kind !== filters.kind) return false;
  if (filters.q) {
    const q = filters.q.toLowerCase();
    if (![m.name, m.slug, m.target].some((t) => t && t.toLowerCase().includes(q))) return false;
  }
  return true;
}

// One collator, made at the first sort: localeCompare() is several times slower per call on a
// thousand names. Numbers in names sort as numbers ("job 2" before "job 10").
let collator = null;
const byName = (a, b) => (collator ??= new Intl.Collator(undefined, { numeric: true })).compare(a.name, b.name);
const SORTS = {
  order: (a, b) => (a.sort || 0) - (b.sort || 0) || byName(a, b),
  name: byName,
  status: (a, b) => STATUS_RANK[a.state.status] - STATUS_RANK[b.state.status] || byName(a, b),
  latency: (a, b) => (b.state.latency_ms ?? -1) - (a.state.latency_ms ?? -1) || byName(a, b),
  uptime: (a, b) => (a.stats.uptime_24h ?? 101) - (b.stats.uptime_24h ?? 101) || byName(a, b),
};


/** The monitors the list shows, in order (the rows of some may still be on their way). */
let shownIds = [];
/** Each draw's number: a slice of an older draw stops. */
let drawNo = 0;
/** Rows the first slice places: more than a screenful on a large window. */
const FIRST_ROWS = 40;
/** Rows built per batch, and how long a later slice goes on building before the page gets the thread back. */
const BATCH_ROWS = 20;
const SLICE_MS = 12;

/**
 * Draws the groups at once and fills them with their rows: the top of the list first, then the
 * rest in slices of about SLICE_MS between which the page answers the owner, so that building a
 * thousand rows on the first load never holds it for a quarter of a second. The list is
 * aria-busy until the last slice. Rows already built cost next to nothing to place.
 */
function drawList() {
  const empty = monitors.size === 0;
  $('empty').hidden = !empty;
  $('monitors').hidden = empty;
  if (empty) return;
  const shown = [...monitors.values()].filter(matches).sort(SORTS[filters.sort] || SORTS.order);
  const groups = new Map();
  for (const m of shown) {
    const g = m.group || '';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(m);
  }
  const names = [...groups.keys()].sort((a, b) => (a === '') - (b === '') || a.localeCompare(b));
  const frag = document.createDocumentFragment();
  const places = [];
  heads = [];
  for (const g of names) {
    const list = groups.get(g);
    const section = el('section', 'group');
    const h = el('h3', null, g || (names.length > 1 ? 'Not in a group' : 'Monitors'));
    const figures = el('span', 'muted');
    h.appendChild(figures);
    heads.push({ figures, ids: list.map((m) => m.id) });
    section.appendChild(h);
    const head = el('div', 'mon-head');
    head.setAttribute('aria-hidden', 'true');
    head.append(el('span'), el('span', null, 'Status'), el('span', null, 'Monitor'), el('span', null, 'Latency, 24 h'), el('span', 'num', 'Latest'), el('span', 'num', 'Up 24 h'), el('span', 'num', 'Up 30 d'));
    section.appendChild(head);
    for (const m of list) places.push([section, m.id]);
    frag.appendChild(section);
  }
  const listEl = $('list');
  listEl.textContent = '';
  listEl.appendChild(frag);
  shownIds = shown.map((m) => m.id);
  drawGroupHeads();
  const filtered = Object.entries(filters).some(([k, v]) => k !== 'sort' && v);
  const plural = (n) => n + (n === 1 ? ' monitor' : ' monitors');
  $('shown').textContent = filtered ? `${shown.length} of ${plural(monitors.size)} ${shown.length === 1 ? 'matches' : 'match'}` : plural(monitors.size);
  $('clear-filters').hidden = !filtered;
  if (shown.length === 0) listEl.appendChild(el('p', 'card-section', 'No monitor matches these filters.'));
  placeRows(places, 0, ++drawNo);
}

/** Each group's header figures and the monitors under it, as last drawn. */
let heads = [];

/** The groups' "N monitors, N down", from the monitors' status now (after every status change). */
function drawGroupHeads() {
  for (const { figures, ids } of heads) {
    const down = ids.filter((id) => monitors.get(id)?.state.status === 'down').length;
    const words = ids.length + (ids.length === 1 ? ' monitor' : ' monitors') + (down ? ', ' + down + ' down' : '');
    if (figures.textContent !== words) figures.textContent = words;
  }
}

/** Places rows from `from` on, a batch at a time (new rows from one parse each); the rest in the next task. */
function placeRows(places, from, no) {
  if (no !== drawNo) return;
  const started = performance.now();
  let i = from;
  while (i < places.length) {
    const end = Math.min(places.length, i + BATCH_ROWS);
    const todo = [];
    for (let j = i; j < end; j++) {
      const m = monitors.get(places[j][1]);
      if (m && !rows.has(m.id)) todo.push(m);
    }
    if (todo.length) for (const [id, row] of buildRows(todo, (m) => monitorLink(m.id))) rows.set(id, row);
    // A monitor deleted since the draw began has no row any more.
    for (let j = i; j < end; j++) if (rows.has(places[j][1])) places[j][0].appendChild(rows.get(places[j][1]));
    i = end;
    if (from === 0 ? i >= FIRST_ROWS : performance.now() - started >= SLICE_MS) break;
  }
  const more = i < places.length;
  $('list').setAttribute('aria-busy', String(more));
  if (more) setTimeout(() => placeRows(places, i, no), 0);
  if (from === 0 || !more) drawSelection();
}

// --- selection and bulk actions ---------------------------------------------------------------

const selected = new Set();

function drawSelection() {
  for (const [id, row] of rows) {
    const pick = row.querySelector('.pick');
    if (pick.checked !== selected.has(id)) pick.checked = selected.has(id);
  }
  const n = selected.size;
  $('bulk').hidden = n === 0;
  $('bulk-count').textContent = n + (n === 1 ? ' monitor selected' : ' monitors selected');
  const all = $('select-all');
  all.checked = shownIds.length > 0 && shownIds.every((id) => selected.has(id));
  all.indeterminate = !all.checked && shownIds.some((id) => selected.has(id));
}

$('list').addEventListener('change', (ev) => {
  if (!ev.target.classList.contains('pick')) return;
  const id = Number(ev.target.value);
  if (ev.target.checked) selected.add(id);
  else selected.delete(id);
  drawSelection();
});
$('select-all').addEventListener('change', (ev) => {
  for (const id of shownIds) {
    if (ev.target.checked) selected.add(id);
    else selected.delete(id);
  }
  drawSelection();
});
$('bulk-clear').addEventListener('click', () => {
  selected.clear();
  drawSelection();
  say($('bulk-result'), null);
});

/** Requests a bulk action keeps in flight at once. */
const BULK_AT_ONCE = 6;

const BULK = {
  pause: { words: 'Pausing', call: (id) => post(`monitors/${id}/pause`) },
  resume: { words: 'Resuming', call: (id) => post(`monitors/${id}/resume`) },
  mute60: { words: 'Muting', call: (id) => post(`monitors/${id}/mute`, { minutes: 60 }) },
  mute1440: { words: 'Muting', call: (id) => post(`monitors/${id}/mute`, { minutes: 1440 }) },
  unmute: { words: 'Unmuting', call: (id) => post(`monitors/${id}/unmute`) },
  delete: { words: 'Deleting', call: (id) => del(`monitors/${id}`) },
};

$('bulk').addEventListener('click', async (ev) => {
  const b = ev.target.closest('button[data-bulk]');
  if (!b) return;
  const action = BULK[b.dataset.bulk];
  const ids = [...selected];
  if (ids.length === 0) return;
  if (b.dataset.bulk === 'delete' && !confirm('Delete ' + ids.length + (ids.length === 1 ? ' monitor' : ' monitors') + ' with their history? This cannot be undone.')) return;
  const buttons = $('bulk').querySelectorAll('button');
  buttons.forEach((x) => { x.disabled = true; });
  const failed = [];
  let done = 0;
  const one = async (id) => {
    try {
      await action.call(id);
      selected.delete(id);
    } catch (err) {
      failed.push((monitors.get(id) || { name: '#' + id }).name + ': ' + errorWords(err));
      return err;
    } finally {
      done += 1;
      say($('bulk-result'), action.words + ': ' + done + ' of ' + ids.length + '…');
    }
    return null;
  };
  // The first alone (a step-up it asks for is then good for the rest), the rest a few at a time:
  // hundreds of monitors take seconds, and the service is never sent hundreds of requests at once.
  say($('bulk-result'), action.words + ': 0 of ' + ids.length + '…');
  const first = await one(ids[0]);
  // A sign-in or step-up the owner turned down is not asked again for each of the others.
  let next = first && (first.code === 'step_up' || first.code === 'sign_in') ? ids.length : 1;
  const worker = async () => { while (next < ids.length) await one(ids[next++]); };
  await Promise.all(Array.from({ length: Math.min(BULK_AT_ONCE, ids.length - 1) }, worker));
  buttons.forEach((x) => { x.disabled = false; });
  const left = ids.length - done;
  say($('bulk-result'), left ? 'Stopped: ' + failed.join('; ') : failed.length ? 'Done, except ' + failed.length + ': ' + failed.join('; ') : 'Done: ' + ids.length + (ids.length === 1 ? ' monitor.' : ' monitors.'));
  drawSelection();
});

// --- filters in the form and in the address --------------------------------------------------

function readFilters() {
  const q = new URLSearchParams(location.search);
  for (const k of Object.keys(filters)) if (q.has(k)) filters[k] = q.get(k);
  $('f-q').value = filters.q;
  for (const k of ['status', 'kind', 'sort']) $('f-' + k).value = filters[k];
}

function writeFilters() {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v && !(k === 'sort' && v === 'order')) q.set(k, v);
  const s = q.toString();
  history.replaceState(null, '', s ? '?' + s : location.pathname);
}

let searchTimer = null;
$('filters').addEventListener('input', (ev) => {
  const name = ev.target.name;
  if (!(name in filters)) return;
  filters[name] = ev.target.value.trim();
  clearTimeout(searchTimer);
  // Typing waits a moment; a choice applies at once.
  searchTimer = setTimeout(() => {
    writeFilters();
    drawList();
  }, name === 'q' ? 120 : 0);
});
$('filters').addEventListener('submit', (ev) => ev.preventDefault());
$('clear-filters').addEventListener('click', () => {
  for (const k of Object.keys(filters)) filters[k] = k === 'sort' ? filters.sort : '';
  $('f-q').value = '';
  for (const k of ['status', 'group', 'tag', 'kind']) $('f-' + k).value = '';
  writeFilters();
  drawList();
  $('f-q').focus();
});

// --- live -------------------------------------------------------------------------------------

const pending = new Map(); // id -> true: rows to bring up to date at the next frame
let frame = 0;
let relist = false;
let recount = false;
let refetch = new Set();
let refetchTimer = null;
/** A monitor was created or changed: the first-run checklist may have moved too. */
let recheck = false;

function schedule() {
  if (!frame) frame = requestAnimationFrame(flush);
}

function flush() {
  frame = 0;
  for (const id of pending.keys()) {
    const m = monitors.get(id);
    const row = rows.get(id);
    if (m && row) updateRow(row, m);
  }
  pending.clear();
  if (recount) {
    drawCounts();
    drawGroupHeads();
    recount = false;
  }
  if (relist) {
    drawList();
    relist = false;
  }
}

/** Status-dependent views (a status filter, worst-first order) are redrawn at most once a second. */
let relistTimer = null;
function relistSoon() {
  if (!(filters.status || filters.sort === 'status' || filters.sort === 'latency')) return;
  if (relistTimer) return;
  relistTimer = setTimeout(() => {
    relistTimer = null;
    relist = true;
    schedule();
  }, 1000);
}

function apply(name, data) {
  if (!loaded) {
    if (name === 'reset') buffered = [];
    else buffered.push([name, data]);
    return;
  }
  switch (name) {
    case 'check': {
      const m = monitors.get(data.monitor_id);
      if (!m) return;
      if (figuresMoved(m, data)) refetchSoon(m.id);
      m.state = Object.assign({}, m.state, { latency_ms: data.latency_ms, last_check_at: new Date(data.at_ms).toISOString() });
      if (data.outcome === 'down' && data.error) m.state.error = data.error;
      pending.set(m.id, true);
      schedule();
      return;
    }
    case 'state': {
      const m = monitors.get(data.monitor_id);
      if (!m) return;
      const before = m.state.status;
      m.state = data.state;
      pending.set(m.id, true);
      if (before !== data.state.status) {
        recount = true;
        relistSoon();
        // Its figures (up 24 h, up 30 d, the spark) moved with the status: read them again.
        refetchSoon(m.id);
      }
      schedule();
      return;
    }
    case 'incident':
      if (data.ended_at === null) openIncidents.set(data.id, data);
      else openIncidents.delete(data.id);
      drawIncidents();
      recount = true;
      schedule();
      return;
    case 'blind':
      if (summary) summary.blind = data;
      drawBlind();
      return;
    case 'monitors':
      for (const id of data.deleted) {
        monitors.delete(id);
        selected.delete(id);
        const row = rows.get(id);
        if (row) row.remove();
        rows.delete(id);
      }
      for (const id of data.changed) refetchSoon(id);
      if (data.changed.length) recheck = true;
      if (data.deleted.length) {
        relist = true;
        recount = true;
        schedule();
      }
      return;
    case 'reset':
      loadAll();
      return;
    default:
  }
}

/** The `at_ms` of the check after which each monitor's figures were last read again. */
const figuresReadAt = new Map();

/**
 * Whether a check moved the monitor's figures enough to read them again: a result other than up,
 * or one on a monitor not up, at most every 30 s of the monitor's checks (the service keeps figures
 * as long). Up monitors' uptime
 * holds (a thousand of them are not re-read on every check); a failing one's falls as time goes.
 */
function figuresMoved(m, check) {
  if (check.outcome === 'up' && m.state.status === 'up') return false;
  if (check.at_ms - (figuresReadAt.get(m.id) ?? -Infinity) < 30_000) return false;
  figuresReadAt.set(m.id, check.at_ms);
  return true;
}

/** Reads the monitor again within a quarter of a second (a burst of changes is one read each). */
function refetchSoon(id) {
  refetch.add(id);
  if (!refetchTimer) refetchTimer = setTimeout(refetchChanged, 250);
}

async function refetchChanged() {
  refetchTimer = null;
  const ids = [...refetch];
  refetch = new Set();
  if (ids.length > 50) return loadAll();
  const got = await Promise.all(ids.map((id) => get('monitors/' + id).catch(() => null)));
  for (const m of got) {
    if (!m) continue;
    monitors.set(m.id, m);
    const row = rows.get(m.id);
    if (row) {
      updateRow(row, m);
      replaceSpark(row, m);
      renameRow(row, m);
    }
  }
  drawFilterChoices();
  drawList();
  drawCounts();
  if (recheck) checklist(monitors.size);
  recheck = false;
}

const live = (up) => showLive($('live'), up);

readFilters();
openStream({ onEvent: apply, onStatus: live });
loadAll();
// Durations of open incidents grow while the page is open.
setInterval(drawIncidents, 30_000);
