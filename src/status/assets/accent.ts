/**
 * /status/theme.css: the owner's accent colour made safe to read. Any #rrggbb may be chosen, so
 * the colours the page uses are derived from it: `--ac-ink` (links, the selected tab) reaches
 * 4.5:1 against every surface of the theme, and `--ac-solid` with `--ac-on` (filled buttons, the
 * horizon band) reach 4.5:1 against each other. A stylesheet rather than an inline style, because
 * the page's CSP allows no inline style. Pure.
 */

/** The page's surfaces (status.css uses the same values; a test keeps the two in step). */
export const SURFACES = {
  light: ['#ffffff', '#f6f7f9', '#eef0f4'],
  dark: ['#0d0f14', '#151820', '#1c2029'],
} as const;

const TEXT_CONTRAST = 4.6;

type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function toHex(c: Rgb): string {
  return `#${c
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** WCAG relative luminance. */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

function mix(hex: string, toward: string, share: number): string {
  const a = parseHex(hex);
  const b = parseHex(toward);
  return toHex([0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * share) as Rgb);
}

/** The accent moved toward black or white just far enough to reach `ratio` against every colour given. */
export function readableOn(
  hex: string,
  backgrounds: readonly string[],
  ratio: number,
  toward: '#000000' | '#ffffff',
): string {
  for (let step = 0; step <= 50; step++) {
    const c = mix(hex, toward, step / 50);
    if (backgrounds.every((bg) => contrast(c, bg) >= ratio)) return c;
  }
  return toward;
}

export interface AccentColours {
  ink: string;
  solid: string;
  on: string;
  soft: string;
}

function solidPair(hex: string, darkTheme: boolean): { solid: string; on: string } {
  const white = contrast(hex, '#ffffff');
  const black = contrast(hex, '#0b0c10');
  if (white >= TEXT_CONTRAST) return { solid: hex, on: '#ffffff' };
  if (black >= TEXT_CONTRAST) return { solid: hex, on: '#0b0c10' };
  // A middle tone reaches neither: darken it under white text (lighten under dark text in a dark theme).
  return darkTheme
    ? { solid: readableOn(hex, ['#0b0c10'], TEXT_CONTRAST, '#ffffff'), on: '#0b0c10' }
    : { solid: readableOn(hex, ['#ffffff'], TEXT_CONTRAST, '#000000'), on: '#ffffff' };
}

export function accentColours(hex: string, theme: 'light' | 'dark'): AccentColours {
  const dark = theme === 'dark';
  const ink = readableOn(hex, SURFACES[theme], TEXT_CONTRAST, dark ? '#ffffff' : '#000000');
  const [r, g, b] = parseHex(hex);
  return { ink, ...solidPair(hex, dark), soft: `rgb(${r} ${g} ${b} / ${dark ? 22 : 12}%)` };
}

/** The whole stylesheet for one accent. */
export function themeCss(hex: string): string {
  const vars = (c: AccentColours) =>
    `--ac:${hex};--ac-ink:${c.ink};--ac-solid:${c.solid};--ac-on:${c.on};--ac-soft:${c.soft}`;
  const light = vars(accentColours(hex, 'light'));
  const dark = vars(accentColours(hex, 'dark'));
  return [
    `:root{${light}}`,
    `:root[data-theme=dark]{${dark}}`,
    `@media (prefers-color-scheme:dark){:root[data-theme=auto]{${dark}}}`,
    '',
  ].join('\n');
}
