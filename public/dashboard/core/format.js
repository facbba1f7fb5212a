// Words and numbers as the dashboard shows them: moments in the browser's own time zone,
// durations, latencies and uptime percentages. Pure functions of their arguments.

// Made at first use: a formatter loads the locale's data, which a page that shows no moment
// (the overview before any incident) need not wait for.
let dateTime = null;
let timeOnly = null;

/** A moment (RFC 3339 or epoch ms) in the browser's zone; '' for none. */
export function when(t) {
  if (t === null || t === undefined) return '';
  const d = new Date(t);
  return isNaN(d)
    ? ''
    : (dateTime ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })).format(d);
}

export function clock(t) {
  const d = new Date(t);
  return isNaN(d) ? '' : (timeOnly ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })).format(d);
}

/** "3 h 4 min", "45 s", "2 d 3 h". */
export function duration(ms) {
  if (ms === null || ms === undefined || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return s + ' s';
  const m = Math.floor(s / 60);
  if (m < 60) return m + ' min' + (s % 60 && m < 10 ? ' ' + (s % 60) + ' s' : '');
  const h = Math.floor(m / 60);
  if (h < 48) return h + ' h' + (m % 60 ? ' ' + (m % 60) + ' min' : '');
  const d = Math.floor(h / 24);
  return d + ' d' + (h % 24 ? ' ' + (h % 24) + ' h' : '');
}

/** "5 min ago" for recent moments, the date otherwise. */
export function ago(t, now = Date.now()) {
  const ms = now - new Date(t).getTime();
  if (!isFinite(ms)) return '';
  if (ms < 45_000) return 'just now';
  if (ms < 48 * 3600_000) return duration(ms) + ' ago';
  return when(t);
}

export function ms(v) {
  return v === null || v === undefined ? '–' : v < 10_000 ? Math.round(v) + ' ms' : (v / 1000).toFixed(1) + ' s';
}

/** Uptime with as many decimals as it takes to not round 99.95 up to 100. */
export function pct(v) {
  if (v === null || v === undefined) return '–';
  if (v >= 100) return '100%';
  if (v >= 99.9) return (Math.floor(v * 100) / 100).toFixed(2) + '%';
  return (Math.floor(v * 10) / 10).toFixed(1) + '%';
}

export const STATUS_WORDS = { up: 'Up', down: 'Down', slow: 'Slow', paused: 'Paused', unknown: 'Unknown' };

/** Creates an element with a class and text. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/** Shows every <time datetime> under root in the browser's zone. */
export function localTimes(root = document) {
  root.querySelectorAll('time[datetime]').forEach((t) => {
    const text = when(t.getAttribute('datetime'));
    if (text) t.textContent = text;
  });
}
