/**
 * The status page as visitors see it, in Debian's Chromium (scripts/test-deps.sh installs it):
 * every layout in light and dark, with both palettes, on a 390 px phone and a wide desktop;
 * axe-core finds no serious or critical problem; nothing is wider than the screen; ranges switch
 * as plain links without JavaScript and in place with it; times move to the visitor's zone; no
 * request ever leaves 127.0.0.1. Screenshots go to test/artifacts/status/ (git-ignored).
 */
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { seedStatusPage } from './seed';

const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'status');
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const LAYOUTS = ['horizon', 'classic', 'ledger'] as const;
const THEMES = ['light', 'dark'] as const;
const PALETTES = ['standard', 'colorblind'] as const;

interface AxeResults {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
}

let t: TestApp;
let base: string;
let key: string;
let browser: Browser;
/** Every URL the browser asked for, across all pages. */
const requested: string[] = [];

async function put(settings: Record<string, unknown>): Promise<void> {
  await t.http.put('/api/v1/status-page').set(bearer(key)).send(settings).expect(200);
}

async function open(ctx: BrowserContext, url: string): Promise<Page> {
  const page = await ctx.newPage();
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  await page.evaluate('document.fonts.ready');
  return page;
}

async function serious(page: Page): Promise<string[]> {
  // Through the DevTools protocol: the page's CSP (rightly) refuses an injected <script>.
  await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('Chromium is missing: run scripts/test-deps.sh (apt-get install chromium)');
  t = await startApp({}, { clock: undefined });
  const { cookie } = await createOwner(t);
  key = await createKey(t, cookie, 'admin');
  await seedStatusPage(t, bearer(key));
  await put({
    title: 'Harbour Lab',
    description: 'Services of the Harbour family homelab. Planned work is announced a day ahead on the blog.',
    website: { label: 'Blog', url: 'https://blog.harbour.example' },
    links: [{ label: 'Contact', url: 'mailto:ops@harbour.example' }],
  });
  await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
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
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.each(LAYOUTS)('the %s layout', (layout) => {
  it.each(THEMES.flatMap((theme) => PALETTES.map((palette) => [theme, palette] as const)))(
    'in %s with the %s palette: no serious axe finding, fits a phone and a desktop',
    async (theme, palette) => {
      await put({ layout, theme, palette, bar_style: palette === 'colorblind' ? 'share' : 'worst' });
      for (const width of [390, 1280]) {
        const ctx = await browser.newContext({
          viewport: { width, height: width < 500 ? 844 : 900 },
          deviceScaleFactor: 1,
          timezoneId: 'Europe/Berlin',
          locale: 'en-GB',
        });
        try {
          // The palette only recolours the bars: its other pages are the standard palette's. The
          // service page and the history are narrow columns: the phone is where they can break.
          for (const route of palette === 'standard' && width < 500
            ? ['/status', '/status/nextcloud', '/status/history']
            : ['/status']) {
            const page = await open(ctx, `${base}${route}`);
            expect([layout, theme, palette, width, route, await serious(page)]).toEqual([
              layout,
              theme,
              palette,
              width,
              route,
              [],
            ]);
            const scroll = (await page.evaluate('document.documentElement.scrollWidth')) as number;
            expect([route, width, scroll]).toEqual([route, width, Math.min(scroll, width)]);
            const shot = `${layout}-${theme}-${palette}-${width}${route === '/status' ? '' : route.replace(/\//g, '-')}.png`;
            await page.screenshot({ path: path.join(ARTIFACTS, shot), fullPage: true });
            await page.close();
          }
        } finally {
          await ctx.close();
        }
      }
    },
    120_000,
  );
});

describe('the screenshots of the docs', () => {
  // Kept in docs/images/status-*.png (copied from test/artifacts/status/docs-*.png by hand after a look).
  it.each([
    ['horizon', 'light', 1280, 860],
    ['classic', 'light', 1280, 860],
    ['ledger', 'light', 1280, 860],
    ['horizon', 'dark', 390, 844],
    ['ledger', 'dark', 390, 844],
  ] as const)('draws %s in %s at %i px', async (layout, theme, width, height) => {
    await put({ layout, theme, palette: 'standard', bar_style: 'worst', fold_groups: true });
    const ctx = await browser.newContext({
      viewport: { width, height },
      deviceScaleFactor: 1,
      timezoneId: 'Europe/Berlin',
      locale: 'en-GB',
    });
    try {
      const page = await open(ctx, `${base}/status`);
      await page.screenshot({ path: path.join(ARTIFACTS, `docs-${layout}-${theme}-${width}.png`) });
    } finally {
      await ctx.close();
    }
  });
});

describe('other looks', () => {
  // Every key that changes the look, in combinations a real owner would pick, with a logo.
  const looks: [string, Record<string, unknown>][] = [
    [
      'horizon-teal-plex-slim',
      {
        layout: 'horizon',
        theme: 'light',
        palette: 'standard',
        accent: '#0f766e',
        font: 'plex',
        bar_shape: 'slim',
        bar_style: 'share',
        fold_groups: false,
        auto_refresh: true,
      },
    ],
    [
      'classic-square-system',
      {
        layout: 'classic',
        theme: 'dark',
        accent: '#e11d48',
        font: 'system',
        bar_shape: 'square',
        bar_style: 'worst',
        show_summary: false,
        show_uptime: false,
      },
    ],
    [
      'ledger-amber-24h',
      {
        layout: 'ledger',
        theme: 'light',
        accent: '#f59e0b',
        font: 'geist',
        bar_shape: 'rounded',
        show_response: false,
        default_range: '24h',
      },
    ],
  ];

  beforeAll(async () => {
    const logo = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 180 32"><rect width="32" height="32" rx="8" fill="#0f766e"/><path d="M8 20l6-8 5 6 5-9" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><text x="42" y="23" font-family="sans-serif" font-size="17" font-weight="700" fill="#0f766e">Harbour Lab</text></svg>',
    );
    await t.http
      .put('/api/v1/status-page/logo')
      .set(bearer(key))
      .set('Content-Type', 'image/svg+xml')
      .send(logo)
      .expect(200);
  });
  afterAll(async () => {
    await t.http.delete('/api/v1/status-page/logo').set(bearer(key)).expect(200);
    await put({
      accent: '#564be6',
      font: 'geist',
      bar_shape: 'rounded',
      bar_style: 'worst',
      fold_groups: true,
      auto_refresh: false,
      show_summary: true,
      show_uptime: true,
      show_response: true,
      default_range: '90d',
    });
  });

  it.each(looks)(
    '%s: no serious axe finding, fits a phone and a desktop',
    async (name, look) => {
      await put(look);
      for (const width of [390, 1280]) {
        const ctx = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme: 'light',
          deviceScaleFactor: 1,
          timezoneId: 'Europe/Berlin',
          locale: 'en-GB',
        });
        try {
          const page = await open(ctx, `${base}/status`);
          expect([name, width, await serious(page)]).toEqual([name, width, []]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
          // The logo is drawn, at the header's height (an SVG with only a viewBox has no width of its own).
          expect(await page.evaluate("document.querySelector('.brand img').getBoundingClientRect().height")).toBe(36);
          expect(
            await page.evaluate("document.querySelector('.brand img').getBoundingClientRect().width"),
          ).toBeGreaterThan(150);
          await page.screenshot({ path: path.join(ARTIFACTS, `look-${name}-${width}.png`), fullPage: true });
        } finally {
          await ctx.close();
        }
      }
    },
    120_000,
  );
});

