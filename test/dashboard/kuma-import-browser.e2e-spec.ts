/**
 * The dashboard's "Import from Uptime Kuma" (settings page) in Chromium: a Kuma database built in
 * the test from Kuma's schema is chosen, the preview shows the same report POST /import/kuma gives
 * (and `farsight import-kuma` prints), nothing is written until Apply, Apply writes it; axe finds
 * nothing serious; screenshots in test/artifacts/dashboard/kuma-*.png.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
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
import { buildKumaDb } from '../support/kuma-fixture';
import { kumaSample } from '../support/kuma-sample';

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');

// Chromium on a machine shared with other suites.
jest.setTimeout(120_000);

let browser: Browser;
let s: Served;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  [browser, s] = await Promise.all([launch(), serve()]);
  await createOwnerAt(s);
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
});

async function shot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize()!;
  const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  if (height > size.height) await page.setViewportSize(size);
}

const rowsOf = (page: Page) =>
  page.$$eval('#k-rows tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)),
  );

describe('settings: import from Uptime Kuma', () => {
  it.each([[1280], [390]])(
    'previews the report, applies it, and reports it again as written (%i px)',
    async (width) => {
      const file = path.join(ARTIFACTS, `kuma-${width}.db`);
      fs.rmSync(file, { force: true });
      // The second run imports the same setup with one interval changed in Kuma: one monitor to update.
      const rows = kumaSample();
      if (width !== 1280) rows.monitor!.find((m) => m.id === 3)!.interval = 120;
      await buildKumaDb(file, rows, { version: '2.x' });
      const admin = await keyAt(s, 'admin', `kuma ${width}`);
      // The report the API gives for the same file, to hold the page against.
      const expected = (
        await s.t.http
          .post('/api/v1/import/kuma')
          .set(bearer(admin))
          .set('Content-Type', 'application/octet-stream')
          .send(fs.readFileSync(file))
          .expect(200)
      ).body as { counts: Record<string, number>; items: { type: string; name: string; outcome: string }[] };

      const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      try {
        await page.goto(`${s.base}/settings`);
        await page.locator('#kuma:not([hidden])').waitFor();
        await page.getByLabel('Kuma file').setInputFiles(file);
        await page.locator('#k-plan:not([hidden])').waitFor();
        const kinds: Record<string, string> = {
          monitor: 'Monitor',
          channel: 'Channel',
          maintenance: 'Maintenance',
          status_page: 'Status page',
        };
        const words = (o: string, dry: boolean) =>
          dry && (o === 'created' || o === 'updated') ? `Would be ${o}` : o[0].toUpperCase() + o.slice(1);
        if (width === 1280) {
          expect(await page.locator('#k-plan-title').textContent()).toBe(`What importing kuma-${width}.db would do`);
          expect(await rowsOf(page)).toEqual(
            expected.items.map((i) => [words(i.outcome, true), kinds[i.type], i.name]),
          );
          const c = expected.counts;
          expect(await page.locator('#k-counts').textContent()).toBe(
            `Uptime Kuma 2.x database (last migration 2026-05-20-0000-add-bearer-token.js): ${c.created} would be created, ${c.updated} would be updated, ${c.unchanged} unchanged, ${c.skipped} skipped.`,
          );
          expect(await page.locator('#k-rows').textContent()).toContain(
            'Kuma\'s "steam" monitors have no counterpart here',
          );
          // Nothing written by the preview.
          await s.t.http.get('/api/v1/monitors/slug:nas-web').set(bearer(admin)).expect(404);
        }
        expect(await seriousAxeFindings(page)).toEqual([]);
        await shot(page, `kuma-preview-${width}`);
        await page.locator('#kuma').screenshot({ path: path.join(ARTIFACTS, `kuma-section-preview-${width}.png`) });

        await page.getByRole('button', { name: 'Apply the import' }).click();
        await page.locator('#k-done:not([hidden])').waitFor();
        if (width === 1280) {
          expect(await page.locator('#k-done').textContent()).toMatch(
            /^Imported: 35 created, 1 updated, 0 unchanged, \d+ skipped\.$/,
          );
          expect(await rowsOf(page)).toEqual(
            expected.items.map((i) => [words(i.outcome, false), kinds[i.type], i.name]),
          );
        } else {
          // The 1280 px run imported it already: only the changed monitor is written.
          expect(await page.locator('#k-done').textContent()).toMatch(/^Imported: 0 created, 1 updated, 35 unchanged/);
        }
        await s.t.http.get('/api/v1/monitors/slug:nas-web').set(bearer(admin)).expect(200);
        expect(await page.getByRole('button', { name: 'Apply the import' }).isVisible()).toBe(false);
        expect(await page.getByRole('button', { name: 'Close' }).isVisible()).toBe(true);
        expect(await seriousAxeFindings(page)).toEqual([]);
        await shot(page, `kuma-applied-${width}`);
        await page.locator('#kuma').screenshot({ path: path.join(ARTIFACTS, `kuma-section-applied-${width}.png`) });
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        expect(overflow).toBeLessThanOrEqual(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('says what is wrong with a file that is not Kuma’s, and shows no plan', async () => {
    const file = path.join(ARTIFACTS, 'not-kuma.txt');
    fs.writeFileSync(file, 'hello');
    const context = await signedInContext(browser, s, await ownerSession(s), {
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    try {
      await page.goto(`${s.base}/settings`);
      await page.locator('#kuma:not([hidden])').waitFor();
      await page.getByLabel('Kuma file').setInputFiles(file);
      const error = page.locator('#kuma-form .form-error');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/not an Uptime Kuma database or backup/);
      expect(await page.locator('#k-plan').isHidden()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
