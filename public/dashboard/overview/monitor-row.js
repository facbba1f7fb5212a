// One monitor's row in the overview: status, name and target, the 24-hour latency spark, the
// latest latency and the uptime of 24 h and 30 d. A row is built once and updated in place.
// Rows are built in bulk as one piece of HTML, parsed once: a thousand rows made element by
// element cost some twenty thousand DOM calls on load. Every text and attribute value in that
// HTML goes through esc(); what updateRow() writes later goes through textContent and nodeValue.
// esc, sparkPaths, sparkLabel, rowFacts and rowHtml are pure (test/dashboard/monitor-row.spec.ts).
import { ms, pct, STATUS_WORDS } from '../core/format.js';

const SPARK_W = 120;
const SPARK_H = 26;
const SPARK_KINDS = ['up', 'slow', 'down', 'none'];

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe for HTML text and quoted attribute values. */
export function esc(v) {
  return String(v).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The spark's bars, one path per colour: 24 hourly bars, height the average latency, colour the worst moment of the hour. */
export function sparkPaths(points) {
  const list = (points || []).slice(-24);
  const max = Math.max(1, ...list.map((p) => p.avg_ms || 0));
  const paths = { up: '', slow: '', down: '', none: '' };
  const w = SPARK_W / 24;
  const right = (w - 1).toFixed(1);
  const back = (1 - w).toFixed(1);
  list.forEach((p, i) => {
    const kind = p.worst === 'down' ? 'down' : p.worst === 'slow' ? 'slow' : p.worst === 'up' ? 'up' : 'none';
    const h =
      kind === 'none'
        ? 2
        : p.worst === 'down' && !p.avg_ms
          ? SPARK_H
          : Math.max(3, Math.round(((p.avg_ms || 0) / max) * SPARK_H));
    const x = (24 - list.length + i) * w;
    paths[kind] += `M${x.toFixed(1)} ${SPARK_H - h}h${right}v${h}h${back}z`;
  });
  return SPARK_KINDS.filter((k) => paths[k])
    .map((k) => `<path class="b-${k}" d="${paths[k]}"></path>`)
    .join('');
}

/** What the spark says to a screen reader. */
export function sparkLabel(points) {
  const list = points || [];
  const withData = list.filter((p) => p.avg_ms !== null && p.avg_ms !== undefined);
  if (!withData.length) return 'Last 24 hours: no checks';
  const avg = withData.reduce((a, p) => a + p.avg_ms, 0) / withData.length;
  const downHours = list.filter((p) => p.worst === 'down').length;
  return `Last 24 hours: ${ms(avg)} on average` + (downHours ? `, down in ${downHours} of them` : '');
}

/** What a row says of the monitor's state and figures: the one source of rowHtml() and updateRow(). */
export function rowFacts(m) {
  const st = m.state || {};
  const status = Object.hasOwn(STATUS_WORDS, st.status) ? st.status : 'unknown';
  return {
    status,
    word: STATUS_WORDS[status] + (st.muted ? ' · muted' : '') + (st.maintenance ? ' · maintenance' : ''),
    lat: status === 'paused' ? '–' : ms(st.latency_ms),
    u24: pct(m.stats && m.stats.uptime_24h),
    u30: pct(m.stats && m.stats.uptime_30d),
    err: status === 'down' || (st.failing > 0 && status !== 'paused') ? (st.error ? st.error.message : '') : '',
  };
}

/** One row as HTML; `link` names the monitor's page (null while there is none). */
export function rowHtml(m, link) {
  const f = rowFacts(m);
  const points = m.stats && m.stats.spark;
  const title = link ? `<a href="${esc(link)}">${esc(m.name)}</a>` : `<strong>${esc(m.name)}</strong>`;
  return (
    `<div class="mon" data-id="${esc(m.id)}">` +
    `<input class="pick" type="checkbox" value="${esc(m.id)}" aria-label="${esc('Select ' + m.name)}">` +
    `<span class="status ${f.status}">${esc(f.word)}</span>` +
    `<span class="name">${title}<span class="target" title="${esc(m.target ?? '')}">${esc(m.target ?? '')}</span></span>` +
    `<svg class="spark" viewBox="0 0 ${SPARK_W} ${SPARK_H}" preserveAspectRatio="none" role="img" aria-label="${esc(sparkLabel(points))}">${sparkPaths(points)}</svg>` +
    `<span class="num lat">${esc(f.lat)}<small>latest</small></span>` +
    `<span class="num u24">${esc(f.u24)}<small>24 h</small></span>` +
    `<span class="num u30">${esc(f.u30)}<small>30 d</small></span>` +
    `<span class="err"${f.err ? '' : ' hidden'}>${esc(f.err)}</span>` +
    '</div>'
  );
}

/** Rows of these monitors, by id, from one parse. `linkOf(m)`: the monitor's page, or null. */
export function buildRows(list, linkOf) {
  const box = document.createElement('div');
  box.innerHTML = list.map((m) => rowHtml(m, linkOf(m))).join('');
  const out = new Map();
  for (const row of [...box.children]) out.set(Number(row.dataset.id), row);
  return out;
}

/** Brings a row up to date with the monitor (state, latency, uptime); cheap enough for every event. */
export function updateRow(row, m) {
  const f = rowFacts(m);
  const [, badge, , , lat, u24, u30, err] = row.children;
  if (badge.className !== 'status ' + f.status) badge.className = 'status ' + f.status;
  if (badge.textContent !== f.word) badge.textContent = f.word;
  setNum(lat, f.lat);
  setNum(u24, f.u24);
  setNum(u30, f.u30);
  if (err.textContent !== f.err) err.textContent = f.err;
  err.hidden = !f.err;
}

/** The name and target again (after an edit). */
export function renameRow(row, m) {
  const [pick, , name] = row.children;
  pick.setAttribute('aria-label', 'Select ' + m.name);
  name.firstElementChild.textContent = m.name;
  const target = name.lastElementChild;
  target.textContent = m.target ?? '';
  target.title = m.target ?? '';
}

function setNum(span, text) {
  const node = span.firstChild;
  if (node.nodeValue !== text) node.nodeValue = text;
}

/** Draws the row's spark again from the monitor's stats. */
export function replaceSpark(row, m) {
  const svg = row.children[3];
  const points = m.stats && m.stats.spark;
  svg.innerHTML = sparkPaths(points);
  svg.setAttribute('aria-label', sparkLabel(points));
}
