/**
 * The CSS an SVG logo may carry (its `<style>` elements, `style` attributes and presentation
 * attributes such as `fill`): judged as a browser reads it, not as it is spelt. Pure.
 *
 * A browser removes comments between tokens and reads escapes (`\69`, `\000069 `, `\i`) inside
 * names, strings and URLs, so `@\69mport` is `@import` and `u\72l(` is `url(`. The check therefore
 * looks at a *view* of the text: comments become a space (they only ever separate tokens),
 * escapes are decoded, strings keep their decoded content. Then allow-lists decide:
 * - at-rules: `@media`, `@supports`, `@keyframes` only (no `@import`, `@font-face`, `@namespace`);
 * - functions: colours, maths, transforms, gradients, filters, shapes and selector functions;
 *   `url()` only for a `#fragment` of the same drawing. Everything else (`image-set("x.png")`,
 *   `expression()`, `src()`, a name the view cannot place) is refused.
 * The view may join or split more than the browser does; that only ever refuses more.
 */

const AT_RULES = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes']);

const FUNCTIONS = new Set([
  // colours
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'color',
  'color-mix',
  // maths and custom properties
  'calc',
  'min',
  'max',
  'clamp',
  'var',
  // transforms and timing
  'translate',
  'translatex',
  'translatey',
  'translatez',
  'translate3d',
  'scale',
  'scalex',
  'scaley',
  'scalez',
  'scale3d',
  'rotate',
  'rotatex',
  'rotatey',
  'rotatez',
  'rotate3d',
  'skew',
  'skewx',
  'skewy',
  'matrix',
  'matrix3d',
  'perspective',
  'cubic-bezier',
  'steps',
  // gradients (drawn, never fetched)
  'linear-gradient',
  'radial-gradient',
  'conic-gradient',
  'repeating-linear-gradient',
  'repeating-radial-gradient',
  'repeating-conic-gradient',
  // filter functions
  'drop-shadow',
  'blur',
  'brightness',
  'contrast',
  'grayscale',
  'hue-rotate',
  'invert',
  'opacity',
  'saturate',
  'sepia',
  // basic shapes
  'rect',
  'inset',
  'circle',
  'ellipse',
  'polygon',
  'path',
  // selectors
  'not',
  'is',
  'where',
  'has',
  'nth-child',
  'nth-last-child',
  'nth-of-type',
  'nth-last-of-type',
  'lang',
  'dir',
]);

/** Why this CSS (a stylesheet, a declaration list or one value) cannot be in a logo, or null. */
export function cssProblem(css: string): string | null {
  const view = cssView(css).toLowerCase();
  for (const m of view.matchAll(/@([-\w\u0080-\uffff]*)/g)) {
    if (!AT_RULES.has(m[1]))
      return `the CSS rule @${m[1].slice(0, 40)} (only @media, @supports and @keyframes; no @import)`;
  }
  // Each parenthesis and the name just before it. Walked by hand: a regex that ends in \( would
  // rescan a long name from every one of its characters (quadratic on a 256 KB logo).
  for (let at = view.indexOf('('); at !== -1; at = view.indexOf('(', at + 1)) {
    let from = at;
    while (from > 0 && IDENT_CHAR.test(view[from - 1])) from -= 1;
    const name = view.slice(from, at);
    if (name === '') continue; // a bare parenthesis: a media query's condition
    if (name === 'url') {
      FRAGMENT_ARGUMENT.lastIndex = at + 1;
      if (!FRAGMENT_ARGUMENT.test(view))
        return 'a CSS url() that is not a #fragment of the drawing (style references to other files)';
      continue;
    }
    if (!FUNCTIONS.has(name)) return `the CSS function ${name.slice(0, 40)}() (it may load or run something)`;
  }
  return null;
}

const IDENT_CHAR = /[-\w\u0080-\uffff]/;
/** What may follow `url(`: a `#fragment`, quoted or not. */
const FRAGMENT_ARGUMENT = /\s*["']?\s*#/y;

/** The text as a browser's tokenizer sees it: comments as a space, escapes decoded, in strings too. */
export function cssView(css: string): string {
  let out = '';
  let quote: string | null = null;
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (quote === null && c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      out += ' ';
      i = end === -1 ? css.length : end + 2;
      continue;
    }
    if (c === '\\') {
      const { text, next } = escapeAt(css, i);
      out += text;
      i = next;
      continue;
    }
    if (quote === null && (c === '"' || c === "'")) quote = c;
    else if (quote !== null && (c === quote || c === '\n')) quote = null; // a newline ends a string (a bad string)
    out += c;
    i += 1;
  }
  return out;
}

/** The escape starting at `at` (a backslash): 1 to 6 hex digits and one optional white space, or any one character. */
function escapeAt(css: string, at: number): { text: string; next: number } {
  const hex = /^[0-9a-fA-F]{1,6}/.exec(css.slice(at + 1, at + 7));
  if (hex) {
    let next = at + 1 + hex[0].length;
    if (css[next] === '\r' && css[next + 1] === '\n') next += 2;
    else if (/^[ \t\n\r\f]$/.test(css[next] ?? '')) next += 1;
    const cp = parseInt(hex[0], 16);
    const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    return { text: valid ? String.fromCodePoint(cp) : '\uFFFD', next };
  }
  if (at + 1 >= css.length) return { text: '', next: at + 1 };
  // A backslash before a line break continues a string; elsewhere it stands alone. Either way nothing is added.
  if (css[at + 1] === '\n' || css[at + 1] === '\r' || css[at + 1] === '\f') return { text: '', next: at + 2 };
  const cp = css.codePointAt(at + 1)!;
  const ch = String.fromCodePoint(cp);
  return { text: ch, next: at + 1 + ch.length };
}
