/**
 * The sign-in pages over HTTP: where each path leads, the headers every page carries (a strict
 * content security policy, no caching, no Referer from pages with tokens), and no inline code
 * anywhere, so the policy never has to allow it. How they look and work: pages-browser.e2e-spec.ts.
 */
import { issueEnrollLink } from '../../src/auth/passkeys/enroll-link';
import { EventsService } from '../../src/events/events.service';
import { createOwner, startApp, TestApp } from '../support/app';

const PAGES = ['/signin', '/forgot', `/reset/${'r'.repeat(43)}`, `/enroll/${'e'.repeat(32)}`];

function expectPageHeaders(res: { headers: Record<string, string>; text: string }): void {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  expect(res.headers['content-security-policy']).not.toContain('unsafe');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
}

/** No inline script or style: every <script> has a src, no style attributes or blocks, no on* handlers. */
function expectNoInlineCode(html: string): void {
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
  expect(html).not.toMatch(/<style[\s>]/i);
  expect(html).not.toMatch(/\sstyle=/i);
  expect(html).not.toMatch(/\son[a-z]+=/i);
  expect(html).not.toMatch(/javascript:/i);
}

describe('sign-in pages', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it.each(PAGES)('serves %s as a page with one script module, strict headers and no inline code', async (path) => {
    const res = await t.http.get(path).expect(200);
    expectPageHeaders(res);
    expectNoInlineCode(res.text);
    const scripts = [...res.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(res.text).toMatch(/<script type="module" src="\/auth\/assets\/[a-z]+\.js"><\/script>/);
    expect(res.text).toContain('data-public-origin="http://farsight.test"');
  });

  it('serves every script, the modules they import, the style sheet and the mark', async () => {
    const seen = new Set<string>();
    const queue = ['signin.js', 'forgot.js', 'reset.js', 'enroll.js'];
    while (queue.length) {
      const file = queue.shift() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const res = await t.http.get(`/auth/assets/${file}`).expect(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      // Imports name their neighbours, the shared modules (public/shared/) among them, by hash.
      expect(res.text).not.toMatch(/from '\.\.\//);
      for (const m of res.text.matchAll(/from '\.\/([a-z-]+\.js)\?v=[0-9a-f]+'/g)) queue.push(m[1]);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['common.js', 'errors.js', 'page.js', 'passkeys.js']));
    expect((await t.http.get('/auth/assets/auth.css').expect(200)).headers['content-type']).toContain('text/css');
    expect((await t.http.get('/auth/assets/mark.svg').expect(200)).headers['content-type']).toBe('image/svg+xml');
  });

  it.each(['..%2Fauth.css', '.hidden.js', 'nope.js', 'auth.exe'])('answers 404 for the asset %s', async (file) => {
    await t.http.get(`/auth/assets/${file}`).expect(404);
  });

  it('sends a visitor without a session from / to the sign-in page', async () => {
    const res = await t.http.get('/').expect(303);
    expect(res.headers.location).toBe('/signin');
  });

  it('shows a signed-in owner their account page: who, how, since when, the passkeys; and sends them from /signin to the dashboard', async () => {
    const { cookie } = await createOwner(t);
    await t.db.query(
      "INSERT INTO passkeys (credential_id, public_key, counter, label, created_at, last_used_at) VALUES ('abc', x'00', 0, 'Phone <b>', ?, NULL)",
      [t.clock.now()],
    );
    const res = await t.http.get('/account').set('Cookie', cookie).expect(200);
    expectPageHeaders(res);
    expectNoInlineCode(res.text);
    expect(res.text).toContain('<strong>owner@example.com</strong> with the first-run setup link');
    expect(res.text).toContain(`<time datetime="${new Date(t.clock.now()).toISOString()}">`);
    expect(res.text).toContain('Phone &lt;b&gt;');
    expect(res.text).toContain('not used yet');
    expect(res.text).toMatch(
      /<script type="module" src="\/dashboard\/assets\/pages\/account\.js\?v=[0-9a-f]{12}"><\/script>/,
    );
    const signin = await t.http.get('/signin').set('Cookie', cookie).expect(303);
    expect(signin.headers.location).toBe('/');
  });

  it('treats an expired or unknown session cookie as signed out', async () => {
    await t.http
      .get('/')
      .set('Cookie', 'service_session=' + 'x'.repeat(43))
      .expect(303);
    await t.http
      .get('/account')
      .set('Cookie', 'service_session=' + 'x'.repeat(43))
      .expect(303);
  });

  it('links the finished setup page to the landing page', async () => {
    const res = await t.http.get(`/setup/${'s'.repeat(32)}`).expect(200);
    expect(res.text).toContain('<a class="button" href="/">Continue to Farsight</a>');
  });

  it('serves the enrolment page for a real link the same as for any token: the script asks the API', async () => {
    await createOwner(t);
    const url = (await issueEnrollLink(t.db, t.app.get(EventsService), t.clock.now(), t.config.publicUrl)).url;
    const res = await t.http.get(new URL(url).pathname).expect(200);
    expect(res.text).not.toContain(new URL(url).pathname.split('/').pop());
  });
});

describe('sign-in pages with a bot challenge and a LAN address', () => {
  it('let the challenge widget in through the policy, name the site key, and say why passkeys cannot work', async () => {
    const t = await startApp({
      FARSIGHT_PUBLIC_URL: 'http://192.168.1.20:8080',
      FARSIGHT_CHALLENGE_SITE_KEY: 'site-key-1',
      FARSIGHT_CHALLENGE_SECRET: 'challenge-secret-value',
      FARSIGHT_CHALLENGE_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
    });
    try {
      const res = await t.http.get('/signin').expect(200);
      expect(res.headers['content-security-policy']).toContain("script-src 'self' https://challenges.cloudflare.com");
      expect(res.headers['content-security-policy']).toContain('frame-src https://challenges.cloudflare.com');
      expect(res.text).toContain('data-site-key="site-key-1"');
      expect(res.text).toMatch(
        /data-passkey-problem="passkeys need a host name, and 192\.168\.1\.20:8080 is an IP address/,
      );
      expect(res.text).not.toContain('challenge-secret-value');
    } finally {
      await t.close();
    }
  });
});
