// The overview kept live by the stream: each event changes what the page knows
// (overview-state.js) at once, and the drawing follows once per animation frame, so a burst of
// events costs one layout, not one per event. A list filtered by status or sorted worst-first is
// redrawn at most once a second, so rows do not jump under the pointer; a monitor's figures (up
// 24 h, up 30 d, the spark) are read again when its status changes, and on its checks while it
// is not up (at most every 30 s of its checks).
import { pageIds } from '../../shared/page.js';
import { get } from '../core/api.js';
import { checklist } from '../core/checklist.js';
import { renameRow, replaceSpark, updateRow } from './monitor-row.js';
import { drawFilterChoices, drawGroupHeads, drawList } from './overview-list.js';
import { drawBlind, drawCounts, drawIncidents } from './overview-summary.js';
import { filters, monitors, openIncidents, rows, selected, view } from './overview-state.js';
import { openStream, showLive } from '../core/stream.js';

const $ = pageIds(['live'], 'overview-live.js');

/** Reads everything again (overview.js): after a reset of the stream, or too many changes at once. */
let reload = () => undefined;
/** Events wait until the first load has drawn the page, then are applied in order. */
let loaded = false;
let buffered = [];

/** Opens the stream; `loadAll` reads everything again when the stream cannot resume. */
export function listen(loadAll) {
  reload = loadAll;
  openStream({ onEvent: apply, onStatus: (up) => showLive($('live'), up) });
}

/** The page has been drawn from its first answers (or again after a reset): applies what came meanwhile. */
export function loadedNow() {
  loaded = true;
  const queued = buffered;
  buffered = [];
  for (const [name, data] of queued) apply(name, data);
}

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
      m.state = Object.assign({}, m.state, {
        latency_ms: data.latency_ms,
        last_check_at: new Date(data.at_ms).toISOString(),
      });
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
      if (view.summary) view.summary.blind = data;
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
      reload();
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
  if (ids.length > 50) return reload();
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
