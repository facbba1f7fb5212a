// The overview's list: every monitor that passes the filters, grouped by its group, each group
// with its "N monitors, N down". Rows are built from text (monitor-row.js) and placed the top of
// the list first, then the rest in slices; the filters live in the form and in the address.
import { pageIds } from '../../shared/page.js';
import { el } from '../core/format.js';
import { buildRows } from './monitor-row.js';
import { groupsOf, isFiltered, queryOf, readQuery, shownMonitors } from './overview-filters.js';
import { drawSelection } from './overview-selection.js';
import { filters, monitorLink, monitors, rows, view } from './overview-state.js';

const $ = pageIds(
  [
    'clear-filters',
    'empty',
    'f-group',
    'f-kind',
    'f-q',
    'f-sort',
    'f-status',
    'f-tag',
    'filters',
    'list',
    'monitors',
    'shown',
  ],
  'overview-list.js',
);

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

/** The group and tag filters offer the groups and tags the monitors have now. */
export function drawFilterChoices() {
  const groups = new Set();
  const tags = new Set();
  for (const m of monitors.values()) {
    if (m.group) groups.add(m.group);
    for (const t of m.tags || []) tags.add(t);
  }
  fillSelect($('f-group'), [...groups].sort(), filters.group);
  fillSelect($('f-tag'), [...tags].sort(), filters.tag);
}

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
export function drawList() {
  const empty = monitors.size === 0;
  $('empty').hidden = !empty;
  $('monitors').hidden = empty;
  if (empty) return;
  const shown = shownMonitors(monitors.values(), filters);
  const groups = groupsOf(shown);
  const frag = document.createDocumentFragment();
  const places = [];
  heads = [];
  for (const [g, list] of groups) {
    const section = el('section', 'group');
    const h = el('h3', null, g || (groups.length > 1 ? 'Not in a group' : 'Monitors'));
    const figures = el('span', 'muted');
    h.appendChild(figures);
    heads.push({ figures, ids: list.map((m) => m.id) });
    section.appendChild(h);
    const head = el('div', 'mon-head');
    head.setAttribute('aria-hidden', 'true');
    head.append(
      el('span'),
      el('span', null, 'Status'),
      el('span', null, 'Monitor'),
      el('span', null, 'Latency, 24 h'),
      el('span', 'num', 'Latest'),
      el('span', 'num', 'Up 24 h'),
      el('span', 'num', 'Up 30 d'),
    );
    section.appendChild(head);
    for (const m of list) places.push([section, m.id]);
    frag.appendChild(section);
  }
  const listEl = $('list');
  listEl.textContent = '';
  listEl.appendChild(frag);
  view.shownIds = shown.map((m) => m.id);
  drawGroupHeads();
  const filtered = isFiltered(filters);
  const plural = (n) => n + (n === 1 ? ' monitor' : ' monitors');
  $('shown').textContent = filtered
    ? `${shown.length} of ${plural(monitors.size)} ${shown.length === 1 ? 'matches' : 'match'}`
    : plural(monitors.size);
  $('clear-filters').hidden = !filtered;
  if (shown.length === 0) listEl.appendChild(el('p', 'card-section', 'No monitor matches these filters.'));
  placeRows(places, 0, ++drawNo);
}

/** Each group's header figures and the monitors under it, as last drawn. */
let heads = [];

/** The groups' "N monitors, N down", from the monitors' status now (after every status change). */
export function drawGroupHeads() {
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

// --- the filters in the form and in the address -----------------------------------------------

/** Takes the filters from the address into the form (at the page's start). */
export function readFilters() {
  readQuery(location.search, filters);
  $('f-q').value = filters.q;
  for (const k of ['status', 'kind', 'sort']) $('f-' + k).value = filters[k];
}

function writeFilters() {
  history.replaceState(null, '', queryOf(filters) || location.pathname);
}

let searchTimer = null;
$('filters').addEventListener('input', (ev) => {
  const name = ev.target.name;
  if (!(name in filters)) return;
  filters[name] = ev.target.value.trim();
  clearTimeout(searchTimer);
  // Typing waits a moment; a choice applies at once.
  searchTimer = setTimeout(
    () => {
      writeFilters();
      drawList();
    },
    name === 'q' ? 120 : 0,
  );
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
