/**
 * The documentation as a reader sees it: pages served by the real app, opened in headless
 * Chromium at phone width (390 px) and wide (1280 px), light and dark. The stylesheet loads under
 * the page's content security policy with nothing refused, axe-core finds no serious or critical
 * problem (contrast included), nothing runs off the side of a phone, and the menu is where it
 * should be. Screenshots go to test/artifacts/docs/ (git-ignored) to look at.
 */
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { startApp, TestApp } from '../support/app';

const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'docs');
const AXE = require.resolve('axe-core/axe.min.js');
const PAGES = ['/docs', '/docs/interface', '/docs/api', '/docs/not-shown', '/docs/status-page', '/docs/nope'];
const WIDTHS = [390, 1280];

interface AxeResults {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('Chromium is missing: run scripts/test-deps.sh (apt-get install chromium)');
  t = await startApp();
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.each(PAGES)('%s', (url) => {
  it.each(WIDTHS.flatMap((w) => (['light', 'dark'] as const).map((s) => [w, s] as const)))(
    'reads well at %i px in %s mode',
    async (width, scheme) => {
      const page = await browser.newPage({
        viewport: { width, height: 900 },
        colorScheme: scheme,
        deviceScaleFactor: 1,
      });
      // What the page asked for and did not get (the browser's own /favicon.ico aside), and what the policy refused.
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400 && r.url() !== `${base}${url}` && !r.url().endsWith('/favicon.ico'))
          refused.push(`${r.status()} ${r.url()}`);
      });
      page.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) refused.push(m.text());
      });
      try {
        const res = await page.goto(`${base}${url}`, { waitUntil: 'load' });
        expect(res?.status()).toBe(url === '/docs/nope' ? 404 : 200);
        // The stylesheet applied: the body font is the system stack, not the browser's serif default.
        expect(await page.evaluate('getComputedStyle(document.body).fontFamily')).toContain('system-ui');
        const bg = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
        expect(luminance(bg) < 0.2).toBe(scheme === 'dark');
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        // The side menu on a wide screen, the folding menu on a phone.
        const side = (await page.evaluate("getComputedStyle(document.querySelector('nav.side')).display")) as string;
        const menu = (await page.evaluate(
          "getComputedStyle(document.querySelector('details.menu')).display",
        )) as string;
        expect([side === 'none', menu === 'none']).toEqual(width < 900 ? [true, false] : [false, true]);

        const name = (url.replace(/^\/docs\/?/, '') || 'index').replace(/\//g, '-');
        // A capture copies the compositor's last frame; right after 'load' on a busy machine there may be
        // none yet for this page, and Chromium answers "Unable to capture screenshot" (seen once in a full
        // run). Two animation frames mean one has been drawn.
        await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${scheme}-${width}.png`), fullPage: false });
        expect(refused).toEqual([]);

        // axe is a script, which the page's policy refuses: bypass the policy for the check only.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Page.setBypassCSP', { enabled: true });
        await page.reload({ waitUntil: 'load' });
        await page.addScriptTag({ path: AXE });
        const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults;
        const serious = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map(
            (v) =>
              `${v.id} (${v.impact}): ${v.nodes
                .slice(0, 5)
                .map((n) => n.target.join(' '))
                .join(', ')}`,
          );
        expect(serious).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});

/** Relative luminance (0 black, 1 white) of a CSS rgb() colour. */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
