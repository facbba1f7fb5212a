/**
 * An affected service on the status page (issue 36, docs/dependencies.md), in Debian's Chromium:
 * a public service that is down because a service it depends on is down shows down "affected by
 * an outage of <the cause's public name>", or of "another service" when the cause is private (its
 * private name never reaches the page); the public JSON says the same. Every layout, light and
 * dark, axe-clean. Screenshots go to test/artifacts/status/ (git-ignored).
 */
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { tcpMonitor } from '../support/monitors';

const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'status');
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let t: TestApp;
let key: Record<string, string>;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('Chromium is missing: run scripts/test-deps.sh (apt-get install chromium)');
  t = await startApp();
  const { cookie } = await createOwner(t);
  key = bearer(await createKey(t, cookie, 'admin'));
  const create = async (body: Record<string, unknown>) =>
    (await t.http.post('/api/v1/monitors').set(key).send(body).expect(201)).body as { id: number };
  const router = await create(
    tcpMonitor({ name: 'edge-router', public: true, public_name: 'Home network', group: 'Network' }),
  );
  const vpn = await create(tcpMonitor({ name: 'secret-vpn-box' }));
  const nas = await create(
    tcpMonitor({ name: 'nas', public: true, public_name: 'Photo library', group: 'Apps', depends_on: [router.id] }),
  );
  const wiki = await create(
    tcpMonitor({ name: 'wiki', public: true, public_name: 'Family wiki', group: 'Apps', depends_on: [vpn.id] }),
  );
  await create(tcpMonitor({ name: 'blog', public: true, public_name: 'Blog', group: 'Apps' }));
  // As the engine leaves them (test/incidents/dependencies.e2e-spec.ts drives the engine itself):
  // the causes down with incidents 1 and 2, their dependants down and affected.
  const now = t.clock.now();
  const set = (id: number, cause: number | null, incident: number | null) =>
    t.db.query(
      `UPDATE monitor_state SET status = 'down', since = ?, incident_id = ?, cause_monitor_id = ?, cause_incident_id = ? WHERE monitor_id = ?`,
      [now, cause === null ? incident : null, cause, cause === null ? null : incident, id],
    );
  await set(router.id, null, 1);
  await set(vpn.id, null, 2);
  await set(nas.id, router.id, 1);
  await set(wiki.id, vpn.id, 2);
  await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

it('the public JSON names the public cause, and "another service" for a private one', async () => {
  const body = (await t.http.get('/api/public/status').expect(200)).body;
  const services = Object.fromEntries(
    body.groups.flatMap((g: { services: { name: string; affected_by: string | null }[] }) =>
      g.services.map((s) => [s.name, s.affected_by]),
    ),
  );
  expect(services).toEqual({
    'Home network': null,
    'Photo library': 'Home network',
    'Family wiki': 'another service',
    Blog: null,
  });
  expect(JSON.stringify(body)).not.toContain('secret-vpn-box');
});

it.each(['horizon', 'classic', 'ledger'].flatMap((layout) => ['light', 'dark'].map((theme) => [layout, theme])))(
  'the %s layout in %s shows the words beside the down chip, axe-clean',
  async (layout, theme) => {
    await t.http.put('/api/v1/status-page').set(key).send({ layout, theme }).expect(200);
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    try {
      const page = await ctx.newPage();
      await page.goto(`${base}/status`, { waitUntil: 'load' });
      const notes = await page.locator('.chip-note').allInnerTexts();
      expect(notes.sort()).toEqual([
        'affected by an outage of Home network',
        'affected by an outage of another service',
      ]);
      expect(await page.content()).not.toContain('secret-vpn-box');
      await page.evaluate(AXE_SOURCE);
      const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
        violations: { id: string; impact: string }[];
      };
      expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      expect(wide).toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(ARTIFACTS, `affected-${layout}-${theme}.png`), fullPage: true });
      if (layout === 'classic' && theme === 'light') {
        const svc = await ctx.newPage();
        await svc.goto(`${base}/status/photo-library`, { waitUntil: 'load' });
        expect(await svc.locator('.chip-note').allInnerTexts()).toEqual(['affected by an outage of Home network']);
        await svc.screenshot({ path: path.join(ARTIFACTS, 'affected-service-page.png'), fullPage: true });
      }
    } finally {
      await ctx.close();
    }
  },
);
