// One monitor: its state now, the response-time chart with phases, the uptime calendar, its
// incidents and recent checks, and every action (check now, pause or resume, mute, edit, delete
// with step-up, a new heartbeat URL). Live through the stream: checks and state changes of this
// monitor show as they happen.
import '../core/shell.js';
import { ApiFailure, errorWords } from '../../shared/errors.js';
import { busy, pageIds, say } from '../../shared/page.js';
import { del, get, getAll, newestOnly, post } from '../core/api.js';
import { dayClass, dayTitle } from '../monitor/calendar-day.js';
import { drawChart, legend } from '../monitor/chart.js';
import { resultView } from '../monitor/check-result.js';
import { ago, duration, el, ms, pct, STATUS_WORDS, when } from '../core/format.js';
import { heartbeatPanel } from '../monitor/heartbeat.js';
import { drawLocationRows, foldCheck, loadLocationStats } from '../monitor/location-rows.js';
import { addCheck, drawChecksHead, initChecks, loadChecks } from '../monitor/monitor-checks.js';
import { openStream, showLive } from '../core/stream.js';

const $ = pageIds(
  [
    'action-error',
    'cal-total',
    'calendar',
    'chart',
    'chart-legend',
    'chart-section',
    'check-now',
    'check-result',
    'cr-body',
    'crumb-group',
    'delete',
    'delete-dialog',
    'delete-form',
    'edit',
    'facts',
    'hb-panel',
    'hb-title',
    'heartbeat-new',
    'heartbeat-shown',
    'live',
    'loading',
    'where-now',
    'where-rows',
    'where-rule',
    'm-incidents',
    'm-kind',
    'm-name',
    'm-target',
    'monitor',
    'mute-cancel',
    'mute-open',
    'mute-panel',
    'mute-until',
    'pause',
    'ranges',
    'unmute',
  ],
  'monitor.js',
);
const root = $('monitor');
const id = Number(root.dataset.monitorId);
const RANGE_MS = {
  '1h': 3600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '90d': 90 * 86_400_000,
};
const KIND_WORDS = {
  http: 'HTTP',
  tcp: 'TCP',
  ping: 'Ping',
  dns: 'DNS',
  tls: 'TLS certificate',
  heartbeat: 'Heartbeat',
  smtp: 'SMTP',
  docker: 'Docker container',
  redis: 'Redis',
  postgres: 'PostgreSQL',
  mysql: 'MySQL / MariaDB',
  mqtt: 'MQTT',
  grpc: 'gRPC health',
};

let m = null;
/** Each location's stats by name (the per-location table's uptime), once loaded. */
let whereStats = new Map();
let range = '24h';
const getSeries = newestOnly();

function actionError(err) {
  say($('action-error'), err ? errorWords(err) : null);
}

// --- the monitor and its state ---------------------------------------------------------------

async function loadMonitor() {
  m = await get('monitors/' + id);
  drawHead();
  drawFacts();
}

/**
 * Every monitor, once, for the names of the ones this one depends on and of those that depend on
 * it (docs/dependencies.md); until it arrives the facts show ids.
 */
let others = null;
async function loadOthers() {
  others = new Map((await getAll('monitors')).map((x) => [x.id, x]));
  if (m) drawFacts();
}

function monitorLinks(ids) {
  const out = el('span');
  ids.forEach((mid, i) => {
    if (i > 0) out.append(document.createTextNode(', '));
    const a = el('a', null, others && others.has(mid) ? others.get(mid).name : 'monitor ' + mid);
    a.href = '/monitors/' + mid;
    out.append(a);
  });
  return out;
}

function drawHead() {
  document.title = m.name + ' · Farsight';
  $('m-name').textContent = m.name;
  const heartbeat = m.kind === 'heartbeat';
  $('m-kind').textContent = KIND_WORDS[m.kind] || m.kind;
  // A heartbeat's target is the word "heartbeat" again: say what it waits for instead.
  $('m-target').textContent = heartbeat ? 'a job pings it every ' + duration(m.interval_s * 1000) : m.target;
  $('crumb-group').textContent = m.group ? ' / ' + m.group : '';
  $('edit').href = '/monitors/' + id + '/edit';
  const paused = m.state.status === 'paused';
  $('pause').textContent = paused ? 'Resume' : 'Pause';
  $('check-now').disabled = paused;
  // Nothing to check now: a heartbeat waits for its job's pings (the API refuses a check).
  $('check-now').hidden = heartbeat;
  // No response time either: pings have no latency, so their chart would be empty.
  $('chart-section').hidden = heartbeat;
  drawChecksHead(m);
  const muted = m.state.muted;
  $('mute-open').hidden = muted;
  $('unmute').hidden = !muted;
  $('heartbeat-new').hidden = m.kind !== 'heartbeat';
}

