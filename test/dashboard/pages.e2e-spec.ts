/**
 * The dashboard's pages and files over HTTP: signed out every page sends the browser to the
 * sign-in page; signed in each page has the strict policy, no inline code and one entry module;
 * files are named by their content hash, cached for a year under it, compressed, and a module's
 * imports carry the hashes of the modules they import. How the pages look and work:
 * dashboard-browser.e2e-spec.ts.
 */
import { createOwner, startApp, TestApp } from '../support/app';

const PAGES = [
  '/',
  '/monitors/new',
  '/monitors/1',
  '/monitors/1/edit',
  '/incidents',
  '/incidents/1',
  '/channels',
  '/status-page',
  '/settings',
  '/security',
  '/keys',
  '/timeline',
  '/diagnostics',
  '/account',
];

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await startApp();
  cookie = (await createOwner(t)).cookie;
});
afterAll(() => t.close());

function noInlineCode(html: string): void {
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
  expect(html).not.toMatch(/<style[\s>]/i);
  expect(html).not.toMatch(/\sstyle=/i);
  expect(html).not.toMatch(/\son[a-z]+=/i);
}

it.each(PAGES)('sends a signed-out visitor of %s to the sign-in page, which returns there', async (path) => {
  const res = await t.http.get(path).expect(303);
  expect(res.headers.location).toBe(path === '/' ? '/signin' : `/signin?next=${encodeURIComponent(path)}`);
});

it('keeps the query of the page asked for, and the sign-in page hands only a safe path to its script', async () => {
  const res = await t.http.get('/timeline?kind=sign_in').expect(303);
  expect(res.headers.location).toBe('/signin?next=%2Ftimeline%3Fkind%3Dsign_in');
  // HTML-escaped; the browser reads it back as the path.
  expect((await t.http.get(res.headers.location).expect(200)).text).toContain(
    'data-next="/timeline?kind&#x3D;sign_in"',
  );
  expect((await t.http.get('/signin?next=%2F%2Fevil.example').expect(200)).text).toContain('data-next="/"');
  // Signed in already: straight to the page asked for.
  expect((await t.http.get('/signin?next=%2Fchannels').set('Cookie', cookie).expect(303)).headers.location).toBe(
    '/channels',
  );
});

