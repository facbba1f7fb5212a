/**
 * Every page's script names the element ids it uses (`pageIds()` in public/shared/page.js), and
 * the list is checked when the script loads: a view and its script renamed apart throw at once,
 * naming the missing ids. Here every dashboard page and every sign-in page is loaded in Debian's
 * Chromium and must load without a page error or a console error; and a page served without one
 * of its ids shows that the check does throw, with the id in its words.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bearer } from '../support/app';
import { createOwnerAt, keyAt, launch, ownerSession, serve, Served, signedInContext } from '../support/browser';
import { startSwitchServer, SwitchServer } from '../support/switch-server';

jest.setTimeout(120_000);

let browser: Browser;
let s: Served;
let target: SwitchServer;
/** Monitors and an incident for the pages that show one. */
let ids: { http: number; heartbeat: number; incident: number };

beforeAll(async () => {
  [browser, s, target] = await Promise.all([launch(), serve(), startSwitchServer()]);
  await createOwnerAt(s);
  const write = bearer(await keyAt(s, 'write', 'bindings'));
  const http = await s.t.http
    .post('/api/v1/monitors')
    .set(write)
    .send({ name: 'Web', kind: 'http', confirm_after: 1, http: { url: target.url } })
    .expect(201);
  const heartbeat = await s.t.http
    .post('/api/v1/monitors')
    .set(write)
    .send({ name: 'Backup', kind: 'heartbeat', interval_s: 300, heartbeat: { grace_s: 60 } })
    .expect(201);
  target.status = 503;
  await s.t.http.post(`/api/v1/monitors/${http.body.id}/check`).set(write).send({}).expect(200);
  target.status = 200;
  const incidents = await s.t.http.get(`/api/v1/incidents?monitor_id=${http.body.id}`).set(write).expect(200);
  ids = { http: http.body.id, heartbeat: heartbeat.body.id, incident: incidents.body.items[0].id };
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await target?.close();
});

/** A page in a context of its own (signed in or not), with its page errors and console errors gathered. */
async function open(signedIn: boolean): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = signedIn ? await signedInContext(browser, s, await ownerSession(s)) : await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { context, page, errors };
}

/** Loads `path` and lets its modules run (they run before `load`; a moment more for their first awaits). */
async function load(page: Page, path: string): Promise<void> {
  await page.goto(`${s.base}${path}`, { waitUntil: 'load' });
  await page.waitForTimeout(300);
}

const dashboardPages = (): string[] => [
  '/',
  '/monitors/new',
  '/monitors/new?kind=heartbeat',
  `/monitors/${ids.http}`,
  `/monitors/${ids.heartbeat}`,
  `/monitors/${ids.http}/edit`,
  `/monitors/${ids.heartbeat}/edit`,
  '/incidents',
  `/incidents/${ids.incident}`,
  '/maintenance',
  '/channels',
  '/keys',
  '/status-page',
  '/security',
  '/settings',
  '/timeline',
  '/diagnostics',
  '/account',
];

it('loads every dashboard page with every element its scripts bind', async () => {
  const { context, page, errors } = await open(true);
  try {
    const failed: string[] = [];
    for (const path of dashboardPages()) {
      await load(page, path);
      // The page itself, not the sign-in page it would send a visitor without a session to.
      expect(new URL(page.url()).pathname).toBe(path.split('?')[0]);
      failed.push(...errors.splice(0).map((e) => `${path}: ${e}`));
    }
    expect(failed).toEqual([]);
  } finally {
    await context.close();
  }
});

it('loads every sign-in page with every element its script binds', async () => {
  const { context, page, errors } = await open(false);
  try {
    const failed: string[] = [];
    for (const path of ['/signin', '/forgot', '/reset/not-a-token', '/enroll/not-a-token']) {
      await load(page, path);
      // A made-up token is refused by the API (a 4xx the page explains): not a fault of the page.
      failed.push(
        ...errors
          .splice(0)
          .filter((e) => !/status of 4\d\d/.test(e))
          .map((e) => `${path}: ${e}`),
      );
    }
    expect(failed).toEqual([]);
  } finally {
    await context.close();
  }
});

it.each([
  ['/', 'id="counts"', 'overview-summary.js needs #counts'],
  ['/monitors/new', 'id="test-result"', 'monitor-form.js needs #test-result'],
  ['/signin', 'id="passkey-step"', 'signin.js needs #passkey-step'],
  ['/account', 'id="su-code"', 'reauth.js needs #su-code'],
])('fails to load %s served without %s, naming it', async (path, attribute, words) => {
  const { context, page, errors } = await open(path !== '/signin');
  try {
    // The page as the server sends it, less one id: what a view edited apart from its script does.
    await page.route(`${s.base}${path}`, async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, body: (await res.text()).replace(attribute, '') });
    });
    await load(page, path);
    expect(errors.join('\n')).toContain(words);
  } finally {
    await context.close();
  }
});