describe('ranges', () => {
  beforeAll(async () => put({ layout: 'horizon', theme: 'light', palette: 'standard', default_range: '90d' }));

  const barCount = (page: Page) =>
    page.evaluate("document.querySelector('.svc .bars').children.length") as Promise<number>;
  /** waitForFunction with a function, not a string: the page's CSP (rightly) forbids eval. */
  type Doc = { document: { querySelector(s: string): { children: { length: number }; textContent: string } | null } };
  const barsAre = (page: Page, n: number) =>
    page.waitForFunction(
      (count) => (globalThis as unknown as Doc).document.querySelector('.svc .bars')?.children.length === count,
      n,
    );

  it('work as plain links without JavaScript', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      const page = await open(ctx, `${base}/status`);
      expect(await barCount(page)).toBe(90);
      await Promise.all([page.waitForURL(/range=24h/), page.click('.tabs a:text-is("24 hours")')]);
      expect(await barCount(page)).toBe(24);
      expect(await page.getAttribute('.tabs a[aria-current]', 'href')).toBe('?range=24h');
      // The page's own zone (UTC here) without the script.
      expect(await page.textContent('.zone')).toBe('UTC');
    } finally {
      await ctx.close();
    }
  });

  it("switch in place with JavaScript, and moments show in the visitor's zone", async () => {
    const ctx = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: 'Asia/Tokyo',
      locale: 'en-US',
    });
    try {
      const page = await open(ctx, `${base}/status`);
      await page.evaluate('window.__same = true');
      await page.click('.tabs a:text-is("7 days")');
      await barsAre(page, 28);
      expect(await page.evaluate('window.__same')).toBe(true); // no navigation happened
      expect(page.url()).toBe(`${base}/status?range=7d`);
      expect(await page.getAttribute('.tabs a[aria-current]', 'href')).toBe('?range=7d');
      // 1 Nov 2026, 12:00 UTC is 21:00 in Tokyo.
      expect(await page.textContent('.site-foot time')).toMatch(/09:00\sPM/);
      expect(await page.textContent('.zone')).toContain('Asia/Tokyo');
      // A bar names its period (blocks in the visitor's zone: 12:00-18:00 UTC is 21:00-03:00 in Tokyo) and what happened.
      await page.hover('.svc .bars .b:last-child');
      expect(await page.isVisible('.tip')).toBe(true);
      expect(await page.textContent('.tip')).toMatch(/^Sun, Nov 1, 09:00\sPM-03:00\sAM: no data$/);
      await page.screenshot({
        path: path.join(ARTIFACTS, 'tooltip-7d.png'),
        clip: { x: 600, y: 560, width: 680, height: 340 },
      });
      await page.goBack();
      await barsAre(page, 90);
      await page.hover('.svc .bars .b:nth-child(60)');
      expect(await page.textContent('.tip')).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [A-Z][a-z]+ \d+, 2026: /);
      await page.click('.tabs a:text-is("12 months")');
      await barsAre(page, 12);
    } finally {
      await ctx.close();
    }
  });

  it('keeps the page and says offline when a refresh fails', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await open(ctx, `${base}/status`);
      const thirty = (u: URL) => u.search === '?range=30d';
      await ctx.route(thirty, (route) => route.abort('internetdisconnected'));
      await page.click('.tabs a:text-is("30 days")');
      await page.waitForFunction(
        () => ((globalThis as unknown as Doc).document.querySelector('.offline')?.textContent ?? '').length > 0,
      );
      expect(await page.textContent('.offline')).toContain('Offline');
      expect(await barCount(page)).toBe(90);
      await ctx.unroute(thirty);
      await page.click('.tabs a:text-is("30 days")');
      await barsAre(page, 30);
      expect(await page.textContent('.offline')).toBe('');
    } finally {
      await ctx.close();
    }
  });
});

describe('requests', () => {
  it('never leave 127.0.0.1', () => {
    expect(requested.length).toBeGreaterThan(50);
    const elsewhere = requested.filter((u) => !u.startsWith(`${base}/`) && !u.startsWith('data:'));
    expect(elsewhere).toEqual([]);
  });
});
