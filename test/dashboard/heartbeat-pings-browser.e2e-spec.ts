/**
 * A heartbeat monitor's page lists its pings, not checks (issue 33, left over): when each
 * arrived, what it was (a ping, a missed deadline, a failure the job reported) and whether it
 * came on time against the window (interval and grace), with no latency or status columns that
 * pings never have; a ping that arrives while the page is open takes its place at the top. Other
 * monitors keep their checks table. In Debian's Chromium; screenshots go to
 * test/artifacts/dashboard/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
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
const MIN = 60_000;

let browser: Browser;
let s: Served;
let target: SwitchServer;
let write: Record<string, string>;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  [browser, s, target] = await Promise.all([launch(), serve(), startSwitchServer()]);
  await createOwnerAt(s);
  write = bearer(await keyAt(s, 'write', 'pings'));
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await target?.close();
});

/** Moves the service's clock on and lets deadlines that passed meanwhile be missed. */
async function advance(ms: number): Promise<void> {
  s.t.clock.advance(ms);
  const engine = s.t.app.get(EngineService);
  engine.tick();
  await engine.idle();
  await s.t.app.get(CheckWriter).flush();
}

/** Each row's cells' text, spaces squeezed. */
async function cells(page: Page, selector: string): Promise<string[][]> {
  const rows = page.locator(selector);
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    out.push((await rows.nth(i).locator(':scope > *').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()));
  }
  return out;
}

it('lists pings with when they came and whether on time, late or missed, not latency and status', async () => {
  // Every 5 min with 1 min of grace: pings at 0 and 5 min, the deadline missed at 12, a late
  // ping at 14 (9 min after the one before, 3 past its deadline), a failure reported at 15.
  const created = await s.t.http
    .post('/api/v1/monitors')
    .set(write)
    .send({ name: 'Nightly backup', kind: 'heartbeat', interval_s: 300, heartbeat: { grace_s: 60 } })
    .expect(201);
  const hb = new URL(created.body.heartbeat_url as string).pathname;
  await s.t.http.get(hb).expect(200);
  await advance(5 * MIN);
  await s.t.http.get(hb).expect(200);
  await advance(7 * MIN);
  await advance(2 * MIN);
  await s.t.http.get(hb).expect(200);
  await advance(1 * MIN);
  await s.t.http.post(`${hb}/fail`).set('Content-Type', 'text/plain').send('exit 2').expect(200);
  await advance(0);

  // The phone width first: the wide one then adds a ping live.
  for (const width of [390, 1280]) {
    const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(`${s.base}/monitors/${created.body.id}`);
      await page.locator('#checks-body tr').nth(4).waitFor();
      expect(await cells(page, '#checks-head tr')).toEqual([['When', 'What', 'Against the window', 'Message']]);
      const rows = (await cells(page, '#checks-body tr')).map((r) => r.slice(1));
      expect(rows).toEqual([
        ['Failure reported', '–', 'failure reported: exit 2'],
        ['Ping', 'Late: 3 min past the deadline (9 min after the ping before)', ''],
        ['Missed', 'Deadline passed', 'no ping within 360 s (interval 300 s + grace 60 s)'],
        ['Ping', 'On time: 5 min after the ping before', ''],
        ['Ping', '–', ''],
      ]);
      expect(await page.locator('#checks-table').getAttribute('aria-label')).toBe('Table of recent pings');
      // The filter speaks of pings; a heartbeat is never slow.
      expect(await page.locator('#checks-outcome option:not([hidden])').allTextContents()).toEqual([
        'Every ping and deadline',
        'Missed or failed',
        'Pings',
        'Not counted',
      ]);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `heartbeat-pings-${width}.png`), fullPage: true });
      if (width === 1280) {
        // A ping while the page is open: at the top, on time against the one before (at 14 min).
        await advance(2 * MIN);
        await s.t.http.get(hb).expect(200);
        await page.locator('#checks-body tr').nth(5).waitFor();
        expect((await cells(page, '#checks-body tr')).slice(0, 1).map((r) => r.slice(1))).toEqual([
          ['Ping', 'On time: 3 min after the ping before', ''],
        ]);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }
});

it('keeps the latency and status columns for a monitor that is checked', async () => {
  const created = await s.t.http
    .post('/api/v1/monitors')
    .set(write)
    .send({ name: 'Web', kind: 'http', http: { url: target.url } })
    .expect(201);
  await s.t.http.post(`/api/v1/monitors/${created.body.id}/check`).set(write).send({}).expect(200);
  const context = await signedInContext(browser, s, await ownerSession(s));
  const page = await context.newPage();
  try {
    await page.goto(`${s.base}/monitors/${created.body.id}`);
    await page.locator('#checks-body tr').first().waitFor();
    expect(await cells(page, '#checks-head tr')).toEqual([['When', 'Result', 'Latency', 'Status', 'Error']]);
    expect((await cells(page, '#checks-body tr'))[0].slice(1, 2)).toEqual(['Up']);
    expect(await page.locator('#checks-outcome option:not([hidden])').allTextContents()).toEqual([
      'Every check',
      'Failed',
      'Slow',
      'Good',
      'Not counted',
    ]);
  } finally {
    await context.close();
  }
});
