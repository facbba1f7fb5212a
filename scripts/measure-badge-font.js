#!/usr/bin/env node
// Measures the advance width of every character the badges' width table holds (U+0020-U+007E and
// U+00A0-U+017F), in DejaVu Sans regular and bold, and writes src/status/badges/font-widths.ts.
// Run it again only when the badges' font changes:
//
//   node scripts/measure-badge-font.js
//
// The widths come from Debian's Chromium laying the font file out (canvas measureText at 1000 px,
// so a width in the table is in thousandths of an em), loaded from the font file itself, so the
// table is the font's and not whatever the system would substitute for it. Badges set textLength
// from these widths, so a viewer with another font still draws the text in the same box.
// The function handed to page.evaluate runs in the page, with the browser's globals:
/* global FontFace, document */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const FONTS = {
  regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
};
const RANGES = [
  [0x20, 0x7e],
  [0xa0, 0x17f],
];
const OUT = path.join(__dirname, '..', 'src', 'status', 'badges', 'font-widths.ts');

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.FARSIGHT_CHROMIUM || '/usr/bin/chromium' });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>measure</title>');
    const chars = [];
    for (const [a, b] of RANGES) for (let c = a; c <= b; c++) chars.push(c);
    const tables = {};
    for (const [weight, file] of Object.entries(FONTS)) {
      const b64 = fs.readFileSync(file).toString('base64');
      tables[weight] = await page.evaluate(
        async ({ b64, chars, weight }) => {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const face = new FontFace(`measured-${weight}`, bytes);
          await face.load();
          document.fonts.add(face);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = `1000px measured-${weight}`;
          return chars.map((c) => Math.round(ctx.measureText(String.fromCodePoint(c)).width));
        },
        { b64, chars, weight },
      );
    }
    // One string per weight: 319 numbers as array literals would be 500 lines once formatted.
    const row = (ws) => ws.map(String).join(' ');
    const text = `/**
 * Advance widths of DejaVu Sans (regular and bold) in thousandths of an em, for U+0020-U+007E then
 * U+00A0-U+017F: measured from the font files by scripts/measure-badge-font.js (Chromium laying
 * out each character of the font file at 1000 px). Generated: do not edit by hand.
 */
export const WIDTH_RANGES: readonly (readonly [number, number])[] = ${JSON.stringify(RANGES)};
export const REGULAR_WIDTHS: readonly number[] = parse('${row(tables.regular)}');
export const BOLD_WIDTHS: readonly number[] = parse('${row(tables.bold)}');

function parse(widths: string): number[] {
  return widths.split(' ').map(Number);
}
`;
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, text);
    process.stdout.write(`wrote ${OUT}: ${chars.length} characters in two weights\n`);
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
