import { checkIcon, checkLogo, jpegSize, logoType, sniff, webpSize } from './image-check';
import { png } from '../../../test/status/png-fixture';

function jpeg(w: number, h: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    8,
    h >> 8,
    h & 255,
    w >> 8,
    w & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xda, 0x00, 0x02, 0xff, 0xd9])]);
}

function riff(chunk: string, data: Buffer): Buffer {
  const body = Buffer.concat([
    Buffer.from('WEBP'),
    Buffer.from(chunk, 'latin1'),
    Buffer.from([data.length & 255, (data.length >> 8) & 255, 0, 0]),
    data,
  ]);
  const head = Buffer.concat([Buffer.from('RIFF'), Buffer.from([body.length & 255, (body.length >> 8) & 255, 0, 0])]);
  return Buffer.concat([head, body]);
}

function webpLossy(w: number, h: number): Buffer {
  return riff(
    'VP8 ',
    Buffer.from([0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, w & 255, (w >> 8) & 0x3f, h & 255, (h >> 8) & 0x3f, 0, 0, 0, 0]),
  );
}

function webpLossless(w: number, h: number): Buffer {
  const bits = ((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14);
  return riff(
    'VP8L',
    Buffer.from([0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255, 0, 0, 0, 0, 0]),
  );
}

function webpExtended(w: number, h: number): Buffer {
  const d = Buffer.alloc(10);
  d.writeUIntLE(w - 1, 4, 3);
  d.writeUIntLE(h - 1, 7, 3);
  return riff('VP8X', d);
}

const svg = (inner: string, prolog = '') =>
  Buffer.from(`${prolog}<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${inner}</svg>`);

describe('logoType', () => {
  it.each([
    ['image/png', 'image/png'],
    ['IMAGE/PNG', 'image/png'],
    ['image/svg+xml; charset=utf-8', 'image/svg+xml'],
    ['image/gif', null],
    ['application/json', null],
    [undefined, null],
  ])('reads %j as %j', (header, type) => expect(logoType(header)).toBe(type));
});

describe('sniff', () => {
  it.each([
    ['png', png(10, 10), 'image/png'],
    ['jpeg', jpeg(10, 10), 'image/jpeg'],
    ['webp', webpLossy(10, 10), 'image/webp'],
    ['svg', svg(''), 'image/svg+xml'],
    [
      'svg after a declaration and a comment',
      svg('', '<?xml version="1.0"?>\n<!-- drawn by hand -->\n'),
      'image/svg+xml',
    ],
    ['html', Buffer.from('<html><svg></svg></html>'), null],
    ['gif', Buffer.from('GIF89a....'), null],
    ['text', Buffer.from('hello'), null],
  ])('knows %s', (_n, buf, type) => expect(sniff(buf)).toBe(type));
});

describe('image sizes from headers', () => {
  it.each([
    ['jpeg', jpegSize(jpeg(640, 480)), { width: 640, height: 480 }],
    ['lossy webp', webpSize(webpLossy(300, 200)), { width: 300, height: 200 }],
    ['lossless webp', webpSize(webpLossless(16383, 2)), { width: 16383, height: 2 }],
    ['extended webp', webpSize(webpExtended(20000, 30000)), { width: 20000, height: 30000 }],
  ])('reads a %s', (_n, size, expected) => expect(size).toEqual(expected));

  it.each([
    ['a jpeg without a frame', jpegSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0xd9])), 'no frame header'],
    ['a jpeg cut short', jpegSize(jpeg(10, 10).subarray(0, 12)), 'cut short'],
    ['a webp cut short', webpSize(webpLossy(10, 10).subarray(0, 20)), 'cut short'],
    ['a webp of another kind', webpSize(riff('ALPH', Buffer.alloc(12))), 'unknown first chunk'],
  ])('refuses %s', (_n, size, words) => expect(JSON.stringify(size)).toContain(words));
});

describe('checkLogo', () => {
  it.each([
    ['image/png', png(600, 200), 600, 200],
    ['image/jpeg', jpeg(1024, 768), 1024, 768],
    ['image/webp', webpLossless(400, 400), 400, 400],
  ] as const)('accepts a %s, to be stored as sent', (type, buf, width, height) => {
    expect(checkLogo(type, buf)).toEqual({ ok: true, type, width, height, data: buf });
  });

  it('accepts an SVG, to be stored as written anew (svg-clean.ts)', () => {
    const r = checkLogo(
      'image/svg+xml',
      svg('<!-- by hand --><circle cx="5" cy="5" r="4" fill="#123"/><use href="#a"/>', '\uFEFF<?xml version="1.0"?>'),
    );
    expect(r).toEqual({ ok: true, type: 'image/svg+xml', width: null, height: null, data: expect.any(Buffer) });
    if (r.ok) {
      expect(r.data.toString('utf8')).toBe(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#123"/><use href="#a"/></svg>',
      );
    }
  });

  it.each([
    ['image/png', Buffer.alloc(0), 'empty'],
    ['image/png', jpeg(10, 10), 'a image/jpeg image, not image/png'],
    ['image/jpeg', png(10, 10), 'a image/png image, not image/jpeg'],
    ['image/svg+xml', Buffer.from('just text'), 'not a PNG, JPEG, WebP or SVG'],
    ['image/svg+xml', svg('<script>alert(1)</script>'), 'a script element'],
    ['image/svg+xml', Buffer.concat([svg(`<!--${'x'.repeat(5000)}-->`), Buffer.from([0xff, 0xfe])]), 'not UTF-8'],
    ['image/png', png(20_000, 100), 'at most 8192 px'],
    ['image/png', png(5000, 5000), '16 megapixels'],
    ['image/webp', webpExtended(9000, 10), 'at most 8192 px'],
    ['image/jpeg', jpeg(0, 10), 'no width or height'],
  ] as const)('refuses a %s body: %s', (type, buf, words) => {
    const r = checkLogo(type, buf);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(words);
  });
});

describe('checkIcon', () => {
  it.each([180, 512, 1024])('accepts a square PNG of %i px', (n) => {
    expect(checkIcon(png(n, n))).toEqual({
      ok: true,
      type: 'image/png',
      width: n,
      height: n,
      data: expect.any(Buffer),
    });
  });

  it.each([
    ['not square', png(512, 500), 'must be square'],
    ['too small', png(179, 179), '180 to 1024'],
    ['too large', png(1025, 1025), '180 to 1024'],
    ['a bomb', png(50_000, 50_000), '180 to 1024'],
    ['not a PNG', jpeg(512, 512), 'signature'],
    ['empty', Buffer.alloc(0), 'empty'],
  ])('refuses an icon that is %s', (_n, buf, words) => {
    const r = checkIcon(buf);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(words);
  });
});
