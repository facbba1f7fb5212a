/**
 * Uptime without maintenance time, on the real app with the fake clock (docs/maintenance.md,
 * "Uptime"): a window holds a monitor that is Down through it; the stats, series, uptime days,
 * the badge and the status page (JSON and, in Debian's Chromium, the HTML with axe) give the
 * uptime of the time outside the window, the same figure as a brute force over the stored checks,
 * and the hours in maintenance have the maintenance colour and words (the day, mostly in it but
 * with minutes down beside it, stays bad: an outage is not hidden by a window). Screenshots go to
 * test/artifacts/maintenance/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { freePort } from '../../harness/paths';
import { SessionsService } from '../../src/auth/sessions/sessions.service';
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';

const CHROMIUM =
  process.env.FARSIGHT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'maintenance');
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const MIN = 60_000;
const HOUR = 60 * MIN;
const TIMEOUT_MS = 5_000;

interface Check {
  at_ms: number;
  outcome: string;
  maintenance_window_id: number | null;
}

/** Uptime as the spec defines it, from the checks alone: each outcome holds until the next check, at most interval + timeout. */
function bruteForce(checks: Check[], now: number): { uptime: number | null; maintMs: number } {
  const sorted = [...checks].sort((a, b) => a.at_ms - b.at_ms);
  let up = 0;
  let down = 0;
  let maint = 0;
  for (const [i, c] of sorted.entries()) {
    const next = sorted[i + 1]?.at_ms ?? now;
    const ms = Math.min(next, c.at_ms + MIN + TIMEOUT_MS) - c.at_ms;
    if (c.maintenance_window_id !== null) maint += ms;
    else if (c.outcome === 'down') down += ms;
    else if (c.outcome !== 'unknown') up += ms;
  }
  return { uptime: up + down === 0 ? null : Math.round((up / (up + down)) * 100_000) / 1000, maintMs: maint };
}

