import { chunk, IDAT, IEND, ihdr, SIG } from '../../../test/status/png-fixture';
import { crc32, readPng } from './png-header';

describe('crc32', () => {
  it('matches the known value of IEND', () => {
    expect(crc32(Buffer.from('IEND', 'latin1'))).toBe(0xae426082);
  });
});

describe('readPng', () => {
  it.each([
    [
      'RGBA 8-bit',
      Buffer.concat([SIG, ihdr(512, 256), IDAT, IEND]),
      { width: 512, height: 256, bitDepth: 8, colorType: 6, interlaced: false, rawBytes: 256 * (512 * 4 + 1) },
    ],
    [
      'grey 1-bit',
      Buffer.concat([SIG, ihdr(9, 2, 1, 0), IDAT, IEND]),
      { width: 9, height: 2, bitDepth: 1, colorType: 0, interlaced: false, rawBytes: 2 * (2 + 1) },
    ],
    [
      'palette, interlaced',
      Buffer.concat([SIG, ihdr(180, 180, 8, 3, 0, 0, 1), chunk('PLTE', Buffer.alloc(6)), IDAT, IEND]),
      { width: 180, height: 180, bitDepth: 8, colorType: 3, interlaced: true, rawBytes: 180 * 181 },
    ],
    [
      'a 50,000 px bomb header (read, not decoded)',
      Buffer.concat([SIG, ihdr(50_000, 50_000), IDAT, IEND]),
      { width: 50_000, height: 50_000, bitDepth: 8, colorType: 6, interlaced: false, rawBytes: 50_000 * 200_001 },
    ],
  ])('reads %s', (_name, buf, info) => {
    expect(readPng(buf)).toEqual({ ok: true, info });
  });

  const damagedCrc = (() => {
    const b = Buffer.concat([SIG, ihdr(10, 10), IDAT, IEND]);
    b[8 + 8 + 3] ^= 1; // a bit of the width
    return b;
  })();

  it.each([
    ['empty', Buffer.alloc(0), 'signature'],
    ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]), 'signature'],
    ['only the signature', SIG, 'cut short'],
    ['no IEND', Buffer.concat([SIG, ihdr(10, 10), IDAT]), 'cut short'],
    ['a chunk past the end', Buffer.concat([SIG, ihdr(10, 10), IDAT.subarray(0, IDAT.length - 3)]), 'cut short'],
    ['a wrong checksum', damagedCrc, 'checksum'],
    ['IDAT before IHDR', Buffer.concat([SIG, IDAT, ihdr(10, 10), IEND]), 'IHDR is not the first'],
    ['two IHDR', Buffer.concat([SIG, ihdr(10, 10), ihdr(10, 10), IDAT, IEND]), 'second IHDR'],
    ['no image data', Buffer.concat([SIG, ihdr(10, 10), IEND]), 'no image data'],
    ['bytes after IEND', Buffer.concat([SIG, ihdr(10, 10), IDAT, IEND, Buffer.from('x')]), 'after its end'],
    ['width 0', Buffer.concat([SIG, ihdr(0, 10), IDAT, IEND]), 'width or height'],
    ['RGB at 4 bits', Buffer.concat([SIG, ihdr(10, 10, 4, 2), IDAT, IEND]), 'bit depth'],
    ['colour type 5', Buffer.concat([SIG, ihdr(10, 10, 8, 5), IDAT, IEND]), 'colour type'],
    ['compression 1', Buffer.concat([SIG, ihdr(10, 10, 8, 6, 1), IDAT, IEND]), 'unknown compression'],
    ['interlace 2', Buffer.concat([SIG, ihdr(10, 10, 8, 6, 0, 0, 2), IDAT, IEND]), 'unknown compression'],
  ])('refuses %s', (_name, buf, words) => {
    const r = readPng(buf);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(words);
  });
});
