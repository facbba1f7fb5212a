/**
 * The public routes: the status JSON in the spec's shape, what never appears in it or in the
 * pages, bar states at the thresholds, each range's bars, the overall rule, the history pages,
 * caching, compression, the manifest and the page's own hosts.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { DAY, seedStatusPage, SeedService } from './seed';

let t: TestApp;
let key: string;
const as = () => bearer(key);

/** A monitor whose private name, group, description, tags, host and error are all distinctive. */
const SECRET = {
  name: 'zqx-private-name-41',
  group: 'zqx-private-group-66',
  description: 'zqx-description-55',
  tag: 'zqx-tag-88',
  host: 'zqx-secret-host-73.internal',
  error: 'zqx-error-text-19 connect ECONNREFUSED 10.9.8.7:443',
};
const DISTINCTIVE = [
  'zqx-private-name-41',
  'zqx-private-group-66',
  'zqx-description-55',
  'zqx-tag-88',
  'zqx-secret-host-73',
  'zqx-error-text-19',
  '10.9.8.7',
  'ECONNREFUSED',
  'home.lan',
  '/health',
];

const SERVICES: SeedService[] = [
  {
    name: 'Public Web',
    privateName: SECRET.name,
    privateGroup: SECRET.group,
    description: SECRET.description,
    tags: [SECRET.tag],
    group: 'Front',
    host: SECRET.host,
    error: SECRET.error,
    status: 'down',
    downDays: { 0: 25, 3: 90 },
  },
  { name: 'API', group: 'Front', downDays: { 10: 5 } },
  { name: 'Database', group: 'Back' },
  { name: 'Queue', group: 'Back', status: 'slow' },
];

let seeded: Awaited<ReturnType<typeof seedStatusPage>>;

beforeAll(async () => {
  t = await startApp();
  const { cookie } = await createOwner(t);
  key = await createKey(t, cookie, 'admin');
  seeded = await seedStatusPage(t, as(), SERVICES, 120);
  await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
});

/** A GET with nothing in between (supertest would decode the body itself). */
function raw(
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', reject);
  });
}
afterAll(async () => t.close());

const json = async (range?: string) =>
  (await t.http.get(`/api/public/status${range ? `?range=${range}` : ''}`).expect(200)).body;
/** Handlebars writes `=` in attributes as &#x3D;: read the page as a browser does. */
const decode = (text: string) => text.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
const html = async (path: string) => decode((await t.http.get(path).expect(200)).text);
const asset = (path: string) =>
  t.http
    .get(path)
    .buffer(true)
    .parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });
/** The cache holds answers 30 s: let it run out. */
const expire = () => t.clock.advance(30_000);

function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

describe('GET /api/public/status', () => {
  it('answers the spec shape, public and cacheable, without a sign-in', async () => {
    const res = await t.http.get('/api/public/status').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(
      // The spec's keys, plus maintenance (the interface extensions, section 1).
      [
        'description',
        'groups',
        'incidents',
        'maintenance',
        'overall',
        'range',
        'ranges',
        'summary',
        'title',
        'updated_at',
      ].sort(),
    );
    expect(body).toMatchObject({
      title: 'Status',
      description: '',
      range: '90d',
      ranges: ['24h', '7d', '30d', '90d', '12mo'],
      updated_at: '2026-11-01T12:00:00.000Z',
    });
    expect(Object.keys(body.summary).sort()).toEqual([
      'incidents',
      'longest_ms',
      'overall',
      'services',
      'typical_ms',
      'uptime',
    ]);
    expect(body.groups.map((g: { name: string }) => g.name)).toEqual(['Back', 'Front']);
    const svc = body.groups[1].services[1];
    expect(Object.keys(svc).sort()).toEqual([
      'affected_by',
      'bars',
      'down_ms',
      'from',
      'name',
      'page',
      'status',
      'typical_ms',
      'uptime',
    ]);
    expect(svc).toMatchObject({ name: 'API', page: '/status/api', status: 'up', from: '90 days ago' });
    expect(Object.keys(svc.bars[0]).sort()).toEqual([
      'avg_ms',
      'down_ms',
      'label',
      'maintenance_ms',
      'period',
      'state',
      'uptime',
    ]);
    expect(Object.keys(body.incidents).sort()).toEqual(['open', 'recent']);
    expect(body.incidents.open).toEqual([
      {
        name: 'Public Web',
        page: '/status/public-web',
        started_at: '2026-11-01T11:35:00.000Z',
        ended_at: null,
        duration_ms: 25 * 60_000,
      },
    ]);
    expect(body.incidents.recent[0]).toEqual({
      name: 'Public Web',
      page: '/status/public-web',
      started_at: '2026-10-29T14:00:00.000Z',
      ended_at: '2026-10-29T15:30:00.000Z',
      duration_ms: 90 * 60_000,
    });
  });

  it.each([
    ['24h', 24],
    ['7d', 28],
    ['30d', 30],
    ['90d', 90],
    ['12mo', 12],
  ])('gives %s %i bars on every service and section', async (range, n) => {
    const body = await json(range);
    expect(body.range).toBe(range);
    for (const g of body.groups) {
      expect(g.bars).toHaveLength(n);
      for (const s of g.services) expect(s.bars).toHaveLength(n);
    }
  });

  it.each(['bogus', '1h', '', '90D'])('answers the default range for range=%j', async (range) => {
    expect((await json(range)).range).toBe('90d');
  });
});

