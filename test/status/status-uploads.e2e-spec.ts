/**
 * The logo and the home-screen icon: types sniffed from the bytes, sizes from the headers (no
 * decompression bombs), 256 KB at most, the icon tied to the logo it was drawn from (409 when the
 * logo changed or is gone), the SVG logo served under a sandboxing CSP, and nothing stored on
 * any refusal.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { png } from './png-fixture';

let t: TestApp;
let write: string;
let read: string;
const as = (key: string) => bearer(key);

beforeAll(async () => {
  t = await startApp();
  const { cookie } = await createOwner(t);
  write = await createKey(t, cookie, 'write');
  read = await createKey(t, cookie, 'read');
  await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
});

/** A PUT whose body goes out in 16 KB chunks with no Content-Length. */
function chunkedPut(path: string, body: Buffer): Promise<{ status: number; body: string }> {
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'PUT', headers: { ...as(write), 'Content-Type': 'image/png' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
    req.end();
  });
}
afterAll(async () => t.close());

const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 8, 0, 64, 0, 128, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9,
]);
const SVG_NS = 'http://www.w3.org/2000/svg';
const SVG = Buffer.from(`<svg xmlns="${SVG_NS}" viewBox="0 0 40 10"><text x="0" y="9">Acme</text></svg>`);
/** An editor's SVG: stored and served as written anew from the allow-list (src/status/uploads/svg-clean.ts). */
const INKSCAPE_SVG = Buffer.from(
  `<?xml version="1.0"?>\n<svg xmlns="${SVG_NS}" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.3" viewBox="0 0 40 10"><!-- drawn --><inkscape:grid/><text x="0" y="9" data-x="1">Acme</text></svg>\n`,
);
const CLEAN_SVG = Buffer.from(
  `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 40 10"><text x="0" y="9">Acme</text></svg>`,
);
const WEBP = (() => {
  const bits = (200 - 1) | ((100 - 1) << 14);
  const data = Buffer.from([
    0x2f,
    bits & 255,
    (bits >>> 8) & 255,
    (bits >>> 16) & 255,
    (bits >>> 24) & 255,
    0,
    0,
    0,
    0,
    0,
  ]);
  const body = Buffer.concat([Buffer.from('WEBPVP8L'), Buffer.from([data.length, 0, 0, 0]), data]);
  return Buffer.concat([Buffer.from('RIFF'), Buffer.from([body.length, 0, 0, 0]), body]);
})();

const putLogo = (type: string, body: Buffer, key = write) =>
  t.http.put('/api/v1/status-page/logo').set(as(key)).set('Content-Type', type).send(body);
const putIcon = (body: Buffer, query = '', type = 'image/png') =>
  t.http.put(`/api/v1/status-page/icon${query}`).set(as(write)).set('Content-Type', type).send(body);
const logoState = async () => (await t.http.get('/api/v1/status-page').set(as(read)).expect(200)).body.logo;

describe('PUT /status-page/logo', () => {
  it.each([
    ['image/png', png(400, 100), null],
    ['image/jpeg', JPEG, null],
    ['image/webp', WEBP, null],
    ['image/svg+xml', SVG, CLEAN_SVG],
    ['image/svg+xml', INKSCAPE_SVG, CLEAN_SVG],
  ])('takes a %s logo and serves it with its version (an SVG as written anew)', async (type, sent, stored) => {
    const bytes = stored ?? sent;
    const res = await putLogo(type, sent).expect(200);
    expect(res.body).toEqual({
      ok: true,
      v: expect.stringMatching(/^[0-9a-f]{12}$/),
      url: `http://farsight.test/status/logo?v=${res.body.v}`,
    });
    expect(await logoState()).toEqual({ url: res.body.url, type, v: res.body.v, icon: null });
    const served = await t.http
      .get(`/status/logo?v=${res.body.v}`)
      .buffer(true)
      .parse((r, cb) => {
        const parts: Buffer[] = [];
        r.on('data', (c: Buffer) => parts.push(c));
        r.on('end', () => cb(null, Buffer.concat(parts)));
      })
      .expect(200);
    expect(served.headers['content-type']).toBe(type);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    );
    expect(Buffer.compare(served.body, bytes)).toBe(0);
    // The page shows it instead of the title.
    expect((await t.http.get('/status').expect(200)).text).toContain(
      `<img class="logo" src="/status/logo?v&#x3D;${res.body.v}"`,
    );
  });

  it.each([
    ['bytes of another type', 'image/png', JPEG, 'body'],
    [
      'an SVG with a script',
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'body',
    ],
    [
      'an SVG that loads other files',
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><image href="https://tracker.example/p.png"/></svg>'),
      'body',
    ],
    // The bypasses of issue 42, each accepted before.
    [
      'an SVG with a prefixed script',
      'image/svg+xml',
      Buffer.from(`<svg xmlns="${SVG_NS}"><x:script xmlns:x="${SVG_NS}">alert(1)</x:script></svg>`),
      'body',
    ],
    [
      'an SVG with an iframe srcdoc in a prefixed foreignObject',
      'image/svg+xml',
      Buffer.from(
        `<svg xmlns="${SVG_NS}"><x:foreignObject xmlns:x="${SVG_NS}"><h:iframe xmlns:h="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/></x:foreignObject></svg>`,
      ),
      'body',
    ],
    [
      'an SVG with @\\69mport',
      'image/svg+xml',
      Buffer.from(`<svg xmlns="${SVG_NS}"><style>@\\69mport "https://x.example/a.css";</style></svg>`),
      'body',
    ],
    [
      'an SVG with u\\72l(...)',
      'image/svg+xml',
      Buffer.from(`<svg xmlns="${SVG_NS}"><rect style="fill:u\\72l(https://x.example/p.svg#g)"/></svg>`),
      'body',
    ],
    ['a decompression bomb', 'image/png', png(60_000, 60_000), 'body'],
    ['a GIF', 'image/gif', Buffer.from('GIF89a'), 'Content-Type'],
    ['text', 'text/plain', Buffer.from('hello'), 'Content-Type'],
    ['an empty body', 'image/png', Buffer.alloc(0), 'body'],
  ])('refuses %s with 422, and keeps the logo it had', async (_name, type, bytes, field) => {
    const before = await logoState();
    const res = await putLogo(type, bytes).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field });
    expect(await logoState()).toEqual(before);
  });

  it('refuses more than 256 KB before storing anything, whether announced or not', async () => {
    const before = await logoState();
    const big = Buffer.concat([png(100, 100), Buffer.alloc(256 * 1024)]);
    const res = await putLogo('image/png', big).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'body', message: 'the body is larger than 256 KB' });
    // Sent in chunks without a length: read up to the limit, the rest dropped, then refused.
    const chunked = await chunkedPut('/api/v1/status-page/logo', big);
    expect(chunked.status).toBe(422);
    expect(JSON.parse(chunked.body).error.field).toBe('body');
    expect(await logoState()).toEqual(before);
  });

  it('needs a write key; the body of an unknown caller is never read', async () => {
    await putLogo('image/png', png(10, 10), read).expect(403);
    await t.http.put('/api/v1/status-page/logo').set('Content-Type', 'image/png').send(png(10, 10)).expect(401);
  });
});