function fact(dl, term, value) {
  if (value === null || value === undefined || value === '') return;
  const d = el('div');
  d.append(el('dt', null, term));
  const dd = el('dd');
  if (value instanceof Node) dd.appendChild(value);
  else dd.textContent = value;
  d.appendChild(dd);
  dl.appendChild(d);
}

function drawFacts() {
  const st = m.state;
  const dl = $('facts');
  dl.textContent = '';
  const status = el('span');
  status.append(el('span', 'status ' + st.status, STATUS_WORDS[st.status] || st.status));
  if (st.since)
    status.append(
      document.createTextNode(' since ' + when(st.since) + ' (' + duration(Date.now() - Date.parse(st.since)) + ')'),
    );
  fact(dl, 'Status', status);
  if (st.failing > 0 && st.status !== 'down')
    fact(
      dl,
      'Failing',
      st.failing + ' failed ' + (st.failing === 1 ? 'check' : 'checks') + ' in a row, not yet confirmed',
    );
  if (st.error) {
    const e = el('span', 'bad-text', st.error.message);
    e.title = st.error.code;
    fact(dl, 'Last error', e);
  }
  fact(dl, 'Note', st.note);
  if (st.cause) {
    const why = monitorLinks([st.cause.monitor_id]);
    const inc = el('a', null, 'incident #' + st.cause.incident_id);
    inc.href = '/incidents/' + st.cause.incident_id;
    why.append(
      document.createTextNode(' is down: this monitor joined its '),
      inc,
      document.createTextNode(' (no alert of its own)'),
    );
    fact(dl, 'Affected by', why);
  }
  if (m.depends_on && m.depends_on.length) fact(dl, 'Depends on', monitorLinks(m.depends_on));
  const dependants = others
    ? [...others.values()].filter((x) => (x.depends_on || []).includes(m.id)).map((x) => x.id)
    : [];
  if (dependants.length) fact(dl, 'Depended on by', monitorLinks(dependants));
  if (m.kind === 'heartbeat') fact(dl, 'Last ping', st.last_ok_at ? ago(st.last_ok_at) : 'none yet');
  else {
    fact(
      dl,
      'Last check',
      st.last_check_at
        ? ago(st.last_check_at) + (st.latency_ms !== null ? ', ' + ms(st.latency_ms) : '')
        : 'not checked yet',
    );
    fact(dl, 'Last good check', st.last_ok_at ? ago(st.last_ok_at) : null);
  }
  if (st.cert_expires_at) {
    const days = Math.floor((Date.parse(st.cert_expires_at) - Date.now()) / 86_400_000);
    fact(dl, 'Certificate expires', when(st.cert_expires_at) + (days >= 0 ? ' (in ' + days + ' days)' : ' (expired)'));
  }
  if (st.flapping) fact(dl, 'Flapping', 'Yes: it keeps changing between up and down');
  if (st.muted) fact(dl, 'Alerts', m.muted_until ? 'Muted until ' + when(m.muted_until) : 'Muted');
  if (st.maintenance) {
    // The window holding it: no incident opens and no alert goes out until it ends (docs/maintenance.md).
    const link = el('a', null, st.maintenance.title);
    link.href = '/maintenance#window-' + st.maintenance.window_id;
    const span = el('span');
    span.append(
      link,
      st.maintenance.ends_at ? ', until ' + when(st.maintenance.ends_at) : ', until stopped',
      ': no incident opens and no alert goes out meanwhile',
    );
    fact(dl, 'Maintenance', span);
  }
  fact(
    dl,
    'Uptime',
    `${pct(m.stats.uptime_24h)} (24 h) · ${pct(m.stats.uptime_7d)} (7 d) · ${pct(m.stats.uptime_30d)} (30 d)`,
  );
  if (m.stats.p50_ms_24h !== null)
    fact(dl, 'Latency, 24 h', `${ms(m.stats.p50_ms_24h)} typical, ${ms(m.stats.p95_ms_24h)} at the 95th percentile`);
  fact(dl, 'Schedule', schedule());
  if (m.kind === 'heartbeat' && st.status === 'up' && st.last_ok_at) {
    fact(dl, 'Next ping due', 'by ' + when(Date.parse(st.last_ok_at) + (m.interval_s + m.heartbeat.grace_s) * 1000));
  }
  if (m.description) fact(dl, 'Description', m.description);
  if (m.runbook_url) {
    const a = el('a', null, m.runbook_url);
    a.href = m.runbook_url;
    a.rel = 'noopener noreferrer';
    fact(dl, 'Runbook', a);
  }
  if (m.tags && m.tags.length) fact(dl, 'Tags', m.tags.join(', '));
  drawLocationRows($('where-now'), $('where-rows'), $('where-rule'), m, whereStats);
}

