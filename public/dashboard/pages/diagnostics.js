// Diagnostics: the service's own health in words (process, monitors and checks, the database and
// its writer, the scheduler, blind detection, the alert outbox, email, the egress estimate, the
// watchdog) and
// the problems it logged. Refreshed every 15 seconds while the page is open.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds } from '../../shared/page.js';
import { get } from '../core/api.js';
import { duration, el, ms, when } from '../core/format.js';

const $ = pageIds(['diag', 'loading', 'problems', 'refresh', 'sections'], 'diagnostics.js');

const bytes = (n) =>
  n === null || n === undefined
    ? '–'
    : n < 1024
      ? n + ' B'
      : n < 1024 ** 2
        ? (n / 1024).toFixed(1) + ' KB'
        : n < 1024 ** 3
          ? (n / 1024 ** 2).toFixed(1) + ' MB'
          : (n / 1024 ** 3).toFixed(2) + ' GB';

// The dead-man ping of the service itself (docs/watchdog.md): its last answer, or why it failed.
function watchdogRows(w) {
  if (!w || !w.configured) return [['Watchdog', 'Off (Settings → Watchdog)']];
  const rows = [
    ['Every', w.interval_s + ' s'],
    ['Last ping', w.last_ping_at ? when(w.last_ping_at) : 'none yet'],
    ['Last answer', w.last_answer || '–'],
  ];
  if (w.last_error) {
    rows.push([
      'Failing',
      w.last_error + ' (' + w.failures_in_row + ' in a row, since ' + when(w.failing_since) + ')',
      'bad-text',
    ]);
  }
  if (w.skipped_blind_at) rows.push(['Held back while blind', when(w.skipped_blind_at)]);
  return rows;
}

function section(title, rows) {
  const s = el('section', 'card-section');
  const id = 'd-' + title.toLowerCase().replace(/[^a-z]+/g, '-');
  const h = el('h2', null, title);
  h.id = id;
  s.setAttribute('aria-labelledby', id);
  const dl = el('dl', 'facts narrow');
  for (const [t, v, cls] of rows) {
    if (v === undefined) continue;
    const d = el('div');
    d.append(el('dt', null, t), el('dd', cls || null, v === null ? '–' : String(v)));
    dl.appendChild(d);
  }
  s.append(h, dl);
  return s;
}

function draw(d) {
  const sections = [
    section('Service', [
      ['Version', d.version],
      ['Running since', when(d.started_at) + ' (' + duration(d.uptime_s * 1000) + ')'],
      ['Memory', bytes(d.memory.rss_bytes) + ' resident, ' + bytes(d.memory.heap_used_bytes) + ' heap'],
    ]),
    section('Monitors', [
      ['Stored', d.monitors.total + ' (' + d.monitors.running + ' running, ' + d.monitors.paused + ' paused)'],
      [
        'By kind',
        Object.entries(d.monitors.by_kind)
          .filter(([, n]) => n)
          .map(([k, n]) => k + ' ' + n)
          .join(', ') || 'none',
      ],
      ['Checks a minute', d.checks_per_min],
    ]),
    section('Database', [
      ['Size', bytes(d.database.size_bytes) + ' + ' + bytes(d.database.wal_bytes) + ' write-ahead log'],
      [
        'Writable',
        d.database.writable ? 'Yes' : 'No, since ' + when(d.database.failing_since) + ': ' + d.database.last_error,
        d.database.writable ? null : 'bad-text',
      ],
      ['Writer queue', d.writer.queue_length],
      [
        'Last write',
        d.writer.last_flush_at ? when(d.writer.last_flush_at) + ' in ' + ms(d.writer.last_flush_ms) : 'none yet',
      ],
      [
        'Failed writes',
        d.writer.failures + (d.writer.dropped ? ', ' + d.writer.dropped + ' results dropped' : ''),
        d.writer.failing_in_row ? 'bad-text' : null,
      ],
    ]),
    section('Scheduler', [
      ['Monitors scheduled', d.scheduler.scheduled],
      ['Checks running', d.scheduler.in_flight],
      [
        'Lateness',
        d.scheduler.lateness_samples
          ? ms(d.scheduler.lateness_p50_ms) +
            ' typical, ' +
            ms(d.scheduler.lateness_p99_ms) +
            ' at p99, ' +
            ms(d.scheduler.lateness_max_ms) +
            ' at most'
          : 'no figures yet',
      ],
    ]),
    section('Network', [
      ['Blind detection', d.canary.detection],
      ['Blind', d.canary.blind ? 'Yes, since ' + when(d.canary.blind_since) : 'No', d.canary.blind ? 'bad-text' : null],
      ['Canaries', (d.canary.canaries || []).map((c) => c.canary + (c.answered ? ' ✓' : ' ✗')).join(', ') || 'none'],
      [
        'Egress estimate',
        bytes(d.egress.bytes_per_day) + ' a day for ' + Math.round(d.egress.checks_per_day) + ' checks',
      ],
    ]),
    section('Alerts', [
      [
        'Outbox',
        `${d.outbox.pending} waiting, ${d.outbox.sending} sending, ${d.outbox.retrying} retrying, ${d.outbox.sent} sent, ${d.outbox.failed} failed`,
      ],
      ['Email', d.email.configured ? d.email.providers.join(', ') : d.email.note || 'not configured'],
      [
        'Emails today',
        d.email.sent_today +
          ' of ' +
          d.email.daily_cap +
          (d.email.cap_reached ? ' (cap reached: alert emails paused)' : '') +
          (d.email.failed_today ? ', ' + d.email.failed_today + ' failed' : ''),
      ],
    ]),
    section('Watchdog', watchdogRows(d.watchdog)),
  ];
  $('sections').replaceChildren(...sections);
  const ul = $('problems');
  ul.textContent = '';
  for (const p of d.problems) {
    const li = el('li');
    const text = el('span', 'item-text');
    text.append(
      el('strong', p.level === 'error' ? 'bad-text' : null, p.level + ' · ' + p.context),
      el('span', null, p.message),
      el('span', 'muted', when(p.at)),
    );
    li.appendChild(text);
    ul.appendChild(li);
  }
  if (!d.problems.length)
    ul.appendChild(el('li', 'muted', 'Nothing logged: no warnings or errors since the service started.'));
}

async function load() {
  try {
    draw(await get('diagnostics'));
    $('loading').hidden = true;
    $('diag').hidden = false;
  } catch (err) {
    $('loading').hidden = false;
    $('loading').textContent = 'Diagnostics could not be loaded: ' + errorWords(err);
  }
}

$('refresh').addEventListener('click', load);
load();
setInterval(() => {
  if (!document.hidden) load();
}, 15_000);
