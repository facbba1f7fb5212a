/**
 * The subscribe form and the subscriber pages in Debian's Chromium: the form under the services
 * in every layout, light and dark, on a phone and a desktop; axe-core finds no serious or critical
 * problem; nothing is wider than the screen; with JavaScript off the form still subscribes (a
 * plain POST answered by a page), and the confirmation and unsubscribe pages read well too.
 * Screenshots go to test/artifacts/subscribers/ (git-ignored) to look at.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SmtpServer, startSmtp, partOf } from '../../harness/servers/smtp-farm';
import { SubscriberDispatcher } from '../../src/subscribers/subscriber-dispatcher.service';
import { bearer } from '../support/app';
import { createOwnerAt, keyAt, launch, serve, Served } from '../support/browser';
import { seedStatusPage } from '../status/seed';

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'subscribers');
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResults {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

let s: Served;
let smtp: SmtpServer;
let key: string;
let browser: Browser;

async function serious(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function checkPage(page: Page, name: string, width: number): Promise<void> {
  expect(await serious(page)).toEqual([]);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtp();
  s = await serve({ FARSIGHT_SMTP: smtp.url });
  await createOwnerAt(s);
  key = await keyAt(s, 'admin');
  await seedStatusPage(s.t, bearer(key));
  await s.t.http
    .put('/api/v1/status-page')
    .set(bearer(key))
    .send({ title: 'Harbour Lab', subscribers: true })
    .expect(200);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await smtp?.close();
});

describe.each(['horizon', 'classic', 'ledger'] as const)('the %s layout', (layout) => {
  beforeAll(async () => {
    await s.t.http.put('/api/v1/status-page').set(bearer(key)).send({ layout }).expect(200);
  });

  it.each([
    ['light', 390],
    ['dark', 390],
    ['light', 1280],
  ] as const)('shows the subscribe form under the services (%s, %i px), axe clean', async (scheme, width) => {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    try {
      const page = await ctx.newPage();
      const res = await page.goto(`${s.base}/status`, { waitUntil: 'load' });
      expect(res?.headers()['content-security-policy']).toContain("form-action 'self'");
      const form = page.locator('form.sub-form');
      expect(await form.getAttribute('action')).toBe('/status/subscribe');
      expect(await page.getByLabel('Email address').getAttribute('type')).toBe('email');
      await checkPage(page, `form-${layout}-${scheme}-${width}`, width);
    } finally {
      await ctx.close();
    }
  });
});

describe.each([
  ['with JavaScript', true],
  ['without JavaScript', false],
] as const)('%s', (_name, javaScriptEnabled) => {
  let ctx: BrowserContext;
  // axe runs as a script: without JavaScript the pages are only read and photographed.
  const check = (page: Page, name: string, width: number) =>
    javaScriptEnabled
      ? checkPage(page, name, width)
      : page.screenshot({ path: path.join(ARTIFACTS, `${name}-nojs.png`), fullPage: true });
  beforeAll(async () => {
    await s.t.db.tx((m) => m.query('DELETE FROM subscriber_mail'));
    ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled });
    ctx.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('subscribes through the plain form, confirms by the mailed link, and leaves by the page button', async () => {
    const page = await ctx.newPage();
    await page.goto(`${s.base}/status`);
    await page.getByLabel('Email address').fill(`visitor-${javaScriptEnabled ? 'js' : 'nojs'}@example.com`);
    await Promise.all([
      page.waitForURL(`${s.base}/status/subscribe`),
      page.getByRole('button', { name: 'Subscribe' }).click(),
    ]);
    expect(await page.locator('h1').textContent()).toBe('Check your inbox');
    await check(page, 'answer-subscribed', 390);

    await s.t.app.get(SubscriberDispatcher).runDue();
    const text = partOf(smtp.mails[smtp.mails.length - 1].raw, 'text/plain') ?? '';
    const link = /(http:\/\/localhost:\d+\/status\/subscription\/\S+)/.exec(text)?.[1] ?? '';
    await page.goto(link);
    expect(await page.locator('h1').textContent()).toBe('Subscription confirmed');
    await check(page, 'answer-confirmed', 390);
    await page.goto(link);
    expect(await page.locator('h1').textContent()).toBe('Link already used');
    await check(page, 'answer-used', 390);

    const { SECRET_BOX } = await import('../../src/db/secret-box');
    const box = s.t.app.get<{ open(v: string): string }>(SECRET_BOX);
    const [row] = await s.t.db.read<{ unsub_token: string }[]>('SELECT unsub_token FROM subscribers ORDER BY id DESC');
    await page.goto(`${s.base}/status/unsubscribe/${box.open(row.unsub_token)}`);
    expect(await page.locator('h1').textContent()).toBe('Unsubscribe?');
    await check(page, 'answer-unsubscribe', 390);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('h1').textContent()).toBe('Unsubscribed');
    await check(page, 'answer-unsubscribed', 390);
    expect(await s.t.db.read("SELECT id FROM subscribers WHERE state = 'confirmed'")).toEqual([]);
  });

  it('answers a bad address with a page that says what is wrong', async () => {
    const page = await ctx.newPage();
    await page.goto(`${s.base}/status`);
    // The browser's own check (type=email) would stop this one; a space inside passes it in no browser, so send it as a request.
    const res = await page.request.post(`${s.base}/status/subscribe`, { form: { email: 'no-at-sign' } });
    expect(res.status()).toBe(422);
    await page.setContent(await res.text());
    expect(await page.locator('h1').textContent()).toBe('Check the address');
  });
});