/** The per-location table's uptime figures: loaded after the monitor, again when its state changes. */
async function loadWhereStats() {
  whereStats = await loadLocationStats(get, m);
  drawLocationRows($('where-now'), $('where-rows'), $('where-rule'), m, whereStats);
}

/** When the monitor is checked and when it goes down, as the engine does it (docs/engine.md). */
function schedule() {
  const every = duration(m.interval_s * 1000);
  if (m.kind === 'heartbeat') {
    // confirm_after does not apply: there is no re-check to confirm a missed ping with.
    const grace = m.heartbeat.grace_s ? ' and ' + duration(m.heartbeat.grace_s * 1000) + ' of grace' : '';
    return `A ping every ${every}; down as soon as one does not arrive within the ${every}${grace}, up again at the next ping`;
  }
  const after = m.confirm_after === 1 ? 'the first failed check' : `${m.confirm_after} failed checks in a row`;
  return `Every ${every}; down after ${after}; ${ms(m.timeout_ms)} timeout`;
}

// --- chart, calendar, incidents, checks ------------------------------------------------------

async function loadChart() {
  const series = await getSeries(`monitors/${id}/series?range=${range}`);
  if (!series) return; // another range was asked for since
  const pts = series.points;
  // The range ends now; a browser whose clock is behind the server's still shows every point.
  const last = pts.length ? pts[pts.length - 1].t_ms : null;
  const to = last === null ? Date.now() : Math.max(last, Math.min(Date.now(), last + RANGE_MS[range] / 24));
  $('chart').replaceChildren(drawChart(series, to - RANGE_MS[range], to));
  $('chart-legend').replaceChildren(...legend(series.resolution));
}

$('ranges').addEventListener('click', (ev) => {
  const b = ev.target.closest('button[data-range]');
  if (!b) return;
  range = b.dataset.range;
  $('ranges')
    .querySelectorAll('button')
    .forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
  loadChart().catch(actionError);
});

async function loadCalendar() {
  const u = await get(`monitors/${id}/uptime?days=90`);
  const grid = $('calendar');
  grid.textContent = '';
  const withData = u.days.filter((d) => d.uptime !== null);
  grid.setAttribute('role', 'img');
  const bad = withData.filter((d) => d.uptime < 99.9).length;
  const maintDays = u.days.filter((d) => dayClass(d) === 'maint').length;
  grid.setAttribute(
    'aria-label',
    withData.length || maintDays
      ? `${withData.length} days watched, ${bad} of them under 99.9% up, ${maintDays} mostly in maintenance`
      : 'No days with checks yet',
  );
  for (const d of u.days) {
    const cell = el('span', 'day ' + dayClass(d));
    cell.title = dayTitle(d);
    grid.appendChild(cell);
  }
  const held = u.days.some((d) => d.maintenance_ms > 0);
  $('cal-total').textContent = u.uptime === null ? '' : pct(u.uptime) + ' up' + (held ? ' (maintenance left out)' : '');
}

async function loadIncidents() {
  const list = await get(`incidents?monitor_id=${id}&limit=20`);
  const ul = $('m-incidents');
  ul.textContent = '';
  for (const i of list.items) {
    const li = el('li');
    li.append(el('span', 'status ' + (i.ended_at ? 'up' : 'down'), i.ended_at ? 'Ended' : 'Open'));
    const t = el('time', null, when(i.started_at));
    t.dateTime = i.started_at;
    const a = el('a');
    a.href = '/incidents/' + i.id;
    a.appendChild(t);
    li.append(a, el('span', 'muted', duration(i.duration_ms)), el('span', 'cause', (i.cause && i.cause.message) || ''));
    if (i.acknowledged_at) li.appendChild(el('span', 'tag-ack', 'acknowledged'));
    if (i.note) li.appendChild(el('span', 'muted', '“' + i.note + '”'));
    ul.appendChild(li);
  }
  if (!list.items.length)
    ul.appendChild(
      el('li', 'muted', 'No incidents: it has not been down since it was added (or since the history was pruned).'),
    );
}

initChecks(actionError);

// --- actions ---------------------------------------------------------------------------------

/** Runs an action with its button busy; says why it failed; draws the head again either way (pause turns into resume). */
function act(button, label, work) {
  actionError(null);
  return busy(button, label, async () => {
    try {
      await work();
    } catch (err) {
      actionError(err);
    }
  }).finally(drawHead);
}

$('check-now').addEventListener('click', (ev) =>
  act(ev.currentTarget, 'Checking…', async () => {
    const r = await post(`monitors/${id}/check`);
    $('cr-body').replaceChildren(resultView(r, m.kind));
    $('check-result').hidden = false;
    await Promise.all([loadMonitor(), loadChecks(false)]);
  }),
);

$('pause').addEventListener('click', (ev) =>
  act(ev.currentTarget, 'Saving…', async () => {
    await post(`monitors/${id}/${m.state.status === 'paused' ? 'resume' : 'pause'}`);
    await loadMonitor();
  }),
);

