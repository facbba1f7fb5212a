/**
 * Maintenance on the public status page (docs/maintenance.md, "On the status page"): the JSON
 * lists public windows that are active or announced, with only the public names of public
 * services; the HTML shows them above the services in all three layouts, without JavaScript,
 * with no serious axe finding, in Debian's Chromium. Screenshots go to test/artifacts/maintenance/.
 */
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { seedStatusPage } from '../status/seed';

const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'maintenance');
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const HOUR = 3_600_000;

let t: TestApp;
let key: string;
let base: string;
let browser: Browser;

const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('Chromium is missing: run scripts/test-deps.sh (apt-get install chromium)');
  t = await startApp();
  const { cookie } = await createOwner(t);
  key = await createKey(t, cookie, 'admin');
  const seeded = await seedStatusPage(
    t,
    bearer(key),
    [
      { name: 'Nextcloud', privateName: 'nc-prod-01', group: 'Apps', latency: 120 },
      { name: 'Router', group: 'Network', latency: 3 },
    ],
    30,
  );
  const secret = (
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(key))
      .send({ name: 'Secret box', kind: 'http', http: { url: 'https://secret.lan/' } })
      .expect(201)
  ).body.id as number;
  const now = t.clock.now();
  const window = async (body: Record<string, unknown>, start = false) => {
    const w = (await t.http.post('/api/v1/maintenance').set(bearer(key)).send(body).expect(201)).body;
    if (start)
      await t.http
        .post(`/api/v1/maintenance/${w.id}/start`)
        .set(bearer(key))
        .send({ end: iso(now + 2 * HOUR) })
        .expect(200);
  };
  const nextcloud = seeded.byName.get('Nextcloud')!;
  await window(
    {
      title: 'Nextcloud upgrade',
      description: 'Upgrading to the next major version.\n\nFiles stay readable.',
      monitors: [nextcloud, secret],
      schedule: { kind: 'manual' },
    },
    true,
  );
  await window({
    title: 'Power work',
    schedule: { kind: 'once', start: iso(now + 5 * HOUR), end: iso(now + 6 * HOUR) },
  });
  await window({ title: 'Private work', public: false, schedule: { kind: 'manual' } }, true);
  await window({
    title: 'Far ahead',
    schedule: { kind: 'once', start: iso(now + 48 * HOUR), end: iso(now + 49 * HOUR) },
  });
  await window({ title: 'Secret only', monitors: [secret], schedule: { kind: 'manual' } }, true);
  await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('maintenance on the status page', () => {
  it('lists active and announced public windows in the JSON, with public names of public services only', async () => {
    const now = t.clock.now();
    const body = (await t.http.get('/api/public/status').expect(200)).body;
    expect(body.maintenance).toEqual([
      {
        title: 'Nextcloud upgrade',
        description: 'Upgrading to the next major version.\n\nFiles stay readable.',
        state: 'active',
        starts_at: iso(now),
        ends_at: iso(now + 2 * HOUR),
        services: ['Nextcloud'],
      },
      {
        title: 'Power work',
        description: null,
        state: 'scheduled',
        starts_at: iso(now + 5 * HOUR),
        ends_at: iso(now + 6 * HOUR),
        services: ['Nextcloud', 'Router'],
      },
    ]);
    const text = JSON.stringify(body);
    for (const hidden of ['Secret', 'nc-prod-01', 'Private work', 'Far ahead']) expect(text).not.toContain(hidden);
  });

  it.each(['horizon', 'classic', 'ledger'])(
    'shows them above the services in the %s layout, without JavaScript, with no serious axe finding',
    async (layout) => {
      await t.http.put('/api/v1/status-page').set(bearer(key)).send({ layout }).expect(200);
      for (const theme of ['light', 'dark']) {
        await t.http.put('/api/v1/status-page').set(bearer(key)).send({ theme }).expect(200);
        const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 }, javaScriptEnabled: false });
        try {
          const page = await ctx.newPage();
          await page.goto(`${base}/status`, { waitUntil: 'load' });
          const section = page.locator('section.maint');
          await expect(section.locator('h2').textContent()).resolves.toBe('Maintenance');
          const items = await section.locator('.maint-item').allTextContents();
          expect(items).toHaveLength(2);
          expect(items[0]).toContain('In progress');
          expect(items[0]).toContain('Nextcloud upgrade');
          expect(items[0]).toContain('Affects Nextcloud');
          expect(items[1]).toContain('Planned');
          expect(items[1]).toContain('Affects Nextcloud, Router');
          // Above the services: the section comes before the first service name in the page.
          const order = await page.evaluate(
            "(() => { const m = document.querySelector('section.maint'); const s = document.querySelector('.svc-name'); return !!(m.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING); })()",
          );
          expect(order).toBe(true);
          await page.screenshot({ path: path.join(ARTIFACTS, `status-${layout}-${theme}.png`), fullPage: false });
          const withAxe = await browser.newContext({ viewport: { width: 1100, height: 900 } });
          try {
            const p2 = await withAxe.newPage();
            await p2.goto(`${base}/status`, { waitUntil: 'load' });
            await p2.evaluate(AXE_SOURCE);
            const results = (await p2.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
              violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
            };
            const serious = results.violations
              .filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
            expect([layout, theme, serious]).toEqual([layout, theme, []]);
          } finally {
            await withAxe.close();
          }
        } finally {
          await ctx.close();
        }
      }
    },
    120_000,
  );
});
