/**
 * The dashboard as the owner uses it, in Debian's Chromium: one browser and one served app for
 * the whole file. The shell and the overview (empty and seeded, light and dark, 1280 and 390 px,
 * axe-core clean), a local target flipping down and up seen live, the step-up and signed-out
 * dialogs repeating an action without losing the page. Screenshots go to test/artifacts/dashboard/
 * (git-ignored), to look at after a change.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpAt } from '../../src/auth/password/totp';
import { bearer, OWNER } from '../support/app';
import {
  createOwnerAt,
  keyAt,
  launch,
  ownerSession,
  seriousAxeFindings,
  serve,
  Served,
  signedInContext,
  virtualAuthenticator,
} from '../support/browser';
import { sha256 } from '../../src/common/access/tokens';
import { startSwitchServer, SwitchServer } from '../support/switch-server';
import { seedStatusPage } from '../status/seed';

jest.setTimeout(120_000);

const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'dashboard');
/** The few page globals the waitForFunction predicates below touch (the tests compile without the DOM library). */
type PageGlobals = {
  document: { querySelectorAll(s: string): Iterable<{ classList: { contains(c: string): boolean } }> };
  navigator: { serviceWorker: { controller: object | null; ready: Promise<{ active: { state: string } | null }> } };
};

let browser: Browser;
let s: Served;
let owner: { secret: string };
let target: SwitchServer;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  [browser, s, target] = await Promise.all([launch(), serve(), startSwitchServer()]);
  owner = await createOwnerAt(s);
});
afterAll(async () => {
  await browser?.close();
  await s?.t.close();
  await target?.close();
});

/** A signed-in page at a width, with the theme given (or the system's, light). */
async function open(
  width: number,
  opts: { dark?: boolean; cookie?: string; at?: Served } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const at = opts.at ?? s;
  const context = await signedInContext(browser, at, opts.cookie ?? (await ownerSession(at)), {
    viewport: { width, height: 900 },
    colorScheme: opts.dark ? 'dark' : 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { context, page, errors };
}

/**
 * The whole page. The window is made as tall as the page first: rows off screen are not drawn
 * until they come near it (`content-visibility: auto`), and a full-page capture alone does not
 * bring them near.
 */
async function shot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize()!;
  const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
  if (height > size.height) {
    await page.setViewportSize({ width: size.width, height });
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  }
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  if (height > size.height) await page.setViewportSize(size);
}

/** The first screen only, for docs/images/dashboard-<name>.png (copied by hand after a look). */
async function docShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `docs-${name}.png`) });
}

/** Nothing runs off the side of the page (a 360 px phone must not scroll sideways). */
async function horizontalOverflow(page: Page): Promise<number> {
  // After a resize: measured once the page has laid itself out again.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  return (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
}

/**
 * Runs `fn(api)` in the page with the page's own instance of the dashboard's API module (the
 * content-hashed URL its entry module imports), as a page action would call it.
 */
function withApi(page: Page, fn: string): Promise<unknown> {
  return page.evaluate(`(async () => {
    if (!window.testApi) {
      const entry = document.querySelector('script[type=module]').src;
      const source = await (await fetch(entry)).text();
      window.testApi = await import(new URL(source.match(/'(\\.\\.\\/core\\/api\\.js\\?v=[0-9a-f]+)'/)[1], entry).href);
    }
    return (${fn})(window.testApi);
  })()`);
}

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();

