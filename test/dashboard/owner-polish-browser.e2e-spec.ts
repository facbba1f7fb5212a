/**
 * The dashboard's rough edges a first-time owner tripped over (issue 33), in Debian's Chromium:
 * live figures of the overview, the monitor form's errors, the heartbeat page, the webhook form,
 * the incident page, API keys and the smaller polish. One browser and one served app for the
 * file; screenshots go to test/artifacts/dashboard/ (git-ignored), to look at after a change.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bearer } from '../support/app';
import {
  AxeResults,
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
import { startDnsFarm } from '../../harness/servers/dns-farm';
import { issueSetupLink } from '../../src/auth/setup/links';
import { totpAt } from '../../src/auth/password/totp';
import { OWNER } from '../support/app';

jest.setTimeout(120_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');

let browser: Browser;
let s: Served;
let target: SwitchServer;
let write: string;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  [browser, s, target] = await Promise.all([launch(), serve(), startSwitchServer()]);
  await createOwnerAt(s);
  write = await keyAt(s, 'write', 'polish');
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await target?.close();
});

/** A signed-in page at a width; page errors and console errors are gathered. */
async function open(width: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { context, page, errors };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();

async function monitor(body: Record<string, unknown>): Promise<number> {
  const res = await s.t.http.post('/api/v1/monitors').set(bearer(write)).send(body).expect(201);
  return res.body.id as number;
}

const checkNow = (id: number) => s.t.http.post(`/api/v1/monitors/${id}/check`).set(bearer(write)).send({}).expect(200);

describe('the overview', () => {
  it('follows a monitor going down in every figure: tiles, its group header and its row, without a reload', async () => {
    target.status = 200;
    const id = await monitor({
      name: 'Lab router',
      kind: 'http',
      group: 'Lab',
      confirm_after: 1,
      recover_after: 1,
      http: { url: target.url },
    });
    await monitor({ name: 'Lab switch', kind: 'http', group: 'Lab', http: { url: target.url } });
    await checkNow(id);
    s.t.clock.advance(60_000);
    await checkNow(id);
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/?q=lab`);
      const row = page.locator(`.mon[data-id="${id}"]`);
      await row.locator('.status.up').waitFor();
      await page.locator('#live', { hasText: 'Live' }).waitFor();
      const group = page.locator('section.group', { hasText: 'Lab router' }).locator('h3');
      expect(await group.innerText()).toContain('2 monitors');
      expect(await group.innerText()).not.toContain('down');
      expect(await text(page, `.mon[data-id="${id}"] .u24`)).toContain('100%');
      await page.evaluate('window.__loads = performance.getEntriesByType("navigation").length');

      target.status = 500;
      await checkNow(id);
      await row.locator('.status.down').waitFor();
      await page.locator('section.group h3', { hasText: '2 monitors, 1 down' }).waitFor();
      expect(await text(page, '#counts')).toContain('1 down');
      // A minute down after a minute up: the row's 24 hours say so, from the stream's next check.
      s.t.clock.advance(60_000);
      await checkNow(id);
      await page.locator(`.mon[data-id="${id}"] .u24`, { hasText: '50.0%' }).waitFor();
      await page.locator('#incident-list li', { hasText: 'Lab router' }).waitFor();
      await shot(page, 'polish-overview-live-down-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'polish-overview-live-down-390');
      expect(await page.evaluate('window.__loads')).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      target.status = 200;
      await context.close();
    }
  });
});

describe('the monitor form', () => {
  it('shows every problem at once, each by its field, in plain words, and suggests the name from the URL', async () => {
    for (const width of [1280, 390]) {
      const { context, page, errors } = await open(width);
      try {
        await page.goto(`${s.base}/monitors/new`);
        await page.locator('#monitor-form:not([hidden])').waitFor();
        await page.getByLabel('URL', { exact: true }).fill('not a url');
        expect(await page.locator('#m-name').inputValue()).toBe('');
        await page.getByRole('button', { name: 'Add the monitor' }).click();
        await page.locator('#err-http-url').waitFor();
        expect(await text(page, '#err-name')).toBe(
          'Is needed: type a short name you will recognise, such as "Home router".',
        );
        expect(await text(page, '#err-http-url')).toContain('http:// or https:// URL');
        expect(await page.locator('#m-name').getAttribute('aria-invalid')).toBe('true');
        expect(await page.locator('#http-url').getAttribute('aria-invalid')).toBe('true');
        await shot(page, `polish-monitor-form-errors-${width}`);

        await page.getByLabel('URL', { exact: true }).fill('https://www.nas.home.lan:8443/health');
        expect(await page.locator('#m-name').inputValue()).toBe('nas.home.lan');
        expect(await page.locator('#m-name-hint').isVisible()).toBe(true);
        await page.getByLabel('URL', { exact: true }).fill('https://router.lan/');
        expect(await page.locator('#m-name').inputValue()).toBe('router.lan');
        // A name of the owner's own is never replaced.
        await page.locator('#m-name').fill('Router');
        await page.getByLabel('URL', { exact: true }).fill('https://gw.lan/');
        expect(await page.locator('#m-name').inputValue()).toBe('Router');
        expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('the heartbeat monitor page', () => {
  it('has no "Check now" nor latency chart, names the kind once and says it goes down at the first missed ping', async () => {
    const res = await s.t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({
        name: 'Nightly backup',
        kind: 'heartbeat',
        interval_s: 300,
        confirm_after: 3,
        heartbeat: { grace_s: 60 },
      })
      .expect(201);
    const id = res.body.id as number;
    await s.t.http.get(new URL(res.body.heartbeat_url as string).pathname).expect(200);
    for (const width of [1280, 390]) {
      const { context, page, errors } = await open(width);
      try {
        await page.goto(`${s.base}/monitors/${id}`);
        await page.locator('#monitor:not([hidden])').waitFor();
        await page.locator('#facts', { hasText: 'Last ping' }).waitFor();
        expect(await page.locator('#check-now').isVisible()).toBe(false);
        expect(await page.locator('#chart-section').isVisible()).toBe(false);
        expect(await text(page, '.target-line')).toBe('Heartbeat · a job pings it every 5 min');
        const facts = await text(page, '#facts');
        expect(facts).toContain(
          'A ping every 5 min; down as soon as one does not arrive within the 5 min and 1 min of grace',
        );
        expect(facts).not.toContain('failed checks');
        expect(facts).toMatch(/next ping due by/i);
        expect(await text(page, '#checks-title')).toBe('Recent pings and missed deadlines');
        expect(await seriousAxeFindings(page)).toEqual([]);
        await shot(page, `polish-heartbeat-${width}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('the webhook form', () => {
  it('shows the receiver URL as typed, counts the secret to 16, generates one, and masks only stored values', async () => {
    const doc = (await s.t.http.get('/api/openapi.json').expect(200)).body;
    // The request's config is anyOf the kinds' configs (a chat {url} also matches apprise's): the webhook's has a secret.
    const configs = doc.components.schemas.ChannelInput.properties.config.anyOf as {
      properties: Record<string, { anyOf?: { minLength?: number }[] }>;
    }[];
    const webhook = configs.find((c) => c.properties?.secret && c.properties?.headers)!;
    expect(webhook.properties.secret.anyOf?.[0].minLength).toBe(16);
    for (const width of [1280, 390]) {
      const { context, page, errors } = await open(width);
      try {
        await page.goto(`${s.base}/channels`);
        await page.locator('#loading').waitFor({ state: 'hidden' });
        await page.getByRole('button', { name: 'Add a channel' }).click();
        await page.getByRole('radio', { name: /^Webhook/ }).check();
        await page.getByLabel('Name', { exact: true }).fill(`Receiver ${width}`);
        expect(await page.getByLabel('Receiver URL').getAttribute('type')).toBe('url');
        await page.getByLabel('Receiver URL').fill('https://hooks.home.lan/farsight');
        await page.getByLabel('Signing secret').fill('too-short');
        expect(await text(page, '#cf-sign-count')).toBe('9 of at least 16 characters: 7 more');
        await page.getByRole('button', { name: 'Generate' }).click();
        const secret = await page.getByLabel('Signing secret').inputValue();
        expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(await page.getByLabel('Signing secret').getAttribute('type')).toBe('text');
        expect(await text(page, '#cf-sign-count')).toBe('43 characters: long enough');
        expect(await seriousAxeFindings(page)).toEqual([]);
        await shot(page, `polish-webhook-new-${width}`);
        await page.getByRole('button', { name: 'Add the channel' }).click();
        await page.locator('.channel h3', { hasText: `Receiver ${width}` }).waitFor();

        // Changing it: the stored URL and secret show masked; typing replaces the URL whole, in the clear.
        await page
          .locator('.channel', { hasText: `Receiver ${width}` })
          .getByRole('button', { name: 'Change' })
          .click();
        const url = page.getByLabel('Receiver URL');
        expect(await url.getAttribute('type')).toBe('password');
        expect(await url.inputValue()).toBe('********');
        expect(await page.getByLabel('Signing secret').getAttribute('type')).toBe('password');
        await url.click();
        await page.keyboard.type('https://other.home.lan/hook');
        expect(await url.inputValue()).toBe('https://other.home.lan/hook');
        expect(await url.getAttribute('type')).toBe('url');
        await shot(page, `polish-webhook-edit-${width}`);
        await page.getByRole('button', { name: 'Cancel' }).click();
        if (width === 390) {
          // The delivery log is wider than a phone: it scrolls in its box, with a shadow at the edge that has more.
          const log = page.locator('#log-section .table-wrap');
          await page.locator('#log tr').first().waitFor();
          const [scroll, client, image] = (await page.evaluate(
            "(() => { const e = document.querySelector('#log-section .table-wrap'); return [e.scrollWidth, e.clientWidth, getComputedStyle(e).backgroundImage]; })()",
          )) as [number, number, string];
          expect(scroll).toBeGreaterThan(client);
          expect(image).toContain('radial-gradient');
          await log.scrollIntoViewIfNeeded();
          await log.screenshot({ path: path.join(ARTIFACTS, 'polish-delivery-log-390.png') });
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('incidents, the timeline and the first-run checklist', () => {
  it("names the incident's monitor, and shows a saved note in its timeline, in words", async () => {
    target.status = 500;
    const id = await monitor({ name: 'Garage NAS', kind: 'http', confirm_after: 1, http: { url: target.url } });
    await checkNow(id);
    s.t.clock.advance(60_000);
    await checkNow(id);
    target.status = 200;
    const list = await s.t.http.get(`/api/v1/incidents?monitor_id=${id}`).set(bearer(write)).expect(200);
    const incident = list.body.items[0].id as number;
    for (const width of [1280, 390]) {
      const { context, page, errors } = await open(width);
      try {
        await page.goto(`${s.base}/incidents/${incident}`);
        await page.locator('#incident:not([hidden])').waitFor();
        expect(await text(page, '#i-sub')).toMatch(/^An incident of Garage NAS, since /);
        expect(await page.locator('#i-sub a').innerText()).toBe('Garage NAS');
        expect(await text(page, '#i-sub')).not.toContain(`Incident ${incident}`);
        if (width === 1280) {
          await page.getByLabel(/^Note/).fill('Disk swapped <b>tonight</b>\nback by 8');
          await page.getByRole('button', { name: 'Save' }).click();
          await page.locator('#ack-saved:not([hidden])').waitFor();
        }
        const line = page.locator('#timeline li', { hasText: 'added a note' });
        await line.waitFor();
        expect((await text(page, '#timeline li.tl-note .tl-kind')).toLowerCase()).toBe('note');
        expect(await text(page, '#timeline li.tl-note .tl-text')).toContain(
          'added a note: “Disk swapped <b>tonight</b> back by 8”',
        );
        expect(await page.locator('#timeline b').count()).toBe(0);
        expect(await text(page, '#timeline')).not.toMatch(/\bfirst_up\b|\bstatus_page_updated\b/);
        await shot(page, `polish-incident-${width}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('marks the status page step done once the owner has looked at it, says /status is public, and a save without changes writes no monitor lines', async () => {
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/`);
      await page.locator('#checklist:not([hidden])').waitFor();
      expect(await text(page, '#step-page')).toContain('(to do)');
      expect(await text(page, '#public-note')).toContain(
        'is public: anyone with its address can see the monitors you show on it',
      );
      // An open incident's age is said once ("for 3 min", not "since 3 min ago (3 min)").
      expect(await text(page, '#incident-list li:first-child time')).toMatch(/^for \d+ (s|min|h|d)( \d+ (s|min|h))?$/);
      await shot(page, 'polish-overview-checklist-1280');

      const before = (
        await s.t.http.get('/api/v1/events?kind=monitor_updated&limit=100').set(bearer(write)).expect(200)
      ).body.items.length;
      await page.goto(`${s.base}/status-page`);
      await page.locator('#editor:not([hidden])').waitFor();
      await page.getByRole('button', { name: /^Save/ }).first().click();
      await page.locator('#saved:not([hidden])').waitFor();
      const after = (await s.t.http.get('/api/v1/events?kind=monitor_updated&limit=100').set(bearer(write)).expect(200))
        .body.items;
      expect(after.length).toBe(before);

      await page.goto(`${s.base}/`);
      await page.locator('#step-page.done').waitFor({ state: 'attached' });

      await page.goto(`${s.base}/timeline`);
      await page.locator('#lines li').first().waitFor();
      const labels = await page.locator('#filters label.check').allInnerTexts();
      expect(labels.map((l) => l.trim())).toContain('Monitor changed');
      expect(labels.join(' ')).not.toMatch(/_/);
      expect(await text(page, '#lines')).toMatch(/monitor added/i);
      await shot(page, 'polish-timeline-1280');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('API keys', () => {
  it('shows a new key whole with a copy button, asks before revoking in its own dialog, and keeps the list of the keys left', async () => {
    for (const width of [1280, 390]) {
      const { context, page, errors } = await open(width);
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      try {
        await page.goto(`${s.base}/keys`);
        await page.locator('#loading').waitFor({ state: 'hidden' });
        await page.getByLabel('Name').fill(`backup ${width}`);
        await page.getByRole('button', { name: 'Create the key' }).click();
        await page.locator('#new-key:not([hidden])').waitFor();
        const key = await page.locator('#nk-value').innerText();
        expect(key).toMatch(/^fs_\S{20,}$/);
        // Whole: the box is as wide as its text needs or wraps, nothing is cut off.
        const fits = (await page.evaluate(
          "(() => { const c = document.getElementById('nk-value'); return c.scrollWidth <= c.clientWidth + 1; })()",
        )) as boolean;
        expect(fits).toBe(true);
        expect(await page.getByRole('button', { name: 'Copy the key' }).isVisible()).toBe(true);
        await shot(page, `polish-keys-new-${width}`);
        await page.getByRole('button', { name: 'I have copied it' }).click();

        await page.getByRole('button', { name: `Revoke backup ${width}` }).click();
        const dialog = page.getByRole('dialog', { name: `Revoke the key "backup ${width}"?` });
        await dialog.waitFor();
        expect(await seriousAxeFindings(page)).toEqual([]);
        await shot(page, `polish-keys-revoke-${width}`);
        await dialog.getByRole('button', { name: 'Revoke' }).click();
        await page.getByRole('button', { name: `Revoke backup ${width}` }).waitFor({ state: 'detached' });
        // Other keys remain (the test's own): the list stays, "No keys yet" does not show.
        expect(await page.locator('#rows tr').count()).toBeGreaterThan(0);
        expect(await page.locator('#empty').isVisible()).toBe(false);
        expect(dialogs).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('small things', () => {
  it("answers /favicon.ico with the dashboard's icon, signed out too", async () => {
    const res = await s.t.http
      .get('/favicon.ico')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    const ico = res.body as Buffer;
    expect([ico.readUInt16LE(2), ico.readUInt16LE(4), ico[6]]).toEqual([1, 1, 192]);
    expect(ico.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
  });
});

describe('the status page header', () => {
  it('shows the title alone when there is no logo, without an empty coloured square', async () => {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 700 } });
      try {
        const page = await context.newPage();
        await page.goto(`${s.base}/status`);
        const brand = page.locator('header .brand, .brand').first();
        await brand.waitFor();
        expect(await brand.locator('.brand-name').count()).toBe(1);
        expect(await brand.locator('span').count()).toBe(1);
        expect(await page.locator('.brand-mark').count()).toBe(0);
        await page.screenshot({ path: path.join(ARTIFACTS, `polish-status-header-${width}.png`) });
      } finally {
        await context.close();
      }
    }
  });
});

describe('the DNS test result', () => {
  it('names the DNS answer code instead of "status 0"', async () => {
    const farm = await startDnsFarm();
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/monitors/new?kind=dns`);
      await page.locator('#monitor-form:not([hidden])').waitFor();
      await page.locator('#dns-name').fill('web.test');
      await page.locator('#dns-resolver').fill(farm.resolver);
      await page.getByRole('button', { name: 'Test now' }).click();
      await page.locator('#test-result:not([hidden]) .result-head').waitFor();
      const head = await text(page, '#test-result .result-head');
      expect(head).toContain('answer NOERROR');
      expect(head).not.toContain('status 0');
      await page.locator('#test-result').screenshot({ path: path.join(ARTIFACTS, 'polish-dns-test-1280.png') });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await farm.close();
    }
  });
});

/** axe-core's findings of one rule, whatever their impact (landmark-unique is "moderate"). */
async function axeRule(page: Page, rule: string): Promise<string[]> {
  await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const results = (await page.evaluate(
    `axe.run(document, { runOnly: ['${rule}'], resultTypes: ['violations'] })`,
  )) as AxeResults;
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** Boxes of the elements that match, as [x, y, width, height]; with `ink`, of what they draw (text past their box included). */
async function boxes(page: Page, selector: string, ink = false): Promise<number[][]> {
  const of = ink ? '(() => { const g = document.createRange(); g.selectNodeContents(e); return g; })()' : 'e';
  return (await page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => { const r = ${of}.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })`,
  )) as number[][];
}
const overlap = (a: number[], b: number[]) =>
  a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];

describe('layout and landmarks', () => {
  it('has no landmark-unique finding on the monitor, incident and channels pages', async () => {
    target.status = 500;
    const id = await monitor({ name: 'Landmarks', kind: 'http', confirm_after: 1, http: { url: target.url } });
    await checkNow(id);
    s.t.clock.advance(60_000);
    await checkNow(id);
    target.status = 200;
    const incident = (
      (await s.t.http.get(`/api/v1/incidents?monitor_id=${id}`).set(bearer(write)).expect(200)).body.items[0] as {
        id: number;
      }
    ).id;
    const { context, page, errors } = await open(1280);
    try {
      for (const [url, ready] of [
        [`/monitors/${id}`, '#monitor:not([hidden])'],
        [`/incidents/${incident}`, '#incident:not([hidden])'],
        ['/channels', '#loading[hidden]'],
      ]) {
        await page.goto(`${s.base}${url}`);
        await page.locator(ready).first().waitFor({ state: 'attached' });
        expect([url, await axeRule(page, 'landmark-unique')]).toEqual([url, []]);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the status page editor usable: the drag handle clear of the checkbox, a slim save bar on a phone', async () => {
    await monitor({ name: 'Editor row', kind: 'http', http: { url: target.url } });
    for (const width of [1280, 390]) {
      const context = await signedInContext(browser, s, await ownerSession(s), { viewport: { width, height: 844 } });
      const page = await context.newPage();
      try {
        await page.goto(`${s.base}/status-page`);
        await page.locator('#editor:not([hidden])').waitFor();
        await page.locator('#pub-list li').first().waitFor();
        const handles = await boxes(page, '#pub-list li .handle', true);
        const checks = await boxes(page, '#pub-list li input[type=checkbox]');
        expect(handles.length).toBeGreaterThan(0);
        handles.forEach((h, i) => expect([i, overlap(h, checks[i])]).toEqual([i, false]));
        await page.screenshot({ path: path.join(ARTIFACTS, `polish-status-editor-${width}.png`) });
        await page
          .locator('#pub-list')
          .screenshot({ path: path.join(ARTIFACTS, `polish-status-editor-rows-${width}.png`) });
        const bar = (await boxes(page, '#sp-form .actions'))[0];
        // Sticky at the bottom of the screen: at most a tenth of a phone's height.
        expect(bar[3]).toBeLessThanOrEqual(844 / 10);
      } finally {
        await context.close();
      }
    }
  });
});

describe('card widths', () => {
  it('gives every card of a page one width', async () => {
    const id = await monitor({ name: 'Widths', kind: 'http', http: { url: target.url } });
    const { context, page, errors } = await open(1440);
    try {
      const pages: [string, string, string | null][] = [
        ['/channels', '#loading[hidden]', '#add'],
        ['/keys', '#loading[hidden]', null],
        ['/settings', '#settings-form:not([hidden])', null],
        [`/monitors/${id}`, '#monitor:not([hidden])', '#mute-open'],
      ];
      for (const [url, ready, open] of pages) {
        await page.goto(`${s.base}${url}`);
        await page.locator(ready).first().waitFor({ state: 'attached' });
        if (open) await page.locator(open).click();
        const widths = (await page.evaluate(
          "[...document.querySelectorAll('main .card-section')].filter((e) => e.offsetParent !== null && !e.closest('.card-section .card-section, .cards, dialog')).map((e) => Math.round(e.getBoundingClientRect().width))",
        )) as number[];
        expect([url, new Set(widths).size]).toEqual([url, 1]);
        await shot(page, `polish-widths-${url.split('/')[1]}-1440`);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('first-run setup', () => {
  it('offers the recovery codes to copy and download, shows the product mark, and continues with a button', async () => {
    const fresh = await serve();
    try {
      for (const width of [390, 1280]) {
        const link = (await issueSetupLink(fresh.t.db, fresh.t.clock.now(), fresh.t.config.publicUrl)).url;
        const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        try {
          await page.goto(`${fresh.base}${new URL(link).pathname}`);
          await page.locator('#setup-form:not([hidden])').waitFor();
          expect(await page.locator('h1 img[src$="mark.svg"]').count()).toBe(1);
          if (width === 390) {
            // The owner exists now: this round only looks at the page on a phone.
            await shot(page, 'polish-setup-390');
            continue;
          }
          const secret = await page.locator('#secret').innerText();
          await page.getByLabel('Email').fill(OWNER.email);
          await page.getByLabel('Password').fill(OWNER.password);
          await page.getByLabel('Code').fill(totpAt(secret, fresh.t.clock.now()));
          await page.getByRole('button', { name: 'Create the owner account' }).click();
          await page.locator('#done:not([hidden])').waitFor();
          const codes = await page.locator('#codes li').allInnerTexts();
          expect(codes).toHaveLength(10);
          const [download] = await Promise.all([
            page.waitForEvent('download'),
            page.getByRole('button', { name: 'Download as a file' }).click(),
          ]);
          expect(download.suggestedFilename()).toBe('farsight-recovery-codes.txt');
          const file = fs.readFileSync((await download.path())!, 'utf8');
          for (const c of codes) expect(file).toContain(c);
          expect(await page.getByRole('button', { name: 'Copy the codes' }).isVisible()).toBe(true);
          const go = page.getByRole('link', { name: 'Continue to Farsight' });
          expect(await go.getAttribute('class')).toBe('button');
          expect(await seriousAxeFindings(page)).toEqual([]);
          await shot(page, 'polish-setup-codes-1280');
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }
    } finally {
      await fresh.t.close();
    }
  });
});
