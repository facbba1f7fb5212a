/**
 * The status page's latency per location (show_locations, issue 41, docs/status-page.md), in
 * Debian's Chromium, and in the HTML as served (no script needed): off by default; on, a service checked from more than this
 * service shows its response time from each of its locations, in its own order (local from its
 * checks, an agent's from its stored results, "no data" for a place that sent nothing good), in all
 * three layouts, on its service page and in the public JSON; a service checked locally only shows
 * none. Axe-clean at phone and desktop width; screenshots go to test/artifacts/status/.
 * The figures are rows written into `checks` and `location_results` as the writer and the agent
 * route leave them, so the page's arithmetic is known exactly.
 */
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { launch, seriousAxeFindings } from '../support/browser';

jest.setTimeout(180_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'status');
let t: TestApp;
let base: string;
let admin: Record<string, string>;
let browser: Browser;
let nextcloud: number;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  t = await startApp();
  const { cookie } = await createOwner(t);
  admin = bearer(await createKey(t, cookie, 'admin'));
  const place = async (name: string) =>
    (await t.http.post('/api/v1/locations').set('Cookie', cookie).set('Origin', ORIGIN).send({ name }).expect(201))
      .body as { id: number };
  const fra = await place('vps-fra');
  await place('pi-at-mums');
  const create = async (body: Record<string, unknown>) =>
    (await t.http.post('/api/v1/monitors').set(admin).send(body).expect(201)).body as { id: number };
  nextcloud = (
    await create({
      name: 'Nextcloud',
      kind: 'tcp',
      tcp: { host: '127.0.0.1', port: 9 },
      locations: ['vps-fra', 'local', 'pi-at-mums'],
    })
  ).id;
  const homepage = (await create({ name: 'Homepage', kind: 'tcp', tcp: { host: '127.0.0.1', port: 9 } })).id;
  const now = t.clock.now();
  // local: 10 and 14 ms, and a failure that does not count; vps-fra: 80 and 97 ms, one of them two
  // days old (outside the 24 hours); pi-at-mums: only a failure.
  for (const [at, outcome, latency] of [
    [now - 60_000, 0, 10],
    [now - 120_000, 0, 14],
    [now - 180_000, 2, 9000],
  ])
    await t.db.query('INSERT INTO checks (monitor_id, at, outcome, latency) VALUES (?, ?, ?, ?)', [
      nextcloud,
      at,
      outcome,
      latency,
    ]);
  await t.db.query('INSERT INTO checks (monitor_id, at, outcome, latency) VALUES (?, ?, 0, 20)', [
    homepage,
    now - 1000,
  ]);
  for (const [at, latency] of [
    [now - 60_000, 80],
    [now - 90_000, 97],
    [now - 2 * 86_400_000, 5000],
  ])
    await t.db.query(
      'INSERT INTO location_results (monitor_id, location_id, at, outcome, latency) VALUES (?, ?, ?, 0, ?)',
      [nextcloud, fra.id, at, latency],
    );
  await t.http
    .put('/api/v1/status-page')
    .set(admin)
    .send({
      monitors: [
        { id: nextcloud, public: true },
        { id: homepage, public: true },
      ],
    })
    .expect(200);
  await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A fresh page of the status page (no cache in between: a PUT invalidates the service's own). */
async function open(route: string, width: number): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${base}${route}`);
  return page;
}

const locsOf = async (page: Page, service: string) =>
  (await page.locator('.svc, tr', { hasText: service }).locator('.svc-locs').allInnerTexts()).map((x) =>
    x.replace(/\s+/g, ' ').trim(),
  );

it('shows no location figures while show_locations is off (the default)', async () => {
  const page = await open('/status', 1280);
  expect(await page.locator('.svc-locs').count()).toBe(0);
  await page.context().close();
  const json = (await t.http.get('/api/public/status').expect(200)).body;
  expect(JSON.stringify(json)).not.toContain('vps-fra');
});

describe.each(['horizon', 'classic', 'ledger'])('the %s layout with show_locations', (layout) => {
  it('shows each location of a service checked from several, in its order, without JavaScript, axe-clean', async () => {
    await t.http.put('/api/v1/status-page').set(admin).send({ layout, show_locations: true }).expect(200);
    for (const width of [390, 1280]) {
      const page = await open('/status', width);
      expect(await locsOf(page, 'Nextcloud')).toEqual([
        'Response time from each location: vps-fra 89 ms local 12 ms pi-at-mums no data',
      ]);
      expect(await locsOf(page, 'Homepage')).toEqual([]);
      // In the page as served: the figures need no script.
      expect((await t.http.get('/status').expect(200)).text).toMatch(
        /<span class="loc-name">vps-fra<\/span> <span class="loc-ms">89 ms<\/span>/,
      );
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(
        0,
      );
      await page.screenshot({ path: path.join(ARTIFACTS, `locations-${layout}-${width}.png`), fullPage: true });
      await page.context().close();
    }
  });
});

it('shows a tile per location on the service page and the figures in the public JSON', async () => {
  const page = await open('/status/nextcloud', 390);
  const tiles = (await page.locator('.tile').allInnerTexts()).map((x) => x.replace(/\s+/g, ' ').trim());
  expect(tiles).toEqual(
    expect.arrayContaining([
      'From vps-fra 89 ms average of good checks, last 24 hours',
      'From local 12 ms average of good checks, last 24 hours',
      'From pi-at-mums no data average of good checks, last 24 hours',
    ]),
  );
  expect(await seriousAxeFindings(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'locations-service-390.png'), fullPage: true });
  await page.context().close();
  const json = (await t.http.get('/api/public/status').expect(200)).body as {
    groups: { services: { name: string; locations?: unknown }[] }[];
  };
  const services = json.groups.flatMap((g) => g.services);
  expect(services.find((s) => s.name === 'Nextcloud')?.locations).toEqual([
    { name: 'vps-fra', typical_ms: 89 },
    { name: 'local', typical_ms: 12 },
    { name: 'pi-at-mums', typical_ms: null },
  ]);
  expect(services.find((s) => s.name === 'Homepage')).not.toHaveProperty('locations');
});
