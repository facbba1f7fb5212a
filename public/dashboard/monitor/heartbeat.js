// A heartbeat URL, shown once (after creating a heartbeat monitor or making a new URL): the URL
// with a copy button and lines to paste into a job, a crontab or a systemd timer.
import { el } from '../core/format.js';

/** Makes `b` copy `textOf()` when clicked (read at the click: a secret is not kept in a closure). */
export function copyOnClick(b, textOf) {
  const label = b.textContent;
  b.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(textOf());
      b.textContent = 'Copied';
    } catch {
      b.textContent = 'Select and copy by hand';
    }
    setTimeout(() => {
      b.textContent = label;
    }, 2000);
  });
}

function copyButton(text, label) {
  const b = el('button', 'secondary small', label);
  b.type = 'button';
  copyOnClick(b, () => text);
  return b;
}

function snippet(title, text) {
  const wrap = el('div', 'snippet');
  const head = el('div', 'snippet-head');
  head.append(el('strong', null, title), copyButton(text, 'Copy'));
  const pre = el('pre');
  pre.appendChild(el('code', null, text));
  pre.tabIndex = 0;
  wrap.append(head, pre);
  return wrap;
}

/** The panel for `url`; `intervalS` sizes the timer lines. */
export function heartbeatPanel(url, intervalS, name) {
  const box = el('div', 'heartbeat');
  box.appendChild(
    el(
      'p',
      'notice warn',
      'This URL is shown only now. Copy it into the job; if it is lost, make a new one (the old one then stops working).',
    ),
  );
  const line = el('div', 'url-line');
  const code = el('code', 'url', url);
  line.append(code, copyButton(url, 'Copy the URL'));
  box.appendChild(line);
  const every = Math.max(1, Math.round((intervalS || 3600) / 60));
  const cron =
    every < 60
      ? `*/${every} * * * *`
      : every % 1440 === 0
        ? '0 3 * * *'
        : `0 */${Math.max(1, Math.round(every / 60))} * * *`;
  const unit =
    (name || 'job')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'job';
  box.appendChild(
    snippet(
      'After the job, in a script',
      `your-job && curl -fsS -m 10 --retry 3 ${url} > /dev/null\n# or report a failure with its output:\nyour-job || curl -fsS -m 10 --data-binary "failed: $?" ${url}/fail`,
    ),
  );
  box.appendChild(snippet('crontab', `${cron} your-job && curl -fsS -m 10 --retry 3 ${url} > /dev/null`));
  box.appendChild(
    snippet(
      `systemd: ${unit}.service (run it from your timer's unit)`,
      `[Service]\nType=oneshot\nExecStart=/usr/local/bin/your-job\nExecStartPost=/usr/bin/curl -fsS -m 10 --retry 3 ${url}\n\n# ${unit}.timer\n[Timer]\nOnUnitActiveSec=${intervalS || 3600}s\nOnBootSec=5min\n\n[Install]\nWantedBy=timers.target`,
    ),
  );
  return box;
}
