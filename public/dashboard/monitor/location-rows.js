// A monitor's state from each of its locations on its page (docs/agents.md): status, latency,
// uptime over 24 hours and 30 days (each location's own history), when and the error, one row
// per location of `state.locations`, and the rule that combines them. Shown only for a monitor
// checked from somewhere other than this service alone.
// locationRows is pure (test/dashboard/location-words.spec.ts).
import { ago, el, ms, pct, STATUS_WORDS } from '../core/format.js';
import { quorumWords } from './locations-field.js';

/** Whether the monitor is checked from anywhere but local alone. */
export function checkedElsewhere(m) {
  const places = m.locations || ['local'];
  return m.kind !== 'heartbeat' && !(places.length === 1 && places[0] === 'local');
}

/**
 * The rows: one per location, in the order the monitor lists them, in words. `stats`: each
 * location's stats by name (GET /monitors/{id}/stats?location=), a dash while not known.
 */
export function locationRows(m, now = Date.now(), stats = new Map()) {
  const byName = new Map(((m.state && m.state.locations) || []).map((l) => [l.name, l]));
  return (m.locations || ['local']).map((name) => {
    const l = byName.get(name) || { name, status: 'unknown', latency_ms: null, at: null, error: null };
    const error = l.error ? (typeof l.error === 'string' ? l.error : l.error.message || l.error.code) : '';
    // An offline location's votes are left out of the count (docs/agents.md): said in the word.
    const offline = l.status === 'offline';
    const s = stats.get(name);
    return {
      name: name === 'local' ? 'local (this service)' : name,
      status: offline ? 'unknown' : l.status,
      word: offline ? 'Offline, not counted' : STATUS_WORDS[l.status] || l.status,
      latency: l.latency_ms === null || l.latency_ms === undefined ? '—' : ms(l.latency_ms),
      up24: uptimeWords(s, 'uptime_24h'),
      up30: uptimeWords(s, 'uptime_30d'),
      at: l.at ? ago(l.at, now) : 'not yet',
      error,
    };
  });
}

/** A location's uptime in words: a dash until its stats come, "no data" without up or down time. */
function uptimeWords(stats, key) {
  if (!stats) return '—';
  return stats[key] === null ? 'no data' : pct(stats[key]);
}

/** A check event from the stream, folded into the monitor's per-location state (its location's row). */
export function foldCheck(m, data) {
  if (!data.location || !m.state || !m.state.locations) return;
  const l = m.state.locations.find((x) => x.name === data.location);
  if (!l) return;
  l.latency_ms = data.latency_ms;
  l.at = new Date(data.at_ms).toISOString();
}

/**
 * Each listed location's stats (uptime 24 h and 30 d among them), by name: one request per
 * location (at most 10), none for a monitor checked from this service alone.
 */
export async function loadLocationStats(get, m) {
  if (!checkedElsewhere(m)) return new Map();
  const names = m.locations || ['local'];
  const all = await Promise.all(
    names.map((name) => get(`monitors/${m.id}/stats?location=${encodeURIComponent(name)}`)),
  );
  return new Map(all.map((s, i) => [names[i], s]));
}

/** Draws the section (hidden when the monitor is checked from this service alone). */
export function drawLocationRows(section, tbody, rule, m, stats = new Map()) {
  section.hidden = !checkedElsewhere(m);
  if (section.hidden) return;
  tbody.replaceChildren(
    ...locationRows(m, Date.now(), stats).map((r) => {
      const tr = el('tr');
      const st = el('td');
      st.append(el('span', 'status ' + r.status, r.word));
      tr.append(
        el('td', null, r.name),
        st,
        el('td', null, r.latency),
        el('td', null, r.up24),
        el('td', null, r.up30),
        el('td', null, r.at),
        el('td', r.error ? 'bad-text' : null, r.error),
      );
      return tr;
    }),
  );
  rule.textContent = quorumWords((m.locations || []).length, m.quorum);
}