describe('uptime leaves maintenance out', () => {
  let h: EngineHarness;
  let admin: string;
  let browser: Browser;
  let base: string;
  let nas: number;
  let windowId: number;
  let checks: Check[];
  const api = () => h.t.http;
  const get = async (url: string) => (await api().get(url).set(bearer(admin)).expect(200)).body;
  const advanceTo = async (iso: string) => {
    while (h.t.clock.now() < Date.parse(iso)) {
      await h.advance(Math.min(MIN, Date.parse(iso) - h.t.clock.now()));
      await h.writer.flush();
    }
  };

  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('Chromium is missing: run scripts/test-deps.sh (apt-get install chromium)');
    // Sunday 2026-11-01 12:00 UTC (the harness's clock), the page's zone UTC.
    h = await startEngineHarness();
    admin = await createKey(h.t, h.cookie, 'admin', 'admin key');
    nas = (
      await api()
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(
          httpMonitor({ name: 'NAS', confirm_after: 1, interval_s: 60, timeout_ms: TIMEOUT_MS }, { url: h.target.url }),
        )
        .expect(201)
    ).body.id;
    await api()
      .put('/api/v1/status-page')
      .set(bearer(admin))
      .send({ monitors: [{ id: nas, public: true }] })
      .expect(200);
    windowId = (
      await api()
        .post('/api/v1/maintenance')
        .set(bearer(h.write))
        .send({
          title: 'Disk swap',
          monitors: [nas],
          schedule: { kind: 'once', start: '2026-11-01T12:30:00Z', end: '2026-11-01T15:30:00Z' },
        })
        .expect(201)
    ).body.id;
    // Announced for tomorrow, with a description in Markdown (and some HTML that must stay text).
    await api()
      .post('/api/v1/maintenance')
      .set(bearer(h.write))
      .send({
        title: 'Router firmware',
        description:
          'Short **outage** of the [router](https://example.com/notes).\n\n- Wi-Fi\n- VPN <script>x()</script>',
        schedule: { kind: 'once', start: '2026-11-02T09:00:00Z', end: '2026-11-02T10:00:00Z' },
      })
      .expect(201);
    await h.advance(0);
    // Up until 12:30; Down through the window (12:30-15:30) and five minutes past it; up again until 16:00.
    await advanceTo('2026-11-01T12:30:00Z');
    h.target.status = 500;
    await advanceTo('2026-11-01T15:35:00Z');
    h.target.status = 200;
    await advanceTo('2026-11-01T16:00:00Z');
    checks = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/api/v1/monitors/${nas}/checks?limit=500${cursor ? `&before=${cursor}` : ''}`);
      checks.push(...(page.items as Check[]));
      cursor = page.next_cursor;
    } while (cursor);
    const port = await freePort();
    await new Promise<void>((resolve) => h.t.app.getHttpServer().listen(port, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('stores the checks made in the window with the window, and only those', () => {
    const inWindow = checks.filter((c) => c.maintenance_window_id !== null);
    expect(new Set(inWindow.map((c) => c.maintenance_window_id))).toEqual(new Set([windowId]));
    expect(inWindow.length).toBeGreaterThanOrEqual(178);
    for (const c of checks) {
      const held = c.at_ms >= Date.parse('2026-11-01T12:30:00Z') && c.at_ms < Date.parse('2026-11-01T15:30:00Z');
      expect([c.at_ms, c.maintenance_window_id !== null]).toEqual([c.at_ms, held]);
    }
    // Down outside the window too: five minutes that count.
    expect(
      checks.filter((c) => c.maintenance_window_id === null && c.outcome === 'down').length,
    ).toBeGreaterThanOrEqual(4);
  });

  it('gives stats and uptime days the uptime of the time outside the window, as a brute force does', async () => {
    const expected = bruteForce(checks, h.t.clock.now());
    // About 54 minutes up and 6 down outside the window: far from the 32 % that counting the window would give.
    expect(expected.uptime).toBeGreaterThan(85);
    expect(expected.uptime).toBeLessThan(95);
    const monitor = await get(`/api/v1/monitors/${nas}`);
    expect(monitor.stats.uptime_24h).toBe(expected.uptime);
    const days = await get(`/api/v1/monitors/${nas}/uptime?days=2`);
    expect(days.uptime).toBe(expected.uptime);
    expect(days.days[1]).toMatchObject({
      date: '2026-11-01',
      uptime: expected.uptime,
      maintenance_ms: expected.maintMs,
    });
    expect(days.days[0]).toMatchObject({ date: '2026-10-31', uptime: null, maintenance_ms: 0, checks: 0 });
    expect(Math.abs(expected.maintMs - 3 * HOUR)).toBeLessThanOrEqual(MIN);
  });

  it('marks raw points in maintenance, and gives each hour its maintenance share (an hour all in it: no uptime)', async () => {
    const raw = await get(`/api/v1/monitors/${nas}/series?range=24h`);
    expect(raw.points.filter((p: { maintenance: boolean }) => p.maintenance)).toHaveLength(
      checks.filter((c) => c.maintenance_window_id !== null).length,
    );
    const hourly = await get(`/api/v1/monitors/${nas}/series?range=7d`);
    const hour = (iso: string) => hourly.points.find((p: { t_ms: number }) => p.t_ms === Date.parse(iso));
    for (const iso of ['2026-11-01T13:00:00Z', '2026-11-01T14:00:00Z']) {
      expect(hour(iso)).toMatchObject({ uptime: null, maintenance_pct: 100, maintenance_ms: HOUR, up: 0, down: 0 });
      expect(hour(iso).maintenance).toBeGreaterThanOrEqual(59);
    }
    expect(hour('2026-11-01T12:00:00Z')).toMatchObject({ uptime: 100 });
    expect(hour('2026-11-01T12:00:00Z').maintenance_pct).toBeGreaterThan(45);
    expect(hour('2026-11-01T12:00:00Z').maintenance_pct).toBeLessThan(55);
    expect(hour('2026-11-01T15:00:00Z').uptime).toBeLessThan(100);
  });

  it('gives the badge and the status page JSON the same uptime, and the hours in the window the maintenance state', async () => {
    const expected = bruteForce(checks, h.t.clock.now());
    const status = (await api().get('/api/public/status?range=30d').expect(200)).body;
    const svc = status.groups[0].services[0];
    expect(svc.uptime).toBe(expected.uptime);
    expect(status.summary.uptime).toBe(expected.uptime);
    // The day was mostly maintenance, but the minutes down outside it are under 99 %: an outage beside a
    // window is not hidden by it (bars.ts). The hours all in the window are maintenance.
    const today = svc.bars[svc.bars.length - 1];
    expect(today).toMatchObject({ state: 'bad', uptime: expected.uptime, maintenance_ms: expected.maintMs });
    const hours = (await api().get('/api/public/status?range=24h').expect(200)).body.groups[0].services[0].bars;
    const byHour = new Map<string, { state: string; uptime: number | null; maintenance_ms: number }>(
      hours.map((b: { period: string }) => [b.period, b]),
    );
    expect(byHour.get('2026-11-01T12:00:00.000Z')).toMatchObject({ state: 'ok', uptime: 100 });
    for (const hour of ['2026-11-01T13:00:00.000Z', '2026-11-01T14:00:00.000Z'])
      expect(byHour.get(hour)).toMatchObject({ state: 'maintenance', uptime: null, maintenance_ms: HOUR });
    expect(byHour.get('2026-11-01T15:00:00.000Z')?.state).toBe('bad');
    const slug = (svc.page as string).split('/').pop();
    const badge = (await api().get(`/badge/${slug}/uptime.svg?range=24h`).expect(200)).body.toString();
    expect(badge).toContain(`uptime 24h: ${(Math.floor(expected.uptime! * 100) / 100).toFixed(2)}%`);
  });

  it.each(['horizon', 'classic', 'ledger'])(
    'shows the hours in the maintenance colour with words, and the description as safe Markdown, in the %s layout (axe-clean)',
    async (layout) => {
      await api().put('/api/v1/status-page').set(bearer(admin)).send({ layout }).expect(200);
      for (const theme of ['light', 'dark']) {
        await api().put('/api/v1/status-page').set(bearer(admin)).send({ theme }).expect(200);
        const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
        try {
          const page = await ctx.newPage();
          await page.goto(`${base}/status?range=24h`, { waitUntil: 'load' });
          const titles = await page
            .locator('.strip .b.maintenance')
            .evaluateAll((els) => els.map((e) => e.getAttribute('title')));
          // The two hours all in the window, in each strip that shows the service (its section's too).
          expect(titles.length).toBeGreaterThanOrEqual(2);
          for (const title of titles) expect(title).toMatch(/: maintenance 1 h$/);
          const colourOf = (selector: string) =>
            page.evaluate(`getComputedStyle(document.querySelector('${selector}')).backgroundColor`);
          const colour = await colourOf('.legend .b.maintenance');
          const okColour = await colourOf('.legend .b.ok');
          expect(colour).not.toBe(okColour);
          await expect(page.locator('.legend').textContent()).resolves.toContain('Maintenance');
          const desc = page.locator('.maint-desc');
          await expect(desc.locator('strong').textContent()).resolves.toBe('outage');
          await expect(desc.locator('a').getAttribute('rel')).resolves.toBe('noopener nofollow');
          await expect(desc.locator('li').allTextContents()).resolves.toEqual(['Wi-Fi', 'VPN <script>x()</script>']);
          expect(await desc.locator('script').count()).toBe(0);
          await page.screenshot({ path: path.join(ARTIFACTS, `uptime-${layout}-${theme}.png`), fullPage: true });
          await page.evaluate(AXE_SOURCE);
          const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          };
          const serious = results.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          expect(serious).toEqual([]);
        } finally {
          await ctx.close();
        }
      }
    },
    60_000,
  );

  it('shows the time in maintenance on the service page, its hours as "Mostly maintenance"', async () => {
    const status = (await api().get('/api/public/status?range=30d').expect(200)).body;
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    try {
      const page = await ctx.newPage();
      await page.goto(`${base}${status.groups[0].services[0].page}?range=24h`, { waitUntil: 'load' });
      await expect(page.locator('.tiles').textContent()).resolves.toMatch(/Maintenance3 hleft out of uptime/);
      const rows = await page.locator('table.rows tbody tr').allTextContents();
      expect(rows.filter((r) => r.includes('Mostly maintenance'))).toHaveLength(2);
      await page.screenshot({ path: path.join(ARTIFACTS, 'uptime-service.png'), fullPage: true });
    } finally {
      await ctx.close();
    }
  });

  it('colours a day mostly in maintenance on the uptime calendar of the dashboard, with its words (axe-clean)', async () => {
    // The day before: 20 h in maintenance and 4 h up, as a rollup row (the calendar reads GET /uptime).
    const yesterday = Math.floor(Date.parse('2026-10-31T00:00:00Z') / (24 * HOUR));
    await h.t.db.query(
      'INSERT INTO rollup_day (monitor_id, day, up_ms, maint_ms, n_up, n_maint) VALUES (?, ?, ?, ?, ?, ?)',
      [nas, yesterday, 4 * HOUR, 20 * HOUR, 240, 1200],
    );
    const session = (await h.t.app.get(SessionsService).create('setup', '127.0.0.1', 'Chrome on Linux')).token;
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' });
    try {
      await ctx.addCookies([{ name: 'service_session', value: session, url: base }]);
      const page = await ctx.newPage();
      await page.goto(`${base}/monitors/${nas}`, { waitUntil: 'load' });
      const cell = page.locator('#calendar .day.maint');
      await expect(cell.getAttribute('title')).resolves.toBe(
        '2026-10-31: 100% up outside maintenance, maintenance 20 h',
      );
      await expect(page.locator('#calendar .day').last().getAttribute('title')).resolves.toMatch(
        /^2026-11-01: 90\.0% up outside maintenance, down 6 min, maintenance 3 h/,
      );
      await expect(page.locator('#cal-total').textContent()).resolves.toContain('(maintenance left out)');
      // The recent checks say which were made in the window (the list reads GET /monitors/{id}/checks).
      await page.locator('#checks-body tr').nth(40).waitFor();
      const words = await page.locator('#checks-body tr td:nth-child(2)').allTextContents();
      expect(words.filter((r) => r === 'Down · maintenance').length).toBeGreaterThan(0);
      expect(words.filter((r) => r === 'Down').length).toBeGreaterThanOrEqual(4);
      await expect(page.locator('#calendar').getAttribute('aria-label')).resolves.toContain('1 mostly in maintenance');
      await page.locator('#calendar').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, 'uptime-dashboard-calendar.png'), fullPage: true });
      await page.evaluate(AXE_SOURCE);
      const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
        violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
      };
      expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
