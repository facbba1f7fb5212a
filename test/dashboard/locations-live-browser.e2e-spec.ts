/**
 * The monitor page follows its locations live (docs/agents.md, issue 41), in Debian's Chromium:
 * with the page open, an agent's results change its row of the "From each location" table
 * (status, latency, error) through the stream's `state` and `check` events, without a reload, and
 * a location that goes offline shows so. Axe-clean; screenshots go to test/artifacts/dashboard/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { LocationBook } from '../../src/locations/location-book';
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
import { startSwitchServer, SwitchServer } from '../support/switch-server';

jest.setTimeout(120_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');

let browser: Browser;
let s: Served;
let target: SwitchServer;
let admin: Record<string, string>;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  [browser, s, target] = await Promise.all([launch(), serve(), startSwitchServer()]);
  await createOwnerAt(s);
  admin = bearer(await keyAt(s, 'admin', 'live locations'));
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await target?.close();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

it("a monitor page shows an agent's new view of its location without a reload", async () => {
  const cookie = await ownerSession(s);
  const loc = (
    await s.t.http
      .post('/api/v1/locations')
      .set('Cookie', `service_session=${cookie}`)
      .set('Origin', s.base)
      .send({ name: 'vps-live' })
      .expect(201)
  ).body as { token: string };
  const m = (
    await s.t.http
      .post('/api/v1/monitors')
      .set(admin)
      .send({
        name: 'Photos',
        kind: 'http',
        interval_s: 30,
        confirm_after: 1,
        recover_after: 1,
        locations: ['local', 'vps-live'],
        http: { url: target.url },
      })
      .expect(201)
  ).body as { id: number };
  let seq = 0;
  const send = (outcome: 'up' | 'down', latency: number) =>
    s.t.http
      .post('/api/agent/results')
      .set(bearer(loc.token))
      .send({
        agent: { version: '0.1.0', blind: false },
        results: [
          {
            seq: ++seq,
            monitor_id: m.id,
            at: new Date(s.t.clock.now() - 200).toISOString(),
            result: {
              outcome,
              latency_ms: latency,
              phases: null,
              status: outcome === 'up' ? 200 : 503,
              error: outcome === 'up' ? null : { code: 'status', message: 'answered 503 to the agent' },
              cert: null,
              detail: null,
            },
          },
        ],
      })
      .expect(200);
  await send('up', 21);

  const context = await signedInContext(browser, s, cookie, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`${s.base}/monitors/${m.id}`);
    const vps = page.locator('#where-rows tr', { hasText: 'vps-live' });
    await vps.waitFor();
    expect(await vps.locator('.status').innerText()).toBe('Up');
    // The page is live before the agent speaks again.
    await page.locator('#live', { hasText: /^Live$/ }).waitFor();
    const loadedAt = await page.evaluate('performance.timeOrigin');

    await send('down', 1873);
    await vps.locator('.status', { hasText: 'Down' }).waitFor({ timeout: 10_000 });
    expect(await vps.innerText()).toContain('answered 503 to the agent');
    expect(await vps.innerText()).toContain('1873 ms');
    // The same document: no reload happened.
    expect(await page.evaluate('performance.timeOrigin')).toBe(loadedAt);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await shot(page, 'locations-live-down-1280');

    await send('up', 35);
    await vps.locator('.status', { hasText: 'Up' }).waitFor({ timeout: 10_000 });
    expect(await vps.innerText()).not.toContain('answered 503');

    // The agent falls silent for 3 intervals (90 s): its row says it is offline and not counted.
    s.t.clock.advance(91_000);
    await s.t.app.get(LocationBook).sweep();
    await vps.locator('.status', { hasText: 'Offline' }).waitFor({ timeout: 10_000 });
    expect(await page.evaluate('performance.timeOrigin')).toBe(loadedAt);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await shot(page, 'locations-live-offline-1280');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
