// The live stream (GET /api/v1/stream, Server-Sent Events) read with fetch rather than
// EventSource, so that a reconnect after any failure (not only the ones EventSource retries by
// itself) sends Last-Event-ID and resumes without a gap, a 401 can ask to sign in again, and the
// page can say when the stream is down. `onEvent(name, data)` gets every event; `onStatus(up)`
// hears when the stream comes and goes; a `reset` event means: reload from the REST API.
import { ApiFailure } from '../../shared/errors.js';
import { signInAgain } from './reauth.js';

export function openStream({ onEvent, onStatus }) {
  let lastId = null;
  let failures = 0;
  let stopped = false;
  let controller = null;

  async function run() {
    while (!stopped) {
      controller = new AbortController();
      let gotHello = false;
      try {
        const headers = { Accept: 'text/event-stream' };
        if (lastId) headers['Last-Event-ID'] = lastId;
        const res = await fetch('/api/v1/stream', { headers, credentials: 'same-origin', signal: controller.signal });
        if (res.status === 401) {
          onStatus(false);
          const err = new ApiFailure(401, await res.json().catch(() => null), null);
          if (err.code === 'sign_in' && (await signInAgain())) continue;
          return;
        }
        if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const ev = parse(block);
            if (!ev) continue;
            if (ev.id) lastId = ev.id;
            if (ev.event === 'hello') {
              gotHello = true;
              failures = 0;
              onStatus(true);
            }
            if (ev.data !== null) {
              let data = null;
              try {
                data = JSON.parse(ev.data);
              } catch {
                continue;
              }
              onEvent(ev.event, data);
            }
          }
        }
      } catch (err) {
        if (stopped) return;
      }
      if (stopped) return;
      onStatus(false);
      if (!gotHello) failures += 1;
      // 1 s, 2 s, 4 s ... up to 30 s between attempts while the service cannot be reached.
      await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** Math.min(failures, 5))));
    }
  }

  run();
  return {
    stop() {
      stopped = true;
      if (controller) controller.abort();
    },
    get lastId() {
      return lastId;
    },
  };
}

function parse(block) {
  let id = null;
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (!id && data.length === 0) return null;
  return { id, event, data: data.length ? data.join('\n') : null };
}

/** The page's "Live" badge: whether updates are flowing. */
export function showLive(badge, up) {
  badge.classList.toggle('down', !up);
  badge.textContent = up ? 'Live' : 'Live updates paused: reconnecting…';
}

/**
 * For pages that simply reload: `reload()` runs `delayMs` after the last event that `wanted(name,
 * data)` accepts (a burst is one reload), and `badge` shows whether updates are flowing.
 */
export function reloadOnEvents(wanted, delayMs, reload, badge) {
  let timer = null;
  openStream({
    onEvent: (name, data) => {
      if (!wanted(name, data)) return;
      clearTimeout(timer);
      timer = setTimeout(reload, delayMs);
    },
    onStatus: (up) => showLive(badge, up),
  });
}
