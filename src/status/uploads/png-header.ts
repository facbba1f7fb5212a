/**
 * Reads a PNG's size and layout from its header (IHDR) and checks its chunk structure, without
 * decoding a single pixel. The size comes from the header, so an image that would unpack to
 * gigabytes (a decompression bomb: a few KB of zeros declared as 50,000 x 50,000) is refused
 * before anything, here or in a visitor's browser, inflates it. Pure.
 */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
  /** Bytes the image needs once inflated (rows with their filter byte), from the header alone. */
  rawBytes: number;
}

export type PngRead = { ok: true; info: PngInfo } | { ok: false; message: string };

/** Bit depths each colour type allows (PNG spec, 11.2.2). */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

let crcTable: Uint32Array | null = null;
export function crc32(buf: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = crcTable[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function isPng(buf: Buffer): boolean {
  return buf.length >= 8 && buf.subarray(0, 8).equals(SIGNATURE);
}

/**
 * The header of a whole PNG file, after checking that: it starts with the signature; IHDR comes
 * first with valid fields; every chunk fits in the file and has a correct CRC; there is image
 * data; IEND ends the file.
 */
export function readPng(buf: Buffer): PngRead {
  if (!isPng(buf)) return { ok: false, message: 'is not a PNG file (the signature is missing)' };
  let at = 8;
  let info: PngInfo | null = null;
  let sawData = false;
  for (let index = 0; ; index++) {
    if (at + 12 > buf.length) return { ok: false, message: 'is cut short (it does not end with IEND)' };
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    if (length > 0x7fffffff || at + 12 + length > buf.length)
      return { ok: false, message: `is cut short (chunk ${type} runs past the end)` };
    const body = buf.subarray(at + 8, at + 8 + length);
    if (crc32(buf.subarray(at + 4, at + 8 + length)) !== buf.readUInt32BE(at + 8 + length)) {
      return { ok: false, message: `is damaged (chunk ${type} fails its checksum)` };
    }
    if (index === 0) {
      if (type !== 'IHDR' || length !== 13) return { ok: false, message: 'is damaged (IHDR is not the first chunk)' };
      const header = parseIhdr(body);
      if (!header.ok) return header;
      info = header.info;
    } else if (type === 'IHDR') {
      return { ok: false, message: 'is damaged (a second IHDR)' };
    }
    if (type === 'IDAT') sawData = true;
    at += 12 + length;
    if (type === 'IEND') {
      if (at !== buf.length) return { ok: false, message: 'has data after its end (IEND)' };
      if (!sawData) return { ok: false, message: 'has no image data (IDAT)' };
      return { ok: true, info: info! };
    }
  }
}

function parseIhdr(d: Buffer): PngRead {
  const width = d.readUInt32BE(0);
  const height = d.readUInt32BE(4);
  const [bitDepth, colorType, compression, filter, interlace] = [d[8], d[9], d[10], d[11], d[12]];
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) {
    return { ok: false, message: 'is damaged (its width or height is 0 or too large)' };
  }
  if (!DEPTHS[colorType]?.includes(bitDepth))
    return { ok: false, message: `is damaged (colour type ${colorType} with bit depth ${bitDepth})` };
  if (compression !== 0 || filter !== 0 || interlace > 1)
    return { ok: false, message: 'is damaged (unknown compression, filter or interlace method)' };
  const rowBytes = Math.ceil((width * bitDepth * CHANNELS[colorType]) / 8) + 1;
  return {
    ok: true,
    info: { width, height, bitDepth, colorType, interlaced: interlace === 1, rawBytes: rowBytes * height },
  };
}