describe('privacy', () => {
  it('keeps monitor ids, names, groups, hosts, addresses, URLs and error texts out of every answer and page', async () => {
    await t.http.put('/api/v1/status-page').set(as()).send({ layout: 'horizon' }).expect(200);
    const answers: string[] = [];
    for (const range of ['24h', '7d', '30d', '90d', '12mo']) {
      const body = await json(range);
      answers.push(JSON.stringify(body));
      expect([...keysOf(body)].filter((k) => /(^|_)id$|monitor|host|url|error|target|slug/.test(k))).toEqual([]);
    }
    for (const layout of ['horizon', 'classic', 'ledger']) {
      await t.http.put('/api/v1/status-page').set(as()).send({ layout }).expect(200);
      for (const path of [
        '/status',
        '/status?range=24h',
        '/status?range=12mo',
        '/status/public-web',
        '/status/public-web?range=7d',
        '/status/history',
        '/status/history?before=2026-08',
        '/status/nope',
      ]) {
        answers.push((await t.http.get(path)).text);
      }
      answers.push((await t.http.post('/api/v1/status-page/preview').set(as()).send({}).expect(200)).body.html);
    }
    answers.push((await t.http.get('/status/manifest.webmanifest').expect(200)).text);
    const all = answers.join('\n');
    expect(all).toContain('Public Web');
    for (const text of DISTINCTIVE) expect([text, all.includes(text)]).toEqual([text, false]);
    // No link or name made from a monitor id.
    for (const id of seeded.ids) expect(all).not.toMatch(new RegExp(`/(status|monitors)/${id}\\b`));
  });
});

describe('bars', () => {
  // Past rollups never change once final, and the page keeps them in memory: each case writes
  // its monitor's history before the page first reads it, as the engine would have.
  it('are judged at the thresholds of the spec', async () => {
    const [id] = (await seedStatusPage(t, as(), [{ name: 'Thresholds', group: 'Z' }], 40)).ids;
    const today = Math.floor(t.clock.now() / DAY);
    const day = (ago: number, down: number) =>
      t.db.query('UPDATE rollup_day SET up_ms = ?, down_ms = ? WHERE monitor_id = ? AND day = ?', [
        DAY - down,
        down,
        id,
        today - ago,
      ]);
    await day(1, 0); // ok
    await day(2, 1000); // any downtime: warn
    await day(3, 86_400); // exactly 99.9 %: warn (there was downtime)
    await day(4, 864_000); // exactly 99 %: warn
    await day(5, 864_001); // under 99 %: bad
    await t.db.query('DELETE FROM rollup_day WHERE monitor_id = ? AND day = ?', [id, today - 6]); // no data
    await t.db.query('UPDATE monitors SET created_at = ? WHERE id = ?', [t.clock.now() - 20 * DAY, id]);
    expire();
    const svc = (await json('30d')).groups.find((g: { name: string }) => g.name === 'Z').services[0];
    const states = svc.bars
      .slice(-7)
      .reverse()
      .map((b: { state: string }) => b.state);
    expect(states).toEqual(['ok', 'ok', 'warn', 'warn', 'warn', 'bad', 'no_data']);
    expect(svc.bars.slice(0, 9).every((b: { state: string }) => b.state === 'not_watched')).toBe(true);
    expect(svc.bars[29 - 3]).toMatchObject({ uptime: 99.9, down_ms: 86_400 });
    expect(svc.from).toBe('Since 12 Oct 2026');
    await t.http
      .put('/api/v1/status-page')
      .set(as())
      .send({ monitors: [{ id, public: false }] })
      .expect(200);
  });

  it('of months judge only the 99.9 % line', async () => {
    const [id] = (await seedStatusPage(t, as(), [{ name: 'Months', group: 'Z' }], 200)).ids;
    const today = Math.floor(t.clock.now() / DAY);
    await t.db.query('UPDATE rollup_day SET up_ms = ?, down_ms = 0 WHERE monitor_id = ?', [DAY, id]);
    // October 2026 (31 days): one minute down is 99.998 %: ok for a month (that day's own bar is warn).
    await t.db.query('UPDATE rollup_day SET up_ms = ?, down_ms = ? WHERE monitor_id = ? AND day = ?', [
      DAY - 60_000,
      60_000,
      id,
      today - 10,
    ]);
    // September 2026 (30 days): 4 h 20 min down is 99.398 %, warn; August (31 days): 7.5 h down is 98.99 %, bad.
    await t.db.query('UPDATE rollup_day SET up_ms = ?, down_ms = ? WHERE monitor_id = ? AND day = ?', [
      DAY - 260 * 60_000,
      260 * 60_000,
      id,
      today - 40,
    ]);
    await t.db.query('UPDATE rollup_day SET up_ms = ?, down_ms = ? WHERE monitor_id = ? AND day = ?', [
      DAY - 450 * 60_000,
      450 * 60_000,
      id,
      today - 70,
    ]);
    expire();
    const svc = (await json('12mo')).groups.find((g: { name: string }) => g.name === 'Z').services[0];
    expect(svc.bars.slice(-4).map((b: { period: string; state: string }) => `${b.period} ${b.state}`)).toEqual([
      '2026-08 bad',
      '2026-09 warn',
      '2026-10 ok',
      '2026-11 ok',
    ]);
    await t.http
      .put('/api/v1/status-page')
      .set(as())
      .send({ monitors: [{ id, public: false }] })
      .expect(200);
  });
});

