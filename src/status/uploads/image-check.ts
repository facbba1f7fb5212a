/**
 * What an uploaded logo or icon really is: the declared type must match the bytes (sniffed, never
 * trusted), raster sizes come from the file headers (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X) and
 * are bounded before anyone decodes the image, and an SVG must be a plain drawing: no script, no
 * event handlers, no embedded documents, no external references, no DTD (entity expansion). An
 * SVG is stored as `cleanSvg` writes it anew from an allow-list, never as uploaded
 * (svg-clean.ts). SVGs are also only ever served under a sandboxing CSP and shown through <img>. Pure.
 */
import { readPng } from './png-header';
import { cleanSvg } from './svg-clean';

export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** Each side of a raster logo, and its pixel count: a 256 KB file may not unpack to more. */
export const LOGO_MAX_SIDE = 8192;
export const LOGO_MAX_PIXELS = 16 * 1024 * 1024;
export const ICON_MIN = 180;
export const ICON_MAX = 1024;

/** `data` is what to store: the bytes as sent, or for an SVG its clean serialisation. */
export type ImageCheck =
  | { ok: true; type: LogoType; width: number | null; height: number | null; data: Buffer }
  | { ok: false; message: string };

/** The media type of a Content-Type header, or null when it names none of the logo types. */
export function logoType(contentType: string | undefined): LogoType | null {
  const t = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return (LOGO_TYPES as readonly string[]).includes(t) ? (t as LogoType) : null;
}

export function checkLogo(type: LogoType, buf: Buffer): ImageCheck {
  if (buf.length === 0) return { ok: false, message: 'the body is empty' };
  const sniffed = sniff(buf);
  if (sniffed !== type) {
    return {
      ok: false,
      message: `the bytes are ${sniffed === null ? 'not a PNG, JPEG, WebP or SVG image' : `a ${sniffed} image`}, not ${type}`,
    };
  }
  if (type === 'image/svg+xml') {
    const text = svgText(buf);
    if (text === null) return { ok: false, message: 'the SVG is not UTF-8 text' };
    const clean = cleanSvg(text);
    return clean.ok
      ? { ok: true, type, width: null, height: null, data: Buffer.from(clean.svg, 'utf8') }
      : { ok: false, message: clean.message };
  }
  const size = type === 'image/png' ? pngSize(buf) : type === 'image/jpeg' ? jpegSize(buf) : webpSize(buf);
  if ('message' in size) return { ok: false, message: size.message };
  if (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE || size.width * size.height > LOGO_MAX_PIXELS) {
    return {
      ok: false,
      message: `the image is ${size.width} x ${size.height} px; a logo may be at most ${LOGO_MAX_SIDE} px a side and 16 megapixels`,
    };
  }
  return { ok: true, type, width: size.width, height: size.height, data: buf };
}

/** The icon: a square PNG of 180 to 1024 px. */
export function checkIcon(buf: Buffer): ImageCheck {
  if (buf.length === 0) return { ok: false, message: 'the body is empty' };
  const png = readPng(buf);
  if (!png.ok) return { ok: false, message: `the icon ${png.message}` };
  const { width, height } = png.info;
  if (width !== height) return { ok: false, message: `the icon must be square; it is ${width} x ${height} px` };
  if (width < ICON_MIN || width > ICON_MAX)
    return { ok: false, message: `the icon must be ${ICON_MIN} to ${ICON_MAX} px a side; it is ${width} px` };
  return { ok: true, type: 'image/png', width, height, data: buf };
}

/** The type the bytes show, whatever the request said. */
export function sniff(buf: Buffer): LogoType | null {
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  if (looksLikeSvg(buf)) return 'image/svg+xml';
  return null;
}

type Size = { width: number; height: number } | { message: string };

function pngSize(buf: Buffer): Size {
  const png = readPng(buf);
  return png.ok ? { width: png.info.width, height: png.info.height } : { message: `the PNG ${png.message}` };
}

/** The frame size from the first start-of-frame marker, walking the marker segments. */
export function jpegSize(buf: Buffer): Size {
  let at = 2;
  while (at + 4 <= buf.length) {
    if (buf[at] !== 0xff) return { message: 'the JPEG is damaged (a marker is missing)' };
    const marker = buf[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, start of scan: no frame header came first
    const length = buf.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > buf.length) return { message: 'the JPEG is cut short' };
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (length < 7) return { message: 'the JPEG is damaged (a short frame header)' };
      const height = buf.readUInt16BE(at + 5);
      const width = buf.readUInt16BE(at + 7);
      if (width === 0 || height === 0) return { message: 'the JPEG declares no width or height' };
      return { width, height };
    }
    at += 2 + length;
  }
  return { message: 'the JPEG has no frame header' };
}

/** The canvas size of a WebP: simple lossy (VP8), lossless (VP8L) or extended (VP8X). */
export function webpSize(buf: Buffer): Size {
  if (buf.length < 30) return { message: 'the WebP is cut short' };
  if (buf.readUInt32LE(4) + 8 > buf.length)
    return { message: 'the WebP is cut short (its RIFF size is larger than the file)' };
  const chunk = buf.toString('latin1', 12, 16);
  const d = 20;
  if (chunk === 'VP8 ') {
    if (buf[d + 3] !== 0x9d || buf[d + 4] !== 0x01 || buf[d + 5] !== 0x2a)
      return { message: 'the WebP is damaged (no VP8 start code)' };
    return nonZero(buf.readUInt16LE(d + 6) & 0x3fff, buf.readUInt16LE(d + 8) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (buf[d] !== 0x2f) return { message: 'the WebP is damaged (no VP8L signature)' };
    const bits = buf.readUInt32LE(d + 1);
    return nonZero((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return nonZero(buf.readUIntLE(d + 4, 3) + 1, buf.readUIntLE(d + 7, 3) + 1);
  return { message: `the WebP is damaged (unknown first chunk "${chunk.replace(/[^\x20-\x7e]/g, '?')}")` };
}

function nonZero(width: number, height: number): Size {
  return width > 0 && height > 0 ? { width, height } : { message: 'the image declares no width or height' };
}

function svgText(buf: Buffer): string | null {
  const text = buf.toString('utf8');
  // Not UTF-8 (or binary): the round trip changes it.
  if (text.includes('\uFFFD') && !buf.includes(Buffer.from([0xef, 0xbf, 0xbd]))) return null;
  return text.replace(/^\uFEFF/, '');
}

function looksLikeSvg(buf: Buffer): boolean {
  const text = svgText(buf.subarray(0, 4096));
  if (text === null) return false;
  // Prolog (XML declaration, comments, a doctype) then the root element.
  const head = text.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)\s*)*/i, '');
  return /^<svg[\s>/]/i.test(head);
}
