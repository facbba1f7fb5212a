// One monitor's row in the overview: status, name and target, the 24-hour latency spark, the
// latest latency and the uptime of 24 h and 30 d. A row is built once and updated in place.
import { el, ms, pct, STATUS_WORDS } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const SPARK_W = 120;
const SPARK_H = 26;

/** The spark: 24 hourly bars, height the average latency, colour the worst moment of the hour. */
export function spark(points) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'spark');
  svg.setAttribute('viewBox', `0 0 ${SPARK_W} ${SPARK_H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  const list = points || [];
  const max = Math.max(1, ...list.map((p) => p.avg_ms || 0));
  const paths = { up: '', slow: '', down: '', none: '' };
  const w = SPARK_W / 24;
  list.slice(-24).forEach((p, i) => {
    const kind = p.worst === 'down' ? 'down' : p.worst === 'slow' ? 'slow' : p.worst === 'up' ? 'up' : 'none';
    const h = kind === 'none' ? 2 : p.worst === 'down' && !p.avg_ms ? SPARK_H : Math.max(3, Math.round(((p.avg_ms || 0) / max) * SPARK_H));
    const x = (24 - list.slice(-24).length + i) * w;
    paths[kind] += `M${x.toFixed(1)} ${SPARK_H - h}h${(w - 1).toFixed(1)}v${h}h${(1 - w).toFixed(1)}z`;
  });
  for (const [kind, d] of Object.entries(paths)) {
    if (!d) continue;
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('class', 'b-' + kind);
    path.setAttribute('d', d);
    svg.appendChild(path);
  }
  const withData = list.filter((p) => p.avg_ms !== null && p.avg_ms !== undefined);
  const avg = withData.length ? withData.reduce((a, p) => a + p.avg_ms, 0) / withData.length : null;
  const downHours = list.filter((p) => p.worst === 'down').length;
  svg.setAttribute('aria-label', withData.length
    ? `Last 24 hours: ${ms(avg)} on average` + (downHours ? `, down in ${downHours} of them` : '')
    : 'Last 24 hours: no checks');
  return svg;
}

export function statusBadge(state) {
  const status = (state && state.status) || 'unknown';
  const s = el('span', 'status ' + status, STATUS_WORDS[status] || status);
  return s;
}

function num(cls, text, label) {
  const d = el('span', 'num ' + cls);
  d.append(document.createTextNode(text), el('small', null, label));
  return d;
}

/** Builds a row; `link` names the monitor's page (null while there is none). */
export function buildRow(m, link) {
  const row = el('div', 'mon');
  row.dataset.id = m.id;
  const name = el('span', 'name');
  const title = link ? el('a', null, m.name) : el('strong', null, m.name);
  if (link) title.href = link;
  name.appendChild(title);
  const target = el('span', 'target', m.target);
  target.title = m.target;
  name.appendChild(target);
  const pick = el('input', 'pick');
  pick.type = 'checkbox';
  pick.value = String(m.id);
  pick.setAttribute('aria-label', 'Select ' + m.name);
  row.append(pick, statusBadge(m.state), name, spark(m.stats && m.stats.spark), num('lat', '', 'latest'), num('u24', '', '24 h'), num('u30', '', '30 d'));
  row.appendChild(el('span', 'err'));
  updateRow(row, m);
  return row;
}

/** Brings a row up to date with the monitor (state, latency, uptime); cheap enough for every event. */
export function updateRow(row, m) {
  const st = m.state || {};
  const status = st.status || 'unknown';
  const badge = row.querySelector('.status');
  const word = (STATUS_WORDS[status] || status) + (st.muted ? ' · muted' : '');
  if (badge.className !== 'status ' + status) badge.className = 'status ' + status;
  if (badge.textContent !== word) badge.textContent = word;
  setNum(row.querySelector('.lat'), status === 'paused' ? '–' : ms(st.latency_ms));
  setNum(row.querySelector('.u24'), pct(m.stats && m.stats.uptime_24h));
  setNum(row.querySelector('.u30'), pct(m.stats && m.stats.uptime_30d));
  const err = row.querySelector('.err');
  const text = status === 'down' || (st.failing > 0 && status !== 'paused') ? (st.error ? st.error.message : '') : '';
  if (err.textContent !== text) err.textContent = text;
  err.hidden = !text;
}

function setNum(span, text) {
  const node = span.firstChild;
  if (node.nodeValue !== text) node.nodeValue = text;
}

export function replaceSpark(row, m) {
  row.replaceChild(spark(m.stats && m.stats.spark), row.querySelector('.spark'));
}