const mutePanel = $('mute-panel');
function toggleMute(open) {
  mutePanel.hidden = !open;
  $('mute-open').setAttribute('aria-expanded', String(open));
  if (open) mutePanel.querySelector('button').focus();
  else $('mute-open').focus();
}
$('mute-open').addEventListener('click', () => toggleMute(mutePanel.hidden));
$('mute-cancel').addEventListener('click', () => toggleMute(false));
async function mute(body) {
  const out = mutePanel.querySelector('.form-error');
  say(out, null);
  try {
    await post(`monitors/${id}/mute`, body);
    toggleMute(false);
    await loadMonitor();
  } catch (err) {
    say(out, errorWords(err));
  }
}
mutePanel
  .querySelectorAll('[data-minutes]')
  .forEach((b) => b.addEventListener('click', () => mute({ minutes: Number(b.dataset.minutes) })));
mutePanel.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const v = $('mute-until').value;
  const at = v ? new Date(v) : null;
  if (!at || isNaN(at))
    return say(mutePanel.querySelector('.form-error'), 'Pick the date and time the alerts should start again.');
  mute({ until: at.toISOString() });
});
$('unmute').addEventListener('click', (ev) =>
  act(ev.currentTarget, 'Saving…', async () => {
    await post(`monitors/${id}/unmute`);
    await loadMonitor();
  }),
);

$('heartbeat-new').addEventListener('click', (ev) => {
  if (
    !confirm(
      'Make a new heartbeat URL? The current URL stops working at once, so every job that calls it must be changed.',
    )
  )
    return;
  act(ev.currentTarget, 'Making…', async () => {
    const r = await post(`monitors/${id}/heartbeat-token`);
    $('hb-panel').replaceChildren(heartbeatPanel(r.heartbeat_url, m.interval_s, m.name));
    $('heartbeat-shown').hidden = false;
    $('hb-title').focus();
  });
});

const delDialog = $('delete-dialog');
$('delete').addEventListener('click', () => {
  say(delDialog.querySelector('.form-error'), null);
  delDialog.showModal();
});
delDialog.querySelector('[data-close]').addEventListener('click', () => delDialog.close());
$('delete-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const button = ev.currentTarget.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    await del('monitors/' + id);
    location.assign('/');
  } catch (err) {
    say(delDialog.querySelector('.form-error'), errorWords(err));
    button.disabled = false;
  }
});

// --- live ------------------------------------------------------------------------------------

let reloadTimer = null;
function reloadSoon(what) {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => Promise.all(what.map((f) => f())).catch(actionError), 300);
}

function onEvent(name, data) {
  if (!m) return;
  if (name === 'check' && data.monitor_id === id && data.location && data.location !== 'local') {
    // An agent's result: its location's row moves; the facts and the list of checks are this service's own.
    foldCheck(m, data);
    drawLocationRows($('where-now'), $('where-rows'), $('where-rule'), m);
  } else if (name === 'check' && data.monitor_id === id) {
    m.state = Object.assign({}, m.state, {
      latency_ms: data.latency_ms,
      last_check_at: new Date(data.at_ms).toISOString(),
    });
    foldCheck(m, data);
    drawFacts();
    addCheck({
      at: new Date(data.at_ms).toISOString(),
      at_ms: data.at_ms,
      outcome: data.outcome,
      latency_ms: data.latency_ms,
      status: data.status,
      error: data.error,
    });
  } else if (name === 'state' && data.monitor_id === id) {
    m.state = data.state;
    drawHead();
    drawFacts();
    reloadSoon([loadWhereStats]);
  } else if (name === 'incident' && data.monitor_id === id) {
    reloadSoon([loadIncidents]);
  } else if (name === 'monitors') {
    if (data.deleted.includes(id)) {
      root.hidden = true;
      $('loading').hidden = false;
      $('loading').textContent = 'This monitor was deleted.';
    } else if (data.changed.includes(id)) reloadSoon([loadMonitor, loadWhereStats]);
  } else if (name === 'reset') {
    reloadSoon([loadMonitor, loadIncidents, () => loadChecks(false)]);
  }
}

const live = (up) => showLive($('live'), up);

openStream({ onEvent, onStatus: live });
loadMonitor()
  .then(() => {
    $('loading').hidden = true;
    root.hidden = false;
    return Promise.all([
      m.kind === 'heartbeat' ? null : loadChart(),
      loadCalendar(),
      loadIncidents(),
      loadChecks(false),
      loadOthers(),
      loadWhereStats(),
    ]);
  })
  .catch((err) => {
    $('loading').textContent =
      err instanceof ApiFailure && err.status === 404
        ? 'There is no such monitor: it may have been deleted.'
        : 'The monitor could not be loaded: ' + errorWords(err);
  });