describe('the overall status', () => {
  const setStatus = async (name: string, status: string) => {
    await t.db.query('UPDATE monitor_state SET status = ? WHERE monitor_id = ?', [status, seeded.byName.get(name)]);
  };

  it.each([
    [['up', 'up', 'up', 'up'], 'operational'],
    [['up', 'up', 'up', 'slow'], 'degraded'],
    [['down', 'up', 'up', 'slow'], 'partial_outage'],
    [['down', 'down', 'up', 'up'], 'major_outage'],
    [['down', 'up', 'paused', 'paused'], 'major_outage'],
    [['unknown', 'up', 'up', 'up'], 'operational'],
  ])('is %j -> %s', async (statuses, overall) => {
    for (const [i, s] of SERVICES.entries()) await setStatus(s.name, statuses[i]);
    expire();
    const body = await json();
    expect(body.overall).toBe(overall);
    expect(body.summary.overall).toBe(overall);
  });

  afterAll(async () => {
    for (const s of SERVICES) await setStatus(s.name, s.status ?? 'up');
    expire();
  });
});

describe('the page cache', () => {
  it('keeps an answer 30 seconds', async () => {
    const first = await html('/status');
    await t.db.query('UPDATE monitor_state SET status = ? WHERE monitor_id = ?', [
      'up',
      seeded.byName.get('Public Web'),
    ]);
    t.clock.advance(29_000);
    expect(await html('/status')).toBe(first);
    t.clock.advance(1_000);
    expect(await html('/status')).not.toBe(first);
    await t.db.query('UPDATE monitor_state SET status = ? WHERE monitor_id = ?', [
      'down',
      seeded.byName.get('Public Web'),
    ]);
    expire();
  });

  it('is not pushed out by visitors asking for pages that are not there', async () => {
    const first = await html('/status');
    await t.db.query('UPDATE monitor_state SET status = ? WHERE monitor_id = ?', [
      'up',
      seeded.byName.get('Public Web'),
    ]);
    for (let i = 0; i < 300; i++) await t.http.get(`/status/nothing-${i}`).expect(404);
    for (let i = 0; i < 250; i++)
      await t.http
        .get(`/status/history?before=${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`)
        .expect(200);
    expect(await html('/status')).toBe(first);
    await t.db.query('UPDATE monitor_state SET status = ? WHERE monitor_id = ?', [
      'down',
      seeded.byName.get('Public Web'),
    ]);
    expire();
  });

  it('is dropped when the settings change', async () => {
    await html('/status');
    await t.http.put('/api/v1/status-page').set(as()).send({ title: 'Renamed at once' }).expect(200);
    expect(await html('/status')).toContain('Renamed at once');
    expect((await json()).title).toBe('Renamed at once');
  });

  it('is dropped when the settings change, also as compressed for browsers', async () => {
    const brHtml = async () =>
      brotliDecompressSync((await raw('/status', { 'Accept-Encoding': 'br' })).body).toString();
    const gzJson = async () =>
      JSON.parse(gunzipSync((await raw('/api/public/status', { 'Accept-Encoding': 'gzip' })).body).toString()) as {
        title: string;
      };
    await t.http.put('/api/v1/status-page').set(as()).send({ title: 'Compressed once' }).expect(200);
    expect(await brHtml()).toContain('Compressed once');
    expect((await gzJson()).title).toBe('Compressed once');
    await t.http.put('/api/v1/status-page').set(as()).send({ title: 'Compressed twice' }).expect(200);
    expect(await brHtml()).toContain('Compressed twice');
    expect((await gzJson()).title).toBe('Compressed twice');
  });

  it('is dropped when a monitor changes: one made private leaves at once', async () => {
    expect(await html('/status')).toContain('Database');
    await t.http
      .patch(`/api/v1/monitors/${seeded.byName.get('Database')}`)
      .set(as())
      .send({ public: false })
      .expect(200);
    expect(await html('/status')).not.toContain('Database');
    await t.http.get('/status/database').expect(404);
    await t.http
      .patch(`/api/v1/monitors/${seeded.byName.get('Database')}`)
      .set(as())
      .send({ public: true })
      .expect(200);
  });
});

