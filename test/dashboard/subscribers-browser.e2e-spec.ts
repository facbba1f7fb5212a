/**
 * The status page settings' subscribers in Debian's Chromium: the setting's checkbox saves
 * `subscribers`, the list shows who subscribed and whether they confirmed, and Remove removes one
 * through DELETE /subscribers/{id}; axe finds no serious problem. Screenshots go to
 * test/artifacts/dashboard/ (git-ignored).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { bearer } from '../support/app';
import {
  createOwnerAt,
  keyAt,
  launch,
  ownerSession,
  seriousAxeFindings,
  serve,
  Served,
  signedInContext,
} from '../support/browser';

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');

let s: Served;
let browser: Browser;
let admin: string;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  s = await serve();
  await createOwnerAt(s);
  admin = await keyAt(s, 'admin');
  await s.t.http.put('/api/v1/status-page').set(bearer(admin)).send({ subscribers: true }).expect(200);
  for (const email of ['ada@example.com', 'grace.hopper@example.org'])
    await s.t.http.post('/api/public/subscribe').send({ email }).expect(202);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
});

it('lists the subscribers with their state, removes one, and saves the setting from its checkbox', async () => {
  const ctx = await signedInContext(browser, s, await ownerSession(s), { viewport: { width: 1280, height: 900 } });
  try {
    ctx.setDefaultTimeout(8000);
    const page = await ctx.newPage();
    page.on('console', (m) => process.stderr.write(`console: ${m.text()}\n`));
    page.on('pageerror', (e) => process.stderr.write(`pageerror: ${e.message}\n`));
    await page.goto(`${s.base}/status-page`);
    const list = page.locator('#subs-list li');
    await list.first().waitFor();
    expect(await list.count()).toBe(2);
    expect(await list.nth(0).textContent()).toContain('grace.hopper@example.org');
    expect(await list.nth(0).textContent()).toContain('Waiting for confirmation since');
    expect(await page.getByLabel('Visitors may subscribe by mail', { exact: false }).isChecked()).toBe(true);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.locator('#subs-title').screenshot({ path: path.join(ARTIFACTS, 'status-page-subscribers-head.png') });
    await page
      .locator('section[aria-labelledby=subs-title]')
      .screenshot({ path: path.join(ARTIFACTS, 'status-page-subscribers.png') });

    await page.getByRole('button', { name: 'Remove ada@example.com' }).click();
    await page.getByText('ada@example.com was removed.').waitFor();
    expect(await list.count()).toBe(1);
    const left = (await s.t.http.get('/api/v1/subscribers').set(bearer(admin)).expect(200)).body.items;
    expect(left.map((x: { email: string }) => x.email)).toEqual(['grace.hopper@example.org']);

    await page.getByLabel('Visitors may subscribe by mail', { exact: false }).uncheck();
    await page.getByRole('button', { name: 'Save the status page' }).click();
    await page.locator('#saved').waitFor();
    expect((await s.t.http.get('/api/v1/status-page').set(bearer(admin)).expect(200)).body.subscribers).toBe(false);
  } finally {
    await ctx.close();
  }
});