it.each(PAGES)(
  'serves %s signed in: strict policy, no caching, no inline code, one entry module by its hash',
  async (path) => {
    const res = await t.http.get(path).set('Cookie', cookie).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    noInlineCode(res.text);
    const scripts = [...res.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual([expect.stringMatching(/^\/dashboard\/assets\/pages\/[a-z-]+\.js\?v=[0-9a-f]{12}$/)]);
    expect(res.text).toContain('<link rel="manifest" href="/dashboard/manifest.webmanifest">');
  },
);

// 16 digits is not an id (common/validation/ids.ts): the page would only ask the API for a monitor that cannot exist.
it.each([
  '/monitors/abc',
  '/monitors/0',
  '/incidents/1x',
  '/monitors/1/edit%2F',
  '/monitors/1000000000000000',
  '/monitors/1000000000000000/edit',
  '/incidents/1000000000000000',
])('answers 404 for %s, not a page', async (path) => {
  await t.http.get(path).set('Cookie', cookie).expect(404);
});

it('lists only finished pages in the navigation, and marks the current one', async () => {
  const res = await t.http.get('/keys').set('Cookie', cookie).expect(200);
  const nav = /<nav id="nav"[\s\S]*?<\/nav>/.exec(res.text)![0];
  const links = [...nav.matchAll(/<li><a href="([^"]+)"/g)].map((m) => m[1]);
  expect(links).toEqual([
    '/',
    '/incidents',
    '/maintenance',
    '/locations',
    '/channels',
    '/status-page',
    '/settings',
    '/security',
    '/keys',
    '/timeline',
    '/diagnostics',
  ]);
  expect(nav).toContain('<a href="/keys" aria-current="page">API keys</a>');
});

it("draws the page in the theme the owner picked, and in the system's for anything else", async () => {
  const dark = await t.http.get('/').set('Cookie', `${cookie}; farsight_theme=dark`).expect(200);
  expect(dark.text).toContain('<html lang="en" data-theme="dark">');
  const odd = await t.http.get('/').set('Cookie', `${cookie}; farsight_theme="><b>`).expect(200);
  expect(odd.text).toContain('<html lang="en" data-theme="auto">');
});

it('serves every file a page loads, through the imports, cached for a year under its hash, compressed', async () => {
  const page = await t.http.get('/').set('Cookie', cookie).expect(200);
  const queue = [...page.text.matchAll(/(?:href|src)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const seen = new Set<string>();
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await t.http
      .get(url)
      .set('Accept-Encoding', 'br')
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect([url, res.headers['cache-control']]).toEqual([url, 'public, max-age=31536000, immutable']);
    // superagent has undone the brotli already; the header says it was sent compressed.
    const body = (res.body as Buffer).toString('utf8');
    if (url.includes('.js?')) {
      expect(res.headers['content-encoding']).toBe('br');
      // Imports are relative to the module's own URL, a folder down or up (pages/ imports ../core/).
      for (const m of body.matchAll(/from '(\.\.?\/[a-z0-9/-]+\.js\?v=[0-9a-f]{12})'/g)) {
        const next = new URL(m[1], `http://farsight.test${url}`);
        queue.push(next.pathname + next.search);
      }
      expect(body).not.toMatch(/from '\.\.?\/[a-z0-9/-]+\.js'/);
    }
  }
  expect([...seen].some((u) => u.startsWith('/dashboard/assets/core/api.js?v='))).toBe(true);
  expect(seen.size).toBeGreaterThan(6);
  // Every module the page's script imports, however deep, is named up front for the browser to
  // fetch at once (modulepreload), by the same versioned URL the imports use.
  const preloaded = [...page.text.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  const entry = /<script type="module" src="([^"]+)"/.exec(page.text)![1];
  const imported = [...seen].filter((u) => u.includes('.js?') && u !== entry);
  expect(preloaded.filter((u) => u.startsWith('/dashboard/')).sort()).toEqual([...imported].sort());
  // ... the shared modules among them (public/shared/), served here too: nothing from the sign-in pages' folder.
  expect(preloaded.filter((u) => !u.startsWith('/dashboard/'))).toEqual([]);
  expect(preloaded.some((u) => u.startsWith('/dashboard/assets/page.js?v='))).toBe(true);
});

it('revalidates a file asked for by another hash, and refuses names that are not files', async () => {
  const res = await t.http.get('/dashboard/assets/app.css?v=old').expect(200);
  expect(res.headers['cache-control']).toBe('no-cache');
  expect((await t.http.get('/dashboard/assets/core/api.js').expect(200)).headers['cache-control']).toBe('no-cache');
  for (const bad of [
    '..%2Fapp.css',
    '.hidden.js',
    'nope.js',
    'app.exe',
    'core/nope.js',
    'Core/api.js',
    '..%2Fcore/api.js',
    'core/..%2F..%2Fpackage.json',
    'a/core/api.js',
  ])
    await t.http.get(`/dashboard/assets/${bad}`).expect(404);
});

it('serves the manifest, the service worker (its shell by hash, its own policy) and the offline page', async () => {
  const manifest = await t.http.get('/dashboard/manifest.webmanifest').expect(200);
  expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
  const m = JSON.parse(manifest.text);
  expect(m).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
  expect(m.icons.map((i: { purpose: string }) => i.purpose)).toEqual(['any', 'any', 'maskable']);
  const sw = await t.http.get('/sw.js').expect(200);
  expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(sw.headers['content-security-policy']).toBe("default-src 'none'; connect-src 'self'; frame-ancestors 'none'");
  const shell = JSON.parse(/^const SHELL = (.*);$/m.exec(sw.text)![1]) as string[];
  expect(shell).toContain('/offline');
  expect(
    shell
      .filter((u) => u !== '/offline')
      .every((u) => /^\/dashboard\/assets\/(?:[a-z0-9-]+\/)?[a-z0-9-]+\.[a-z]+\?v=[0-9a-f]{12}$/.test(u)),
  ).toBe(true);
  expect(shell.some((u) => u.startsWith('/api/'))).toBe(false);
  const offline = await t.http.get('/offline').expect(200);
  expect(offline.text).toContain('Farsight cannot be reached');
  noInlineCode(offline.text);
});

it('lets a session upload the status page logo as an image from its own origin, and no one else', async () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
  await t.http
    .put('/api/v1/status-page/logo')
    .set('Cookie', cookie)
    .set('Content-Type', 'image/svg+xml')
    .send(svg)
    .expect(403);
  await t.http
    .put('/api/v1/status-page/logo')
    .set('Cookie', cookie)
    .set('Origin', 'http://evil.test')
    .set('Content-Type', 'image/svg+xml')
    .send(svg)
    .expect(403);
  await t.http
    .put('/api/v1/status-page/logo')
    .set('Cookie', cookie)
    .set('Origin', 'http://farsight.test')
    .set('Content-Type', 'text/plain')
    .send(svg)
    .expect(403);
  const ok = await t.http
    .put('/api/v1/status-page/logo')
    .set('Cookie', cookie)
    .set('Origin', 'http://farsight.test')
    .set('Content-Type', 'image/svg+xml')
    .send(svg)
    .expect(200);
  expect(ok.body).toMatchObject({ ok: true });
});
