/**
 * A badge as SVG (docs/badges.md): a label and a message side by side, in the three styles of
 * shields.io (flat, flat-square, for-the-badge). Text widths come from the measured width table
 * of DejaVu Sans (font-widths.ts), and every text sets `textLength`, so a viewer whose font is
 * another one still fits the text to the box. Accessible: role="img", aria-label and <title>
 * say "label: message". Pure.
 */
import { BOLD_WIDTHS, REGULAR_WIDTHS, WIDTH_RANGES } from './font-widths';

export const BADGE_STYLES = ['flat', 'flat-square', 'for-the-badge'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

export interface Badge {
  label: string;
  message: string;
  /** The message's background, `#rrggbb`; white text on it meets WCAG AA (badge-colours.ts). */
  color: string;
}

/** The label's background: white text on it has a contrast of 10:1. */
export const LABEL_COLOR = '#3c434d';
const FONT_FAMILY = 'DejaVu Sans,Verdana,Geneva,sans-serif';
/** A character outside the table (CJK, emoji): one em, the widest a fallback font is likely to draw it. */
const UNKNOWN_EM = 1000;

interface StyleMetrics {
  height: number;
  fontSize: number;
  bold: boolean;
  /** Space left and right of each text. */
  pad: number;
  /** Extra space after every character (for-the-badge spaces its capitals). */
  letterSpacing: number;
  upper: boolean;
  radius: number;
  gradient: boolean;
  /** The baseline, from the top. */
  baseline: number;
}

const STYLES: Record<BadgeStyle, StyleMetrics> = {
  flat: {
    height: 20,
    fontSize: 11,
    bold: false,
    pad: 6,
    letterSpacing: 0,
    upper: false,
    radius: 3,
    gradient: true,
    baseline: 14,
  },
  'flat-square': {
    height: 20,
    fontSize: 11,
    bold: false,
    pad: 6,
    letterSpacing: 0,
    upper: false,
    radius: 0,
    gradient: false,
    baseline: 14,
  },
  'for-the-badge': {
    height: 28,
    fontSize: 10,
    bold: true,
    pad: 12,
    letterSpacing: 1,
    upper: true,
    radius: 0,
    gradient: false,
    baseline: 18,
  },
};

function emOf(code: number, bold: boolean): number {
  let offset = 0;
  for (const [a, b] of WIDTH_RANGES) {
    if (code >= a && code <= b) return (bold ? BOLD_WIDTHS : REGULAR_WIDTHS)[offset + code - a];
    offset += b - a + 1;
  }
  return UNKNOWN_EM;
}

/** The advance width of `text` in DejaVu Sans at `size` px, from the measured table (kerning aside). */
export function textWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const ch of text) em += emOf(ch.codePointAt(0)!, bold);
  return (em * size) / 1000;
}

/** Text for SVG content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** A short id from the badge's own text (FNV-1a, base 36): the same badge always gets the same one. */
function idOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

export function renderBadge(b: Badge, style: BadgeStyle): string {
  const m = STYLES[style];
  const label = m.upper ? b.label.toUpperCase() : b.label;
  const message = m.upper ? b.message.toUpperCase() : b.message;
  const spaced = (t: string) => textWidth(t, m.fontSize, m.bold) + m.letterSpacing * Math.max(0, [...t].length - 1);
  const lw = round1(spaced(label));
  const mw = round1(spaced(message));
  const left = Math.ceil(lw + 2 * m.pad);
  const right = Math.ceil(mw + 2 * m.pad);
  const width = left + right;
  const h = m.height;
  const said = escapeXml(`${b.label}: ${b.message}`);
  // Ids of its own: badges put inline on one page would otherwise all clip to the first one's shape.
  const id = idOf(`${style}|${width}|${b.color}|${said}`);
  const text = (t: string, x: number, w: number) =>
    // A shadow a pixel below on the flat style, as shields.io draws it (legible on light colours).
    (m.gradient
      ? `<text x="${x}" y="${m.baseline + 1}" fill="#010101" fill-opacity=".3" textLength="${w}" lengthAdjust="spacing">${escapeXml(t)}</text>`
      : '') + `<text x="${x}" y="${m.baseline}" textLength="${w}" lengthAdjust="spacing">${escapeXml(t)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}" role="img" aria-label="${said}">`,
    `<title>${said}</title>`,
    m.gradient
      ? `<linearGradient id="s${id}" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`
      : '',
    `<clipPath id="r${id}"><rect width="${width}" height="${h}" rx="${m.radius}" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r${id})"><rect width="${left}" height="${h}" fill="${LABEL_COLOR}"/><rect x="${left}" width="${right}" height="${h}" fill="${b.color}"/>`,
    m.gradient ? `<rect width="${width}" height="${h}" fill="url(#s${id})"/>` : '',
    '</g>',
    `<g fill="#fff" text-anchor="middle" font-family="${FONT_FAMILY}" font-size="${m.fontSize}"${m.bold ? ' font-weight="bold"' : ''}${m.letterSpacing ? ` letter-spacing="${m.letterSpacing}"` : ''}>`,
    text(label, round1(left / 2), lw),
    text(message, round1(left + right / 2), mw),
    '</g></svg>',
  ].join('');
}