describe('the overview', () => {
  it('teaches on an empty install: what a monitor is, the kinds, and the first-run checklist', async () => {
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/`);
      await page.locator('#empty:not([hidden])').waitFor();
      await page.locator('#checklist:not([hidden])').waitFor();
      expect(await text(page, '#empty')).toContain('No monitors yet');
      expect(await text(page, '#checklist')).toContain('Add a monitor (to do)');
      expect(await page.locator('nav[aria-label="Main"] a[aria-current="page"]').innerText()).toBe('Overview');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'overview-empty-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'overview-empty-390');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the monitors grouped, with counts, filters and search; light and dark, wide and narrow', async () => {
    // Its own app: the seed writes months of history, states and incidents behind the engine's
    // back, so the app is started again on the same data to show them as after a restart.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-dash-'));
    const first = await serve({}, { dataDir });
    await createOwnerAt(first);
    const seedKey = await keyAt(first, 'write', 'seed');
    const seeded = await seedStatusPage(first.t, bearer(seedKey), undefined, 40);
    // Groups of the owner's own (the seed sets public sections only).
    for (const [name, group] of [
      ['Homepage', 'Website'],
      ['Blog', 'Website'],
      ['Shop', 'Website'],
      ['Router', 'Network'],
      ['NAS', 'Network'],
    ]) {
      await first.t.http
        .patch(`/api/v1/monitors/${seeded.byName.get(name)}`)
        .set(bearer(seedKey))
        .send({ group })
        .expect(200);
    }
    await first.t.close();
    const own = await serve({}, { dataDir });
    const cookie = await ownerSession(own);
    for (const dark of [false, true]) {
      for (const width of [1280, 390]) {
        const { context, page, errors } = await open(width, { dark, cookie, at: own });
        try {
          await page.goto(`${own.base}/`);
          await page.locator('#list .mon').first().waitFor();
          expect(await page.locator('#list .mon').count()).toBe(10);
          expect(await text(page, '#counts')).toContain('10 monitors');
          if (width === 390) expect(await horizontalOverflow(page)).toBe(0);
          expect(await seriousAxeFindings(page)).toEqual([]);
          await shot(page, `overview-${dark ? 'dark' : 'light'}-${width}`);
          if (!dark && width === 1280) await docShot(page, 'overview');
          if (dark && width === 390) await docShot(page, 'overview-dark-phone');
          if (!dark && width === 1280) {
            // By name, and by target (the seed's hosts are svc-<n>.home.lan). Names are read as the
            // rows hold them, not as rendered: a row not laid out yet after a redraw
            // (content-visibility: auto) has no rendered text, which a loaded CI run once read.
            await page.getByLabel('Search').fill('nas');
            await page.locator('#shown', { hasText: '1 of 10 monitors matches' }).waitFor();
            expect(await page.locator('#list .mon .name > :first-child').allTextContents()).toEqual(['NAS']);
            expect(page.url()).toBe(`${own.base}/?q=nas`);
            await page.getByLabel('Search').fill('home.lan');
            await page.locator('#shown', { hasText: '10 of 10 monitors match' }).waitFor();
            await page.getByLabel('Group').selectOption('Website');
            expect(await page.locator('#list .mon .name > :first-child').allTextContents()).toEqual([
              'Homepage',
              'Blog',
              'Shop',
            ]);
            await page.getByRole('button', { name: 'Clear the filters' }).click();
            expect(await page.locator('#list .mon').count()).toBe(10);
          }
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }
    }
    await own.t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks for every page of a long list once, each named in the HTML as a preload, and draws it all', async () => {
    const own = await serve();
    try {
      await createOwnerAt(own);
      const key = await keyAt(own, 'write', 'many');
      const monitors = Array.from({ length: 520 }, (_, i) => ({
        name: `job ${i}`,
        kind: 'heartbeat',
        interval_s: 3600,
        heartbeat: { grace_s: 60 },
      }));
      // Rows are built from HTML text: a name with markup in it must stay text.
      const hostile = `zz <img src=x onerror="window.__pwned=1"> & 'q' </span></div>`;
      monitors[7] = { ...monitors[7], name: hostile };
      const made = await own.t.http.post('/api/v1/monitors/bulk').set(bearer(key)).send({ monitors }).expect(200);
      expect(made.body.errors).toEqual([]);
      const { context, page, errors } = await open(1280, { at: own });
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/v1/')) asked.push(new URL(r.url()).pathname + new URL(r.url()).search);
      });
      try {
        const html = await (await page.goto(`${own.base}/`))!.text();
        const preloads = [
          ...html.matchAll(/<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)">/g),
        ].map((m) => m[1].replace(/&#x3D;/g, '=').replace(/&amp;/g, '&'));
        // The second page's cursor is the id of the first page's last monitor (newest first).
        const ids = (await own.t.http.get('/api/v1/monitors?limit=500').set(bearer(key)).expect(200)).body as {
          items: { id: number }[];
          next_cursor: number;
        };
        expect(preloads).toEqual([
          '/api/v1/monitors?limit=500',
          `/api/v1/monitors?limit=500&before=${ids.next_cursor}`,
          '/api/v1/summary',
          '/api/v1/incidents?state=open&limit=100',
        ]);
        // The top of the list first, the rest in slices: the list is busy until the last.
        await page.locator('#shown', { hasText: '520 monitors' }).waitFor();
        await page.locator('#list[aria-busy="false"]').waitFor();
        expect(await page.locator('#list .mon').count()).toBe(520);
        // In the order of the groups and names (one group: by name, numbers as numbers). Text, not
        // innerText: rows off screen are not rendered (content-visibility), so they have none.
        const names = await page.locator('#list .mon .name > :first-child').allTextContents();
        expect(names.slice(0, 3)).toEqual(['job 0', 'job 1', 'job 2']);
        expect(names.slice(-2)).toEqual(['job 519', hostile]);
        expect(await page.locator('#list .mon .name img').count()).toBe(0);
        expect(await page.locator('#list .mon').last().locator('.pick').getAttribute('aria-label')).toBe(
          `Select ${hostile}`,
        );
        expect(await page.evaluate('window.__pwned')).toBeUndefined();
        // Each preload was the page's own request: none was asked for a second time.
        for (const url of preloads) expect([url, asked.filter((a) => a === url).length]).toEqual([url, 1]);
        expect(warnings.filter((w) => w.includes('preload'))).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    } finally {
      await own.t.close();
    }
  });

  it('shows a local target going down and coming back as it happens, without a reload', async () => {
    const cookie = await ownerSession(s);
    const write = await keyAt(s, 'write', 'live');
    const created = await s.t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({ name: 'Flip target', kind: 'http', confirm_after: 1, recover_after: 1, http: { url: target.url } })
      .expect(201);
    const id = created.body.id as number;
    const { context, page, errors } = await open(1280, { cookie });
    try {
      await page.goto(`${s.base}/?q=flip`);
      const row = page.locator(`.mon[data-id="${id}"]`);
      await row.waitFor();
      await page.locator('#live', { hasText: 'Live' }).waitFor();
      await page.evaluate('window.__loads = performance.getEntriesByType("navigation").length');

      target.status = 500;
      await s.t.http.post(`/api/v1/monitors/${id}/check`).set(bearer(write)).send({}).expect(200);
      await row.locator('.status.down').waitFor();
      // The row may go down from its re-read before the incident's event arrives.
      await page.locator('#incident-list li', { hasText: 'Flip target' }).waitFor();

      target.status = 200;
      await s.t.http.post(`/api/v1/monitors/${id}/check`).set(bearer(write)).send({}).expect(200);
      await row.locator('.status.up').waitFor();
      await page.locator('#incident-list li', { hasText: 'Flip target' }).waitFor({ state: 'detached' });
      // The same document all along: nothing was reloaded.
      expect(await page.evaluate('window.__loads')).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the monitor forms and page', () => {
  it('creates one monitor of each kind through the form, with inline errors and a test run first', async () => {
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/monitors/new`);
      await page.locator('#monitor-form:not([hidden])').waitFor();
      // Defaults come from GET /settings.
      expect(await page.getByLabel('Every (seconds)').inputValue()).toBe('60');
      expect(await page.getByLabel('Down after (failed checks in a row)').inputValue()).toBe('2');

      // Nothing filled in: the API's errors land next to the inputs they name.
      await page.getByRole('button', { name: 'Add the monitor' }).click();
      await page.locator('.field-error').first().waitFor();
      expect(await page.locator('#m-name').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#http-url').getAttribute('aria-invalid')).toBe('true');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'monitor-new-errors-1280');

      // HTTP: tested before saving (phases and the judgment), then saved.
      await page.getByLabel('URL', { exact: true }).fill(target.url);
      await page.locator('#m-name').fill('Web via form');
      await page.getByRole('button', { name: 'Test now' }).click();
      await page.locator('#test-result:not([hidden]) .judgment').waitFor();
      expect(await text(page, '#test-result')).toContain('Every condition passed.');
      expect(await text(page, '#test-result')).toContain('status 200');
      expect(await text(page, '#test-result')).toContain('Connect');
      await shot(page, 'monitor-new-tested-1280');
      await page.getByRole('button', { name: 'Add the monitor' }).click();
      await page.waitForURL(/\/monitors\/\d+$/);

      const port = new URL(target.url).port;
      const kinds: [string, Record<string, string>][] = [
        ['TCP', { '#tcp-host': '127.0.0.1', '#tcp-port': port }],
        ['Ping', { '#ping-host': '127.0.0.1' }],
        ['DNS', { '#dns-name': 'nas.home.lan', '#dns-resolver': '127.0.0.1:5353' }],
        ['TLS', { '#tls-host': '127.0.0.1' }],
      ];
      for (const [kind, fields] of kinds) {
        await page.goto(`${s.base}/monitors/new`);
        await page.locator('#monitor-form:not([hidden])').waitFor();
        await page.getByRole('radio', { name: new RegExp(`^${kind}`) }).check();
        for (const [sel, v] of Object.entries(fields)) await page.locator(sel).fill(v);
        await page.locator('#m-name').fill(`${kind} via form`);
        await page.getByRole('button', { name: 'Add the monitor' }).click();
        await page.waitForURL(/\/monitors\/\d+$/);
      }

      // Heartbeat: the secret URL is shown once, with snippets to paste.
      await page.goto(`${s.base}/monitors/new?kind=heartbeat`);
      await page.locator('#monitor-form:not([hidden])').waitFor();
      await page.locator('#m-name').fill('Backup via form');
      await page.getByLabel('Every (seconds)').fill('86400');
      await page.getByRole('button', { name: 'Add the monitor' }).click();
      await page.locator('#created:not([hidden])').waitFor();
      expect(await text(page, '#created')).toMatch(new RegExp(`${s.base}/hb/[A-Za-z0-9_-]+`));
      expect(await text(page, '#created')).toContain('crontab');
      expect(await text(page, '#created')).toContain('OnUnitActiveSec=86400s');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'monitor-heartbeat-url-390');

      const made = await s.t.http
        .get('/api/v1/monitors?q=via%20form')
        .set(bearer(await keyAt(s, 'read', 'check')))
        .expect(200);
      expect(made.body.items.map((m: { kind: string }) => m.kind).sort()).toEqual([
        'dns',
        'heartbeat',
        'http',
        'ping',
        'tcp',
        'tls',
      ]);
      expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('edits a monitor and keeps a secret header that was not retyped', async () => {
    const write = await keyAt(s, 'write', 'edit');
    const created = await s.t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({
        name: 'With a token',
        kind: 'http',
        http: { url: target.url, headers: [{ name: 'Authorization', value: 'Bearer sekrit', secret: true }] },
      })
      .expect(201);
    const { context, page } = await open(1280);
    try {
      await page.goto(`${s.base}/monitors/${created.body.id}/edit`);
      await page.locator('#monitor-form:not([hidden])').waitFor();
      expect(await page.locator('input[name="http.headers.0.value"]').inputValue()).toBe('********');
      await page.locator('#m-name').fill('With a token, renamed');
      await shot(page, 'monitor-edit-1280');
      await page.getByRole('button', { name: 'Save the changes' }).click();
      await page.waitForURL(`${s.base}/monitors/${created.body.id}`);
      const rows = (await s.t.db.query('SELECT name FROM monitors WHERE id = ?', [created.body.id])) as {
        name: string;
      }[];
      expect(rows[0].name).toBe('With a token, renamed');
      // The stored token still works: the check sends it (the target answers 200 either way, so ask the catalog).
      const answer = await s.t.http.get(`/api/v1/monitors/${created.body.id}`).set(bearer(write)).expect(200);
      expect(answer.body.http.headers).toEqual([{ name: 'Authorization', value: '********', secret: true }]);
      const exported = await s.t.http
        .get('/api/v1/export?secrets=1')
        .set(bearer(await keyAt(s, 'admin', 'export')))
        .expect(200);
      const mon = exported.body.monitors.find((x: { name: string }) => x.name === 'With a token, renamed');
      expect(mon.http.headers[0].value).toBe('Bearer sekrit');
    } finally {
      await context.close();
    }
  });

  it('shows a monitor: state, chart, calendar, checks; checks now, pauses, mutes and deletes it', async () => {
    const write = await keyAt(s, 'write', 'detail');
    const created = await s.t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({ name: 'Detail target', kind: 'http', group: 'Website', http: { url: target.url } })
      .expect(201);
    const id = created.body.id as number;
    for (let i = 0; i < 3; i++) {
      await s.t.http.post(`/api/v1/monitors/${id}/check`).set(bearer(write)).send({}).expect(200);
      s.t.clock.advance(60_000);
    }
    for (const width of [1280, 390]) {
      const { context, page, errors } = await open(width);
      try {
        await page.goto(`${s.base}/monitors/${id}`);
        await page.locator('#monitor:not([hidden])').waitFor();
        await page.locator('#checks-body tr').nth(2).waitFor();
        await page.locator('#chart svg path').first().waitFor();
        expect(await text(page, '#facts')).toContain('Up');
        expect(await seriousAxeFindings(page)).toEqual([]);
        if (width === 390) expect(await horizontalOverflow(page)).toBe(0);
        await shot(page, `monitor-page-${width}`);
        if (width === 1280) await docShot(page, 'monitor');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
    const { context, page } = await open(1280);
    try {
      await page.goto(`${s.base}/monitors/${id}`);
      await page.locator('#monitor:not([hidden])').waitFor();
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.locator('#check-result:not([hidden]) .judgment').waitFor();
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.locator('#facts .status.paused').waitFor();
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('button', { name: 'Mute alerts' }).click();
      await page.getByRole('button', { name: '8 hours' }).click();
      await page.getByRole('button', { name: 'Unmute' }).waitFor();
      expect(await text(page, '#facts')).toContain('Muted until');
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Delete this monitor?' }).getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(`${s.base}/`);
      await s.t.http.get(`/api/v1/monitors/${id}`).set(bearer(write)).expect(404);
    } finally {
      await context.close();
    }
  });
});

describe('incidents, channels and keys', () => {
  it('acknowledges an incident and leaves a note, seen in its timeline', async () => {
    const write = await keyAt(s, 'write', 'incident');
    const created = await s.t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({ name: 'Ack target', kind: 'http', confirm_after: 1, http: { url: target.url } })
      .expect(201);
    target.status = 503;
    await s.t.http.post(`/api/v1/monitors/${created.body.id}/check`).set(bearer(write)).send({}).expect(200);
    target.status = 200;
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/incidents?state=open`);
      await page.getByRole('link', { name: 'Ack target' }).click();
      await page.locator('#incident:not([hidden])').waitFor();
      expect(await text(page, '#timeline')).toContain('down');
      await page.getByLabel('Acknowledged: someone is on it').check();
      await page.getByLabel(/^Note/).fill('Router rebooting, back in 5 min');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('#ack-saved:not([hidden])').waitFor();
      await page.locator('#timeline li.tl-ack').waitFor();
      expect(await text(page, '#facts')).toContain('Router rebooting, back in 5 min');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'incident-1280');
      await docShot(page, 'incident');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'incident-390');
      await page.goto(`${s.base}/incidents`);
      await page.locator('#rows tr').first().waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'incidents-390');
      await page.setViewportSize({ width: 1280, height: 900 });
      await shot(page, 'incidents-1280');
      const stored = await s.t.http
        .get(`/api/v1/incidents?monitor_id=${created.body.id}`)
        .set(bearer(write))
        .expect(200);
      expect(stored.body.items[0].note).toBe('Router rebooting, back in 5 min');
      expect(stored.body.items[0].acknowledged_at).not.toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('adds a webhook channel, sends a test that the receiver gets signed, and shows the delivery', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/channels`);
      await page.locator('#loading').waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Add a channel' }).click();
      await page.getByRole('radio', { name: /^Webhook/ }).check();
      await page.getByLabel('Name', { exact: true }).fill('Home automation');
      await page.getByLabel('Receiver URL').fill('ftp://nope');
      await page.getByLabel('Signing secret').fill('a-signing-secret-of-some-length');
      await page.getByRole('button', { name: 'Add the channel' }).click();
      await page.locator('.field-error').first().waitFor();
      expect(await page.getByLabel('Receiver URL').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Receiver URL').fill(url);
      await page.getByRole('button', { name: 'Add the channel' }).click();
      await page.locator('.channel h3', { hasText: 'Home automation' }).waitFor();
      await page.getByRole('button', { name: 'Send a test: Home automation' }).click();
      await page.locator('.test-answer.ok-text').waitFor();
      expect(await text(page, '.test-answer')).toContain('Delivered');
      await page.locator('#log tr', { hasText: 'Home automation' }).waitFor();
      expect(received).toHaveLength(1);
      expect(received[0].headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'channels-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'channels-390');
      expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
    } finally {
      await context.close();
      await new Promise((r) => receiver.close(r));
    }
  });

  it('creates an API key shown once, which works, and revokes it', async () => {
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/keys`);
      await page.locator('#loading').waitFor({ state: 'hidden' });
      await page.getByLabel('Name').fill('grafana');
      await page.getByLabel('Scope').selectOption('read');
      await page.getByRole('button', { name: 'Create the key' }).click();
      await page.locator('#new-key:not([hidden])').waitFor();
      const key = await page.locator('#nk-value').innerText();
      expect(key).toMatch(/^fs_[0-9a-f]{48}$/);
      await s.t.http.get('/api/v1/summary').set(bearer(key)).expect(200);
      await shot(page, 'keys-new-1280');
      await page.getByRole('button', { name: 'I have copied it' }).click();
      expect(await page.locator('#nk-value').innerText()).toBe('');
      expect(await seriousAxeFindings(page)).toEqual([]);
      // The page's own dialog asks (not the browser's confirm()).
      await page.getByRole('button', { name: 'Revoke grafana' }).click();
      await page
        .getByRole('dialog', { name: 'Revoke the key "grafana"?' })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await page.getByRole('button', { name: 'Revoke grafana' }).waitFor({ state: 'detached' });
      await s.t.http.get('/api/v1/summary').set(bearer(key)).expect(401);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'keys-390');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('security, settings, timeline and diagnostics', () => {
  it('adds a passkey, renames it, confirms a removal with it, makes recovery codes and ends another session', async () => {
    const cookie = await ownerSession(s);
    const other = await ownerSession(s);
    // Just these two sessions (earlier tests left theirs).
    await s.t.db.query('DELETE FROM sessions WHERE token_hash NOT IN (?, ?)', [sha256(cookie), sha256(other)]);
    const { context, page, errors } = await open(1280, { cookie });
    await virtualAuthenticator(context, page);
    try {
      await page.goto(`${s.base}/security`);
      await page.locator('#security:not([hidden])').waitFor();
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByLabel('Name for the new passkey').fill('Laptop');
      await page.getByRole('button', { name: 'Create the passkey' }).click();
      await page.getByRole('button', { name: 'Rename Laptop' }).click();
      await page.getByLabel('New name for Laptop').fill('Work laptop');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: 'Remove Work laptop' }).waitFor();

      page.once('dialog', (d) => d.accept());
      await page.getByRole('button', { name: 'Make 10 new codes' }).click();
      await page.locator('#rc-codes li').nth(9).waitFor();

      expect(await text(page, '#sessions')).toContain('this browser');
      expect(await page.locator('#sessions li').count()).toBe(2);
      await page.getByRole('button', { name: /^Sign out .*127\.0\.0\.1/ }).click();
      await page.locator('#sessions li').nth(1).waitFor({ state: 'detached' });
      expect(await s.t.db.query('SELECT id FROM sessions WHERE token_hash = ?', [sha256(other)])).toEqual([]);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'security-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'security-390');
      await page.setViewportSize({ width: 1280, height: 900 });

      // 13 hours later, removing the passkey asks to confirm: with the passkey itself.
      s.t.clock.advance(13 * 3600_000);
      page.once('dialog', (d) => d.accept());
      await page.getByRole('button', { name: 'Remove Work laptop' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
      await dialog.getByRole('button', { name: 'Confirm with a passkey' }).click();
      await page.getByRole('button', { name: 'Remove Work laptop' }).waitFor({ state: 'detached' });
      expect(await s.t.db.query("SELECT id FROM passkeys WHERE label = 'Work laptop'")).toEqual([]);
      expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('changes a setting, says why a value is refused, and shows the timeline and diagnostics', async () => {
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/settings`);
      await page.locator('#settings-form:not([hidden])').waitFor();
      await page.getByLabel('Hourly figures (days)').fill('10');
      await page.getByLabel('Check every (seconds)').fill('120');
      await page.getByRole('button', { name: 'Save the settings' }).click();
      await page.locator('.field-error').first().waitFor();
      expect(await page.getByLabel('Hourly figures (days)').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Hourly figures (days)').fill('60');
      await page.getByLabel('Anyone may read /metrics without a key').check();
      await page.getByLabel('Ping URL (secret)').fill('https://hc-ping.com/5bf66975-d4c7-4bf5-bcc8-b8d8a82ea278');
      await page.getByRole('button', { name: 'Save the settings' }).click();
      await page.locator('#saved:not([hidden])').waitFor();
      const settings = await s.t.http
        .get('/api/v1/settings')
        .set(bearer(await keyAt(s, 'read', 'settings')))
        .expect(200);
      expect(settings.body.defaults.interval_s).toBe(120);
      expect(settings.body.retention.hourly_days).toBe(60);
      expect(settings.body.metrics_public).toBe(true);
      expect(settings.body.watchdog).toEqual({ url: '********', interval_s: 60 });
      expect(await page.getByLabel('Ping URL (secret)').inputValue()).toBe('********');
      await s.t.http.get('/metrics').expect(200);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'settings-1280');

      await page.goto(`${s.base}/timeline`);
      await page.locator('#lines li').first().waitFor();
      await page.getByRole('checkbox', { name: 'Settings changed' }).check();
      // The unfiltered list already holds the settings change just made: wait for the filtered one.
      // A function, not a string: the page's CSP forbids eval, which a string predicate needs once it polls.
      await page.waitForFunction(() => {
        const lines = [...(globalThis as unknown as PageGlobals).document.querySelectorAll('#lines li')];
        return lines.length > 0 && lines.every((li) => li.classList.contains('tl-settings_changed'));
      });
      expect(page.url()).toContain('kind=settings_changed');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'timeline-1280');

      // An answer that comes back after a newer request's answer is not drawn: the unfiltered first
      // page is held back until the filtered one is on screen, and must not replace it.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route(/\/api\/v1\/events\?/, async (route) => {
        if (!route.request().url().includes('kind=')) await held;
        await route.continue();
      });
      const unfiltered = (u: string) => u.includes('/api/v1/events?') && !u.includes('kind=');
      const asked = page.waitForRequest((r) => unfiltered(r.url()));
      await page.goto(`${s.base}/timeline`);
      await asked;
      await page.getByRole('checkbox', { name: 'Settings changed' }).check();
      await page.locator('#lines li.tl-settings_changed').first().waitFor();
      const stale = page.waitForEvent('requestfinished', (r) => unfiltered(r.url()));
      release();
      await stale;
      expect(
        await withApi(
          page,
          `(m) => { const g = m.newestOnly(); const a = g('events?limit=1'); const b = g('events?limit=2'); return Promise.all([a, b]).then(([x, y]) => [x, y.items.length <= 2]); }`,
        ),
      ).toEqual([null, true]);
      expect(await page.locator('#lines li:not(.tl-settings_changed)').count()).toBe(0);
      await page.unroute(/\/api\/v1\/events\?/);

      await page.goto(`${s.base}/diagnostics`);
      await page.locator('#diag:not([hidden])').waitFor();
      expect((await text(page, '#sections')).toLowerCase()).toContain('checks a minute');
      // The watchdog set above: shown with its interval, never its URL (no ping yet: manual timers).
      expect(await text(page, '#d-watchdog + dl')).toContain('60 s');
      expect(await text(page, '#sections')).not.toContain('hc-ping');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'diagnostics-1280');
      for (const path of ['settings', 'timeline', 'diagnostics']) {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${s.base}/${path}`);
        await page.locator('#loading').waitFor({ state: 'hidden' });
        expect(await horizontalOverflow(page)).toBe(0);
        await shot(page, `${path}-390`);
      }
      expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the status page editor', () => {
  it('previews a change before saving it, orders the services, saves, and makes the icon from an uploaded logo', async () => {
    const write = await keyAt(s, 'write', 'page');
    for (const name of ['Public web', 'Public mail']) {
      await s.t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send({ name, kind: 'http', group: 'Public', http: { url: target.url } })
        .expect(201);
    }
    const logo = path.join(ARTIFACTS, 'logo.svg');
    fs.writeFileSync(
      logo,
      '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80"><rect width="240" height="80" rx="16" fill="#0f766e"/><circle cx="40" cy="40" r="22" fill="#fff"/></svg>',
    );
    const { context, page, errors } = await open(1440);
    try {
      await page.goto(`${s.base}/status-page`);
      await page.locator('#editor:not([hidden])').waitFor();
      const frame = page.frameLocator('#preview');
      await frame.locator('body').waitFor();

      await page.getByLabel('Title').fill('Acme services');
      await frame.getByText('Acme services').first().waitFor();
      await page.getByRole('checkbox', { name: 'Public mail' }).check();
      await page.getByRole('checkbox', { name: 'Public web' }).check();
      await frame.getByText('Public mail').first().waitFor();
      await page.getByRole('button', { name: 'Move Public web up' }).click();
      // A real drag by the handle (pointer events: mouse here, a finger on a phone): Public mail
      // taken above Public web.
      const row = (name: string) => page.locator('#pub-list li', { has: page.getByRole('checkbox', { name }) });
      const publicOrder = async () =>
        (await page.locator('#pub-list li label.check').allTextContents())
          .map((t) => t.trim())
          .filter((t) => t.startsWith('Public'));
      expect(await publicOrder()).toEqual(['Public web', 'Public mail']);
      const from = await row('Public mail').locator('.handle').boundingBox();
      const over = await row('Public web').boundingBox();
      if (!from || !over) throw new Error('the rows are not on screen');
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, over.y + over.height * 0.25, { steps: 10 });
      expect(await page.locator('#pub-list li.dragging').count()).toBe(1);
      await row('Public mail').screenshot({ path: path.join(ARTIFACTS, 'status-page-dragging.png') });
      await page.mouse.up();
      expect(await publicOrder()).toEqual(['Public mail', 'Public web']);
      expect(await page.locator('#pub-list li.dragging').count()).toBe(0);
      await page.getByLabel('Layout').selectOption('ledger');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save the status page' }).click();
      await page.locator('#saved:not([hidden])').waitFor();
      const saved = await s.t.http.get('/api/v1/status-page').set(bearer(write)).expect(200);
      expect(saved.body.title).toBe('Acme services');
      expect(saved.body.layout).toBe('ledger');
      // In the page's order: by sort, then by name (a save sends the order only when it changed).
      const names = new Map<number, string>(
        (await s.t.http.get('/api/v1/monitors?q=public').set(bearer(write))).body.items.map(
          (m: { id: number; name: string }) => [m.id, m.name],
        ),
      );
      const pub = saved.body.monitors
        .filter((m: { public: boolean }) => m.public)
        .sort(
          (a: { id: number; sort: number }, b: { id: number; sort: number }) =>
            a.sort - b.sort || names.get(a.id)!.localeCompare(names.get(b.id)!),
        );
      expect(pub.map((m: { id: number }) => names.get(m.id))).toEqual(['Public mail', 'Public web']);

      await page.getByLabel(/^Upload a logo/).setInputFiles(logo);
      await page.locator('#logo-ok:not([hidden])').waitFor();
      await page.getByRole('button', { name: 'Make the home-screen icon from the logo' }).click();
      await page.locator('#logo-ok', { hasText: 'home-screen icon is saved' }).waitFor();
      const withIcon = await s.t.http.get('/api/v1/status-page').set(bearer(write)).expect(200);
      expect(withIcon.body.logo.icon).not.toBeNull();
      await shot(page, 'status-page-editor-1440');
      await page.locator('#sp-title').scrollIntoViewIfNeeded();
      await docShot(page, 'status-page');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'status-page-editor-390');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('bulk changes', () => {
  it('pauses and resumes several monitors picked in the overview', async () => {
    const write = await keyAt(s, 'write', 'bulk');
    const ids: number[] = [];
    // Enough that the action runs several requests at once (six after the first).
    const names = ['Bulk one', 'Bulk two', 'Bulk three', ...Array.from({ length: 9 }, (_, i) => `Bulk extra ${i + 1}`)];
    for (const name of names) {
      ids.push(
        (
          await s.t.http
            .post('/api/v1/monitors')
            .set(bearer(write))
            .send({ name, kind: 'tcp', tcp: { host: '127.0.0.1', port: 9 } })
            .expect(201)
        ).body.id,
      );
    }
    const three = ids[2];
    const paused = async () =>
      (await s.t.http.get('/api/v1/monitors?q=bulk&limit=100').set(bearer(write)).expect(200)).body.items
        .filter((m: { paused: boolean }) => m.paused)
        .map((m: { id: number }) => m.id)
        .sort((a: number, b: number) => a - b);
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/?q=bulk`);
      await page
        .locator('#list .mon')
        .nth(names.length - 1)
        .waitFor();
      await page.getByLabel('Select all shown').check();
      await page.getByLabel('Select Bulk three').uncheck();
      expect(await text(page, '#bulk-count')).toBe('11 monitors selected');
      await page.getByRole('region', { name: 'Selected monitors' }).getByRole('button', { name: 'Pause' }).click();
      await page.locator('#bulk-result', { hasText: 'Done: 11 monitors.' }).waitFor();
      expect(await paused()).toEqual(ids.filter((id) => id !== three).sort((a, b) => a - b));
      for (const id of ids.filter((x) => x !== three))
        await page.locator(`.mon[data-id="${id}"] .status.paused`).waitFor();
      expect(await page.locator(`.mon[data-id="${three}"] .status.paused`).count()).toBe(0);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'overview-bulk-1280');

      await page.getByLabel('Select all shown').check();
      expect(await text(page, '#bulk-count')).toBe('12 monitors selected');
      await page.getByRole('region', { name: 'Selected monitors' }).getByRole('button', { name: 'Resume' }).click();
      await page.locator('#bulk-result', { hasText: 'Done: 12 monitors.' }).waitFor();
      expect(await paused()).toEqual([]);
      for (const id of ids) await page.locator(`.mon[data-id="${id}"] .status:not(.paused)`).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('exports to a file, and imports one after showing what it would do', async () => {
    const { context, page, errors } = await open(1280);
    try {
      await page.goto(`${s.base}/settings`);
      await page.locator('#transfer:not([hidden])').waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the export' }).click(),
      ]);
      const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
      expect(exported.service_export).toBe(1);
      expect(exported.monitors.map((m: { slug: string }) => m.slug)).toEqual(
        expect.arrayContaining(['bulk-one', 'bulk-two', 'bulk-three']),
      );

      const file = path.join(ARTIFACTS, 'import.json');
      const doc = {
        service_export: 1,
        monitors: [
          { name: 'Imported NAS', slug: 'imported-nas', kind: 'ping', ping: { host: '127.0.0.1' } },
          { name: 'Broken', slug: 'broken', kind: 'tcp', tcp: { host: '127.0.0.1', port: 70000 } },
        ],
        channels: [],
        status_page: {},
      };
      fs.writeFileSync(file, JSON.stringify(doc));
      await page.getByLabel('Import a file').setInputFiles(file);
      await page.locator('#x-plan:not([hidden])').waitFor();
      expect(await text(page, '#x-plan')).toContain('tcp.port');
      expect(await page.getByRole('button', { name: 'Apply the import' }).isVisible()).toBe(false);
      await shot(page, 'import-errors-1280');

      fs.writeFileSync(file, JSON.stringify({ ...doc, monitors: [doc.monitors[0]] }));
      await page.getByLabel('Import a file').setInputFiles(file);
      await page.getByRole('heading', { name: 'What importing import.json would do' }).waitFor();
      expect(await text(page, '#x-plan')).toContain('Created: 1 imported-nas');
      await s.t.http
        .get('/api/v1/monitors/slug:imported-nas')
        .set(bearer(await keyAt(s, 'read', 'imp')))
        .expect(404);
      await page.getByRole('button', { name: 'Apply the import' }).click();
      await page.locator('#x-done:not([hidden])').waitFor();
      expect(await text(page, '#x-done')).toContain('1 monitors created');
      await s.t.http
        .get('/api/v1/monitors/slug:imported-nas')
        .set(bearer(await keyAt(s, 'read', 'imp2')))
        .expect(200);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the shell', () => {
  beforeAll(async () => {
    const write = await keyAt(s, 'write', 'shell');
    await s.t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({ name: 'Shell fixture', kind: 'ping', ping: { host: '127.0.0.1' } })
      .expect(201);
  });

  it('asks for a fresh sign-in when an action needs one, then repeats the action', async () => {
    const cookie = await ownerSession(s);
    const write = await keyAt(s, 'write', 'step');
    const created = await s.t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({ name: 'To delete', kind: 'tcp', tcp: { host: '127.0.0.1', port: 9 } })
      .expect(201);
    // The session is older than 12 hours: deleting a monitor asks to confirm.
    s.t.clock.advance(13 * 3600_000);
    const { context, page, errors } = await open(1280, { cookie });
    try {
      await page.goto(`${s.base}/`);
      await page.locator('#list .mon').first().waitFor();
      const result = withApi(
        page,
        `(m) => m.del('monitors/${created.body.id}').then(() => 'deleted', (e) => 'failed: ' + e.code)`,
      );
      const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
      await Promise.race([
        dialog.waitFor(),
        result.then((r) => {
          throw new Error(`no dialog: ${r} ${errors}`);
        }),
      ]);
      await dialog.getByLabel('Password').fill(OWNER.password);
      await dialog.getByLabel('Authenticator code').fill('000000');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await dialog.locator('.form-error', { hasText: 'Wrong password or code.' }).waitFor();
      s.t.clock.advance(30_000);
      await dialog.getByLabel('Authenticator code').fill(totpAt(owner.secret, s.t.clock.now()));
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      expect(await result).toBe('deleted');
      await s.t.http.get(`/api/v1/monitors/${created.body.id}`).set(bearer(write)).expect(404);
      expect(await dialog.isVisible()).toBe(false);
      expect(errors.filter((e) => !e.includes('403') && !e.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the page when the session ends: signs in again in a dialog and repeats the request', async () => {
    const cookie = await ownerSession(s);
    const { context, page, errors } = await open(1280, { cookie });
    try {
      await page.goto(`${s.base}/`);
      await page.getByLabel('Search').fill('kept while signed out');
      await context.clearCookies();
      const result = withApi(
        page,
        `(m) => m.get('summary').then((r) => typeof r.counts.total, (e) => 'failed: ' + e.code)`,
      );
      const dialog = page.getByRole('dialog', { name: 'You were signed out' });
      await dialog.waitFor();
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'dialog-signed-out-1280');
      await dialog.getByLabel('Email').fill(OWNER.email);
      await dialog.getByLabel('Password').fill(OWNER.password);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      s.t.clock.advance(30_000);
      await dialog.getByLabel('Authenticator code').fill(totpAt(owner.secret, s.t.clock.now()));
      await dialog.getByRole('button', { name: 'Continue' }).click();
      expect(await result).toBe('number');
      expect(await page.getByLabel('Search').inputValue()).toBe('kept while signed out');
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the offline banner while the service cannot be reached, and carries on when it can', async () => {
    const { context, page } = await open(390);
    try {
      await page.goto(`${s.base}/`);
      await page.locator('#list .mon').first().waitFor();
      await withApi(page, '() => null');
      await context.setOffline(true);
      const result = withApi(page, `(m) => m.get('summary').then((r) => typeof r.counts.total)`);
      await page.locator('#offline:not([hidden])').waitFor();
      expect(await text(page, '#offline')).toContain('Farsight cannot be reached');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await shot(page, 'offline-390');
      // Retrying while still offline keeps the banner (and the request) waiting.
      await page.getByRole('button', { name: 'Retry now' }).click();
      await page.locator('#offline-text', { hasText: 'Trying again in 2 s' }).waitFor();
      await context.setOffline(false);
      expect(await result).toBe('number');
      await page.locator('#offline').waitFor({ state: 'hidden' });
    } finally {
      await context.close();
    }
  });

  it('installs: a manifest with icons, a service worker that keeps the shell only, an offline page', async () => {
    const { context, page } = await open(1280);
    try {
      await page.goto(`${s.base}/`);
      await page.locator('#list .mon').first().waitFor();
      const manifest = await (await page.request.get(`${s.base}/dashboard/manifest.webmanifest`)).json();
      expect(manifest).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
      for (const icon of manifest.icons)
        expect((await page.request.get(`${s.base}${icon.src}`)).headers()['content-type']).toBe('image/png');
      // The worker is registered once the page's first requests are answered and quiet for a second.
      expect(await page.evaluate('navigator.serviceWorker.ready.then((r) => r.scope)')).toBe(`${s.base}/`);
      // Installed: the shell is in the cache once the worker is active.
      await page.waitForFunction(() => {
        const workers = (globalThis as unknown as PageGlobals).navigator.serviceWorker;
        return (
          workers.controller !== null || workers.ready.then((r) => r.active !== null && r.active.state === 'activated')
        );
      });
      const cached = (await page.evaluate(
        `caches.keys().then((ks) => Promise.all(ks.map((k) => caches.open(k).then((c) => c.keys())))).then((ls) => ls.flat().map((r) => new URL(r.url).pathname))`,
      )) as string[];
      expect(cached).toContain('/offline');
      expect(cached).toContain('/dashboard/assets/app.css');
      expect(cached.filter((p) => p.startsWith('/api/') || p === '/')).toEqual([]);
      await context.setOffline(true);
      await page.goto(`${s.base}/incidents`).catch(() => undefined);
      await page.getByRole('heading', { name: 'Farsight cannot be reached' }).waitFor();
      await context.setOffline(false);
    } finally {
      await context.close();
    }
  });

  it('opens the navigation from the menu button on a phone, and closes it with Escape', async () => {
    const { context, page } = await open(360);
    try {
      await page.goto(`${s.base}/`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).focus();
      await page.keyboard.press('Enter');
      await nav.waitFor();
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Overview');
      await shot(page, 'nav-open-360');
      await page.keyboard.press('Escape');
      await nav.waitFor({ state: 'hidden' });
      expect(await horizontalOverflow(page)).toBe(0);
    } finally {
      await context.close();
    }
  });
});
