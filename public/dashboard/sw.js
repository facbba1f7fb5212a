// The dashboard's service worker (served at /sw.js, scope /): it keeps the shell (the content-
// hashed styles, modules and icons named in SHELL, and the offline page) so the installed app
// opens at once and can say that it is offline. It never stores an API answer or a page: every
// /api/ request and every navigation goes to the network, and a navigation that fails shows the
// offline page. SHELL and VERSION are written in front of this file by the server.
/* global SHELL, VERSION */
const CACHE = 'farsight-shell-' + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('farsight-shell-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') {
    event.respondWith(fetch(req).catch(() => caches.match('/offline')));
    return;
  }
  if (SHELL.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
  }
});
