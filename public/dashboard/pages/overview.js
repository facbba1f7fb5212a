// The overview: counts, the blind banner, open incidents (overview-summary.js), every monitor
// grouped by group with filters, search and sort (overview-list.js), picked for bulk actions
// (overview-selection.js), kept live by the stream (overview-live.js). This file loads what the
// page shows and starts the parts; what it knows is in overview-state.js.
import '../core/shell.js';
import { pageIds } from '../../shared/page.js';
import { get, getAll } from '../core/api.js';
import { checklist } from '../core/checklist.js';
import { replaceSpark, updateRow } from '../overview/monitor-row.js';
import { listen, loadedNow } from '../overview/overview-live.js';
import { drawFilterChoices, drawList, readFilters } from '../overview/overview-list.js';
import { drawBlind, drawCounts, drawIncidents } from '../overview/overview-summary.js';
import { monitors, openIncidents, rows, view } from '../overview/overview-state.js';

const $ = pageIds(['loading'], 'overview.js');

/** Reads the monitors, the summary and the open incidents, and draws the page from them. */
async function loadAll() {
  const [list, sum, incidents] = await Promise.all([
    getAll('monitors'),
    get('summary'),
    get('incidents?state=open&limit=100'),
  ]);
  monitors.clear();
  for (const m of list) monitors.set(m.id, m);
  for (const [id, row] of rows)
    if (!monitors.has(id)) {
      row.remove();
      rows.delete(id);
    }
  for (const m of list) {
    const row = rows.get(m.id);
    if (row) {
      updateRow(row, m);
      replaceSpark(row, m);
    }
  }
  view.summary = sum;
  openIncidents.clear();
  for (const i of incidents.items) openIncidents.set(i.id, i);
  $('loading').hidden = true;
  drawCounts();
  drawBlind();
  drawIncidents();
  drawFilterChoices();
  drawList();
  checklist(monitors.size);
  loadedNow();
}

readFilters();
listen(loadAll);
loadAll();
// Durations of open incidents grow while the page is open.
setInterval(drawIncidents, 30_000);