describe('PUT /status-page/icon', () => {
  it('answers 409 while there is no logo', async () => {
    await t.http.delete('/api/v1/status-page/logo').set(as(write)).expect(200);
    const res = await putIcon(png(512, 512)).expect(409);
    expect(res.body.error.code).toBe('conflict');
  });

  it('takes a square PNG drawn from the current logo, and the page and its manifest use it', async () => {
    const logo = (await putLogo('image/png', png(600, 200)).expect(200)).body;
    const res = await putIcon(png(512, 512), `?logo=${logo.v}`).expect(200);
    expect(res.body).toEqual({
      ok: true,
      v: expect.stringMatching(/^[0-9a-f]{12}$/),
      url: `http://farsight.test/status/icon.png?v=${res.body.v}`,
    });
    expect((await logoState()).icon).toEqual({ url: res.body.url, v: res.body.v, size: 512 });
    const manifest = JSON.parse((await t.http.get('/status/manifest.webmanifest').expect(200)).text);
    expect(manifest.icons).toEqual([
      { src: `/status/icon.png?v=${res.body.v}`, sizes: '512x512', type: 'image/png', purpose: 'any' },
    ]);
    for (const path of ['/icon-512.png', '/apple-touch-icon.png', `/status/icon.png?v=${res.body.v}`]) {
      const got = await t.http.get(path).expect(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(got.body as Buffer, png(512, 512))).toBe(0);
    }
    // Without logo=, the current logo is meant.
    await putIcon(png(180, 180)).expect(200);
  });

  it.each([
    ['not square', png(512, 500)],
    ['smaller than 180 px', png(179, 179)],
    ['larger than 1024 px', png(1025, 1025)],
    ['a decompression bomb', png(65_000, 65_000)],
    ['a JPEG', JPEG],
  ])('refuses an icon that is %s with 422 and keeps the icon it had', async (_name, bytes) => {
    const before = await logoState();
    const res = await putIcon(bytes).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'body' });
    expect(await logoState()).toEqual(before);
  });

  it('refuses another type than PNG, and a logo version that is not one', async () => {
    expect((await putIcon(png(512, 512), '', 'image/webp').expect(422)).body.error.field).toBe('Content-Type');
    expect((await putIcon(png(512, 512), '?logo=<script>').expect(422)).body.error.field).toBe('logo');
  });

  it('answers 409 when the logo changed since the icon was drawn, and a new logo drops the icon', async () => {
    const old = (await logoState()).v;
    await putLogo('image/svg+xml', SVG).expect(200);
    expect((await logoState()).icon).toBeNull();
    const res = await putIcon(png(512, 512), `?logo=${old}`).expect(409);
    expect(res.body.error.message).toContain('the logo changed');
    expect((await logoState()).icon).toBeNull();
  });

  it("goes with the logo: DELETE drops both, and the service's own icon is back", async () => {
    await putIcon(png(256, 256)).expect(200);
    await t.http.delete('/api/v1/status-page/logo').set(as(write)).expect(200);
    expect(await logoState()).toBeNull();
    await t.http.get('/status/logo').expect(404);
    const icon = await t.http.get('/icon-512.png').expect(200);
    expect((icon.body as Buffer).readUInt32BE(16)).toBe(512);
    const manifest = JSON.parse((await t.http.get('/status/manifest.webmanifest').expect(200)).text);
    expect(manifest.icons[0].src).toMatch(/^\/icon-512\.png\?v=/);
    const lines = await t.http.get('/api/v1/events?kind=status_page_updated').set(as(read)).expect(200);
    expect(lines.body.items[0].text).toBe('status page logo removed, and the icon made from it');
  });
});
