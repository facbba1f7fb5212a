/**
 * Badges on the real app (docs/badges.md): every route and style, the ETag and 304, an unknown
 * slug and a private monitor's slug answered alike, hostile queries refused in the envelope; then
 * the badges in Chromium: each text as wide as the width table says (DejaVu Sans, the font the
 * table was measured from), axe on a page that shows them, and a screenshot to look at.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { bearer, TestApp } from '../support/app';
import { createOwnerAt, keyAt, launch, seriousAxeFindings, serve, Served } from '../support/browser';
import { textWidth } from '../../src/status/badges/badge-svg';
import { seedStatusPage, SeedService } from './seed';

const SERVICES: SeedService[] = [
  { name: 'Home Assistant', group: 'Apps', latency: 35, downDays: { 3: 30 } },
  { name: 'Jellyfin', group: 'Apps', latency: 1250, status: 'down', downDays: { 0: 38 } },
  { name: 'Shop', group: 'Web', latency: 210, status: 'slow' },
];
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts', 'status');

let s: Served;
let t: TestApp;
let privateSlug: string;

beforeAll(async () => {
  s = await serve();
  t = s.t;
  await createOwnerAt(s);
  const admin = bearer(await keyAt(s, 'admin'));
  await seedStatusPage(t, admin, SERVICES, 120);
  const hidden = await t.http
    .post('/api/v1/monitors')
    .set(admin)
    .send({ name: 'Secret box', kind: 'tcp', tcp: { host: 'box.lan', port: 22 } })
    .expect(201);
  privateSlug = hidden.body.slug;
});
afterAll(() => t.close());

describe('badge routes', () => {
  it.each([
    ['/badge/home-assistant/status.svg', 'Home Assistant: up'],
    ['/badge/jellyfin/status.svg', 'Jellyfin: down'],
    ['/badge/shop/status.svg', 'Shop: slow'],
    ['/badge/jellyfin/latency.svg', 'latency: 1.3 s'],
    ['/badge/home-assistant/uptime.svg?range=24h', 'uptime 24h: 100%'],
    ['/badge/shop/status.svg?label=Our%20shop&style=flat-square', 'Our shop: slow'],
  ])('%s says "%s" in its title and aria-label, as an accessible image', async (url, said) => {
    const res = await t.http.get(url).expect(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const svg = res.body.toString();
    expect(svg).toContain(`<title>${said}</title>`);
    expect(svg).toContain(`role="img" aria-label="${said}"`);
  });

  it('gives the latency in ms, upper case in the for-the-badge style (title and label as written)', async () => {
    const svg = (await t.http.get('/badge/home-assistant/latency.svg?style=for-the-badge').expect(200)).body.toString();
    expect(svg).toMatch(/<title>latency: \d\d ms<\/title>/);
    expect(svg).toMatch(/>LATENCY<\/text>.*>\d\d MS<\/text>/);
  });

  it('gives the uptime of the range asked for, below 100 % once something was down in it', async () => {
    const svg = (await t.http.get('/badge/home-assistant/uptime.svg?range=30d').expect(200)).body.toString();
    expect(svg).toMatch(/<title>uptime 30d: 99\.\d\d%<\/title>/);
    // 30d is the default range.
    expect((await t.http.get('/badge/home-assistant/uptime.svg').expect(200)).body.toString()).toBe(svg);
  });

  it('answers 304 to a matching If-None-Match, and the badge again to another', async () => {
    const first = await t.http.get('/badge/jellyfin/status.svg').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.http.get('/badge/jellyfin/status.svg').set('If-None-Match', `"x", W/${etag}`).expect(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers['cache-control']).toBe('public, max-age=60');
    await t.http.get('/badge/jellyfin/status.svg').set('If-None-Match', '"other"').expect(200);
    await t.http.get('/badge/jellyfin/status.svg?style=flat-square').set('If-None-Match', etag).expect(200);
  });

  it('answers an unknown slug and a private monitor alike: a grey "unknown" badge with 404', async () => {
    const unknown = await t.http.get('/badge/no-such-service/status.svg').expect(404);
    const hidden = await t.http.get(`/badge/${privateSlug}/status.svg`).expect(404);
    expect(hidden.body.toString()).toBe(unknown.body.toString());
    expect(hidden.headers.etag).toBe(unknown.headers.etag);
    expect(unknown.body.toString()).toContain('<title>status: unknown</title>');
    expect(unknown.body.toString()).toContain('fill="#5c6570"');
    const json = await t.http.get(`/badge/${privateSlug}/shields.json`).expect(404);
    expect(JSON.parse(json.text)).toMatchObject({ schemaVersion: 1, message: 'unknown' });
    expect(json.text).not.toContain('Secret');
  });

  it('answers the shields.io endpoint format', async () => {
    const res = await t.http.get('/badge/jellyfin/shields.json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(res.text)).toEqual({
      schemaVersion: 1,
      label: 'Jellyfin',
      message: 'down',
      color: 'c4281c',
      labelColor: '3c434d',
      cacheSeconds: 60,
    });
  });

  it.each([
    ['/badge/shop/uptime.svg?range=1y', 'range'],
    ['/badge/shop/uptime.svg?range=24h&range=7d', 'range'],
    ['/badge/shop/status.svg?style=plastic', 'style'],
    ['/badge/shop/status.svg?label=' + 'x'.repeat(41), 'label'],
    ['/badge/shop/status.svg?label=%20', 'label'],
    ['/badge/shop/status.svg?label=a%0Ab', 'label'],
    ['/badge/shop/status.svg?label=a&label=b', 'label'],
  ])('refuses %s with 422 naming %s', async (url, field) => {
    const res = await t.http.get(url).expect(422);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('escapes a hostile label and keeps it in one text element', async () => {
    const label = encodeURIComponent('<script>"&\'</script>');
    const svg = (await t.http.get(`/badge/shop/status.svg?label=${label}`).expect(200)).body.toString();
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;&#34;&#38;&#39;&#60;/script&#62;: slow');
  });

  it('bounds a huge slug without looking it up', async () => {
    await t.http.get(`/badge/${'a'.repeat(5000)}/status.svg`).expect(404);
  });
});

describe('badges in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser.close());

  it('draws each text as wide as the measured table says, passes axe, and looks right', async () => {
    const page = await browser.newPage({ viewport: { width: 720, height: 420 }, deviceScaleFactor: 2 });
    try {
      const urls = [
        ['status', '/badge/home-assistant/status.svg'],
        ['down', '/badge/jellyfin/status.svg'],
        ['slow', '/badge/shop/status.svg?style=flat-square'],
        ['uptime', '/badge/home-assistant/uptime.svg?range=7d'],
        ['latency', '/badge/jellyfin/latency.svg?style=for-the-badge'],
        ['label', '/badge/home-assistant/status.svg?label=Zażółć%20gęślą%20jaźń'],
        ['unknown', '/badge/nothing/status.svg'],
      ];
      // Inline, so the text can be measured; the page's own font is the table's, loaded from its file.
      const svgs = await Promise.all(urls.map(async ([, u]) => (await t.http.get(u)).body.toString() as string));
      const font = fs.readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').toString('base64');
      const bold = fs.readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf').toString('base64');
      await page.setContent(
        `<!doctype html><html lang="en"><head><title>Badges</title><style>
          @font-face { font-family: 'DejaVu Sans'; src: url(data:font/ttf;base64,${font}); }
          @font-face { font-family: 'DejaVu Sans'; font-weight: bold; src: url(data:font/ttf;base64,${bold}); }
          body { font-family: sans-serif; margin: 16px; } li { margin: 8px 0; list-style: none; }
        </style></head><body><main><h1>Badges</h1><ul>${svgs.map((x) => `<li>${x}</li>`).join('')}</ul></main></body></html>`,
      );
      await page.evaluate('document.fonts.ready');
      // Each text's natural length (textLength taken away) against the table's width for it.
      const measured =
        (await page.evaluate(`[...document.querySelectorAll('svg text:not([fill-opacity])')].map((el) => {
        const copy = el.cloneNode(true);
        copy.removeAttribute('textLength');
        el.parentNode.appendChild(copy);
        const natural = copy.getComputedTextLength();
        copy.remove();
        const g = el.parentNode;
        return { text: el.textContent, natural, size: Number(g.getAttribute('font-size')), bold: g.getAttribute('font-weight') === 'bold', spacing: Number(g.getAttribute('letter-spacing') || 0) };
      })`)) as { text: string; natural: number; size: number; bold: boolean; spacing: number }[];
      expect(measured.length).toBe(urls.length * 2);
      for (const m of measured) {
        const table = textWidth(m.text, m.size, m.bold) + m.spacing * [...m.text].length;
        // Kerning pairs are left out of the table: within half a pixel per 10 characters.
        expect([m.text, Math.abs(m.natural - table)]).toEqual([m.text, expect.any(Number)]);
        expect(Math.abs(m.natural - table)).toBeLessThanOrEqual(0.5 + [...m.text].length * 0.05);
      }
      expect(await seriousAxeFindings(page)).toEqual([]);
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'badges.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
