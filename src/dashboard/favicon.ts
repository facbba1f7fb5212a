/**
 * `/favicon.ico`: browsers and feed readers ask for it whatever the page links, and a 404 on every
 * first visit is noise in logs and in the browser's console. The answer is the dashboard's icon
 * as an ICO file holding one PNG image (allowed since Windows Vista; every current browser reads
 * it). Pure.
 */

/** The PNG's width and height from its IHDR chunk (bytes 16-23). */
function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.readUInt32BE(0) !== 0x89504e47 || png.toString('latin1', 12, 16) !== 'IHDR')
    throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** An ICO file of one image, the PNG as it is: a 6-byte header, one 16-byte directory entry, the PNG. */
export function icoOfPng(png: Buffer): Buffer {
  const { width, height } = pngSize(png);
  if (width > 256 || height > 256) throw new Error('an ICO image is at most 256 x 256');
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(width === 256 ? 0 : width, 6); // 0 means 256
  head.writeUInt8(height === 256 ? 0 : height, 7);
  head.writeUInt8(0, 8); // no palette
  head.writeUInt8(0, 9); // reserved
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(22, 18); // where the image starts
  return Buffer.concat([head, png]);
}
