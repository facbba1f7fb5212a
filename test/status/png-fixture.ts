/** PNG files built byte by byte for tests: valid ones of any declared size, and damaged ones. */
import { deflateSync } from 'node:zlib';
import { crc32 } from '../../src/status/uploads/png-header';

export { deflateSync };

export function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

export function ihdr(w: number, h: number, depth = 8, color = 6, compression = 0, filter = 0, interlace = 0): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(w, 0);
  d.writeUInt32BE(h, 4);
  d[8] = depth;
  d[9] = color;
  d[10] = compression;
  d[11] = filter;
  d[12] = interlace;
  return chunk('IHDR', d);
}

export const SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const IDAT = chunk('IDAT', deflateSync(Buffer.alloc(10)));
export const IEND = chunk('IEND', Buffer.alloc(0));

export function png(w: number, h: number, ...extra: Buffer[]): Buffer {
  return Buffer.concat([SIG, ihdr(w, h), ...extra, IDAT, IEND]);
}
