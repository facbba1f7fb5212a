// The offline banner: shown while a request cannot reach the service (no network, or a proxy in
// front answering 502/504 while the service restarts), with a countdown to the next try (1, 2, 4
// ... up to 30 s), "Retry now", and the browser's `online` event to try at once. A request waits
// in waitUntilRetry() and is then repeated by request.js; nothing on the page is touched meanwhile.

import { pageIds } from '../../shared/page.js';

// The banner is the shell's (views/dashboard/app.hbs), on every page that sends requests.
const $ = pageIds(['offline', 'offline-text', 'offline-retry'], 'offline.js');

let retryNow = null;
let failures = 0;

/** Shows the banner and resolves when the request should be tried again. */
export function waitUntilRetry() {
  const banner = $('offline');
  failures += 1;
  const wait = Math.min(30, 2 ** Math.min(failures - 1, 5));
  let left = wait;
  const text = () => {
    $('offline-text').textContent =
      'Farsight cannot be reached: the network or the service is down. Trying again in ' +
      left +
      ' s; nothing you typed is lost.';
  };
  text();
  banner.hidden = false;
  return new Promise((resolve) => {
    const tick = setInterval(() => {
      left -= 1;
      if (left <= 0) done();
      else text();
    }, 1000);
    const done = () => {
      clearInterval(tick);
      window.removeEventListener('online', done);
      retryNow = null;
      $('offline-text').textContent = 'Trying to reach Farsight…';
      resolve();
    };
    retryNow = done;
    window.addEventListener('online', done);
  });
}

/** A request got an answer: the next failure waits 1 s again, and the banner goes. */
export function backOnline() {
  failures = 0;
  $('offline').hidden = true;
}

export function initOffline() {
  $('offline-retry').addEventListener('click', () => {
    if (retryNow) retryNow();
    else location.reload();
  });
}