describe('HTML pages', () => {
  it('serves /status with a strict CSP, one script and no inline code', async () => {
    const res = await t.http.get('/status').expect(200);
    res.text = decode(res.text);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const scripts = [...res.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^<script src="\/status\.js\?v=[0-9a-f]{12}" defer>$/);
    expect(res.text).not.toMatch(/<script[^>]*>[^<]/);
    expect(res.text).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
  });

  it('shows a service page with its bars, chart, months and incidents', async () => {
    const page = await html('/status/public-web?range=30d');
    expect(page).toContain('<h1>Public Web</h1>');
    expect(page).toContain('Response time, the last 30 days');
    expect(page).toContain('Last 12 months');
    expect((page.match(/class="m /g) ?? []).length).toBe(12);
    expect(page).toMatch(/Down for \d+ min/);
    expect((page.match(/<i class="b /g) ?? []).length).toBe(30 + 5); // the strip and the legend (maintenance is its fifth entry)
  });

  it('answers 404 pages for services that are not there', async () => {
    const res = await t.http.get('/status/zzz-not-a-service').expect(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('There is no service of that name');
  });

  it('serves nothing while the page is not enabled', async () => {
    await t.http.put('/api/v1/status-page').set(as()).send({ enabled: false }).expect(200);
    await t.http.get('/status').expect(404);
    await t.http.get('/status/api').expect(404);
    await t.http.get('/status/history').expect(404);
    const res = await t.http.get('/api/public/status').expect(404);
    expect(res.body.error.code).toBe('not_found');
    await t.http.put('/api/v1/status-page').set(as()).send({ enabled: true }).expect(200);
  });
});

describe('GET /status/history', () => {
  it('shows three local months a page, newest first, with links to the others', async () => {
    await seedStatusPage(t, as(), [{ name: 'Old timer', group: 'Z', downDays: { 70: 30, 160: 12 } }], 200);
    expire();
    const first = await html('/status/history');
    expect([...first.matchAll(/<h2 id="m\d">([^<]+)<\/h2>/g)].map((m) => m[1])).toEqual([
      'November 2026',
      'October 2026',
      'September 2026',
    ]);
    expect(first).toContain('href="/status/history?before=2026-09"');
    expect(first).not.toContain('rel="prev"');
    const older = await html('/status/history?before=2026-09');
    expect([...older.matchAll(/<h2 id="m\d">([^<]+)<\/h2>/g)].map((m) => m[1])).toEqual([
      'August 2026',
      'July 2026',
      'June 2026',
    ]);
    expect(older).toContain('Old timer'); // 70 days before 1 Nov 2026 is 23 Aug
    expect(older).toContain('href="/status/history" rel="prev"');
    expect(older).toContain('href="/status/history?before=2026-06"');
    const oldest = await html('/status/history?before=2026-06');
    expect(oldest).toContain('Old timer'); // 160 days before is 25 May
    expect(oldest).not.toContain('rel="next"');
  });

  it.each(['garbage', '2026-13', '2099-01', '1969-12', '2026-1'])(
    'shows the first page for before=%s',
    async (before) => {
      expect(await html(`/status/history?before=${before}`)).toContain('<h2 id="m0">November 2026</h2>');
    },
  );
});

describe('assets', () => {
  it('serves status.css and status.js named by their content, cacheable for a year', async () => {
    const page = await html('/status');
    for (const name of ['status.css', 'status.js']) {
      const v = new RegExp(`/${name.replace('.', '\\.')}\\?v=([0-9a-f]{12})`).exec(page)![1];
      const res = await asset(`/${name}?v=${v}`).expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const stale = await asset(`/${name}?v=000000000000`).expect(200);
      expect(stale.headers['cache-control']).toBe('no-cache');
    }
  });

  it('compresses text with brotli or gzip as the client asks', async () => {
    const plain = await raw('/status', { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw('/status', { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    const gz = await raw('/status.css', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toContain('@font-face');
  });

  it('serves the accent stylesheet, and refuses anything but a colour', async () => {
    const res = await t.http.get('/status/theme.css?a=0EA5E9').expect(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.text).toContain('--ac:#0ea5e9');
    await t.http.get('/status/theme.css?a=red').expect(404);
    await t.http.get('/status/theme.css').expect(404);
  });

  it('serves the fonts the stylesheet names, and nothing else from the folder', async () => {
    const css = (await asset('/status.css').expect(200)).body.toString();
    const fonts = [...css.matchAll(/url\((\/status\/fonts\/[a-z0-9-]+\.woff2\?v=[0-9a-f]{12})\)/g)].map((m) => m[1]);
    expect(fonts).toHaveLength(4);
    for (const f of fonts) {
      const res = await asset(f).expect(200);
      expect(res.headers['content-type']).toBe('font/woff2');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body.subarray(0, 4).toString('latin1')).toBe('wOF2');
    }
    await t.http.get('/status/fonts/LICENSE-geist.txt').expect(404);
    await t.http.get('/status/fonts/..%2F..%2Fpackage.json').expect(404);
  });

  it('preloads the one font the page uses', async () => {
    await t.http.put('/api/v1/status-page').set(as()).send({ font: 'plex' }).expect(200);
    expect(await html('/status')).toMatch(
      /<link rel="preload" href="\/status\/fonts\/plex-400\.woff2\?v=[0-9a-f]{12}" as="font"/,
    );
    await t.http.put('/api/v1/status-page').set(as()).send({ font: 'system' }).expect(200);
    expect(await html('/status')).not.toContain('rel="preload"');
    await t.http.put('/api/v1/status-page').set(as()).send({ font: 'geist' }).expect(200);
  });
});

describe("the manifest and the page's own hosts", () => {
  it('names the app from the title and app_name, and starts at /status', async () => {
    await t.http
      .put('/api/v1/status-page')
      .set(as())
      .send({ title: 'Acme services', app_name: 'Acme', hosts: ['status.acme.example'] })
      .expect(200);
    const res = await t.http.get('/status/manifest.webmanifest').expect(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    const m = JSON.parse(res.text);
    expect(m).toMatchObject({ name: 'Acme services', short_name: 'Acme', start_url: '/status', display: 'standalone' });
    expect(m.icons[0]).toMatchObject({ sizes: '512x512', type: 'image/png' });
    await t.http.put('/api/v1/status-page').set(as()).send({ app_name: '' }).expect(200);
    expect(JSON.parse((await t.http.get('/status/manifest.webmanifest').expect(200)).text).short_name).toBe(
      'Acme services',
    );
  });

  it("starts at / on one of the page's hosts, where / is the status page", async () => {
    const m = JSON.parse(
      (await t.http.get('/status/manifest.webmanifest').set('Host', 'STATUS.acme.example:443').expect(200)).text,
    );
    expect(m.start_url).toBe('/');
    const home = await t.http.get('/?range=24h').set('Host', 'status.acme.example').expect(200);
    expect(home.text).toContain('data-range="24h"');
    // On the dashboard's own host, / is the owner's landing page (signed out: to the sign-in page).
    const own = await t.http.get('/').set('Host', 'farsight.test').expect(303);
    expect(own.headers.location).toMatch(/\/signin/);
  });

  it("serves the service's own icons until a logo icon exists", async () => {
    for (const [path, size] of [
      ['/icon-512.png', 512],
      ['/apple-touch-icon.png', 180],
      ['/status/icon.png', 512],
    ] as const) {
      const res = await asset(path).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.body.readUInt32BE(16)).toBe(size);
    }
  });
});
