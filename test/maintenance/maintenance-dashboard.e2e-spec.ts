/**
 * The dashboard's Maintenance page in Debian's Chromium: create a weekly window with the schedule
 * editor (its preview of the next five occurrences comes from POST /maintenance/preview), see a
 * field error, start and stop it by hand, the badge on the overview row and the window on the
 * monitor page; axe finds nothing serious. Screenshots go to test/artifacts/maintenance/.
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

jest.setTimeout(180_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'maintenance');
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
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

describe('the Maintenance page', () => {
  it('creates a weekly window with a previewed schedule, starts and stops it, and shows it on the monitors', async () => {
    const write = await keyAt(s, 'write');
    const nas = (
      await s.t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send({ name: 'NAS', kind: 'http', http: { url: 'http://127.0.0.1:9/' } })
        .expect(201)
    ).body;
    const context = await signedInContext(browser, s, await ownerSession(s), {
      viewport: { width: 1280, height: 900 },
      timezoneId: 'Europe/Berlin',
      locale: 'en-GB',
    });
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${s.base}/maintenance`);
      await page.locator('#empty:not([hidden])').waitFor();
      // A field error from the service, next to its field.
      await page.getByRole('button', { name: 'Create the window' }).click();
      await page.locator('#mw-form .field-error').first().waitFor();
      expect(await page.locator('#mw-form').innerText()).toMatch(/Title/);
      // The editor: weekly on Sunday at 02:30 Berlin time; the preview shows five occurrences.
      await page.getByLabel('Title').fill('Sunday backups');
      await page.getByLabel('Schedule').selectOption('weekly');
      await page.getByLabel('Sun', { exact: true }).check();
      await page.getByLabel('Starts at').fill('02:30');
      await page.getByLabel('Monitors').selectOption(String(nas.id));
      await page.locator('#mw-preview li').nth(4).waitFor();
      // The fake clock is Sunday 1 Nov 2026 12:00 UTC: the next Sunday 02:30 in Berlin is 8 Nov.
      expect(await page.locator('#mw-preview li').first().innerText()).toContain('8 Nov');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'dashboard-editor');
      await page.getByRole('button', { name: 'Create the window' }).click();
      await page.locator('#rows tr').first().waitFor();
      expect(await page.locator('#rows').innerText()).toContain('Sunday backups');
      expect(await page.locator('#rows').innerText()).toContain('Scheduled');
      // Start now, then the monitor is in maintenance: the overview's badge and the monitor page say so.
      await page.getByRole('button', { name: 'Start Sunday backups now' }).click();
      await page.getByRole('button', { name: 'Stop Sunday backups' }).waitFor();
      expect(await page.locator('#rows').innerText()).toContain('In progress');
      await shot(page, 'dashboard-list');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.goto(`${s.base}/`);
      await page.locator('.mon .status').first().waitFor();
      expect(await page.locator('.mon .status').first().innerText()).toContain('maintenance');
      await page.goto(`${s.base}/monitors/${nas.id}`);
      await page.getByText('Sunday backups').waitFor();
      expect(await page.locator('dl').first().innerText()).toContain(
        'Sunday backups, until stopped: no incident opens',
      );
      await shot(page, 'dashboard-monitor');
      await page.goto(`${s.base}/maintenance`);
      await page.getByRole('button', { name: 'Stop Sunday backups' }).click();
      await page.getByRole('button', { name: 'Start Sunday backups now' }).waitFor();
      const stored = (await s.t.http.get('/api/v1/maintenance').set(bearer(write))).body.items[0];
      expect(stored).toMatchObject({
        title: 'Sunday backups',
        monitors: [nas.id],
        schedule: { kind: 'weekly', days: ['sun'], start_time: '02:30', tz: 'Europe/Berlin' },
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
