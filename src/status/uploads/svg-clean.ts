/**
 * An SVG logo, parsed as XML and written anew from an allow-list (issue 42): what is stored and
 * served is our own serialisation, never the uploaded text, so no spelling the filter did not
 * foresee (a namespace prefix, an entity, a CSS escape) can reach a browser. Pure.
 *
 * 1. Parse: well-formed XML with namespaces; no DTD (entities could expand or hide names), only
 *    the five predefined entities and character references. Comments and processing
 *    instructions are read and left out.
 * 2. Judge each element by its namespace URI and local name, after resolving prefixes:
 *    - refused, with a message: script, embedded documents or media (foreignObject, any HTML
 *      element), animation (it can rewrite a link or a style after this check);
 *    - kept: the drawing elements of the allow-list below;
 *    - left out with everything in it: anything else (editor metadata such as Inkscape's, SVG
 *      elements that draw nothing in a logo).
 * 3. Judge each attribute of a kept element the same way: `on...` handlers are refused; `href`
 *    and `xlink:href` may only name a `#fragment` (and `<image>`/`<feImage>` an embedded PNG,
 *    JPEG, GIF or WebP); `style` and presentation attributes are CSS and pass `cssProblem`; the
 *    other attributes of the allow-list are kept; the rest (editor attributes, `xml:base`) is
 *    left out. `<style>` text passes `cssProblem` as a whole.
 * 4. Write: one root `<svg>` in the SVG namespace, names without prefixes (`xlink:href`,
 *    `xml:space`, `xml:lang` excepted), every value and text escaped.
 */
import { cssProblem } from './svg-css';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const MAX_DEPTH = 256;

const ELEMENTS = new Set(
  (
    'svg g defs symbol use title desc switch a style path rect circle ellipse line polyline polygon text tspan textPath ' +
    'linearGradient radialGradient stop pattern clipPath mask marker image filter feBlend feColorMatrix feComponentTransfer ' +
    'feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB ' +
    'feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting ' +
    'feSpotLight feTile feTurbulence'
  ).split(' '),
);

/** Refused by lower-case local name, in the SVG namespace or none (an HTML element is refused whatever its name). */
const REFUSED: Record<string, string> = {
  script: 'a script element',
  handler: 'a script element',
  listener: 'a script element',
  foreignobject: 'embedded documents or media (foreignObject)',
  iframe: 'embedded documents or media',
  embed: 'embedded documents or media',
  object: 'embedded documents or media',
  audio: 'embedded documents or media',
  video: 'embedded documents or media',
  canvas: 'embedded documents or media',
  animate: 'animation elements (they can change a link or a style after this check)',
  set: 'animation elements (they can change a link or a style after this check)',
  animatemotion: 'animation elements (they can change a link or a style after this check)',
  animatetransform: 'animation elements (they can change a link or a style after this check)',
  animatecolor: 'animation elements (they can change a link or a style after this check)',
  discard: 'animation elements (they can change a link or a style after this check)',
};

/** Attributes kept as they are: geometry, structure, gradients, filters, text layout. None of them loads anything. */
const PLAIN = new Set(
  (
    'id class x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height d points pathLength viewBox preserveAspectRatio version ' +
    'gradientUnits gradientTransform spreadMethod offset patternUnits patternContentUnits patternTransform clipPathUnits ' +
    'maskUnits maskContentUnits markerUnits markerWidth markerHeight refX refY orient filterUnits primitiveUnits in in2 ' +
    'result stdDeviation dx dy mode operator k1 k2 k3 k4 type values tableValues slope intercept amplitude exponent order ' +
    'kernelMatrix divisor bias targetX targetY edgeMode kernelUnitLength preserveAlpha surfaceScale diffuseConstant ' +
    'specularConstant specularExponent azimuth elevation pointsAtX pointsAtY pointsAtZ limitingConeAngle scale ' +
    'xChannelSelector yChannelSelector radius baseFrequency numOctaves seed stitchTiles rotate lengthAdjust textLength ' +
    'startOffset method spacing side systemLanguage media lang role'
  ).split(' '),
);

/** Presentation attributes: a browser reads their values as CSS (`fill="url(...)"`), so they pass `cssProblem`. */
const PRESENTATION = new Set(
  (
    'alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation color-interpolation-filters ' +
    'color-rendering direction display dominant-baseline enable-background fill fill-opacity fill-rule filter flood-color ' +
    'flood-opacity font font-family font-size font-size-adjust font-stretch font-style font-variant font-weight ' +
    'glyph-orientation-horizontal glyph-orientation-vertical image-rendering kerning letter-spacing lighting-color marker ' +
    'marker-end marker-mid marker-start mask mask-type opacity overflow paint-order pointer-events shape-rendering ' +
    'stop-color stop-opacity stroke stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit ' +
    'stroke-opacity stroke-width text-anchor text-decoration text-rendering transform transform-origin unicode-bidi ' +
    'vector-effect visibility word-spacing writing-mode style'
  ).split(' '),
);

/** Embedded raster data an `<image>` or `<feImage>` may show: decoded here, never fetched. */
const RASTER_DATA = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;

export type SvgClean = { ok: true; svg: string } | { ok: false; message: string };

class Refused extends Error {}

const NAME_START =
  'A-Za-z_\\u00C0-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
/** A qualified name: an optional prefix, then a local name. */
// eslint-disable-next-line no-misleading-character-class -- XML's NameChar includes the combining marks
const QNAME = new RegExp(`(?:([${NAME_START}][${NAME_CHAR}]*):)?([${NAME_START}][${NAME_CHAR}]*)`, 'y');
/** Characters XML 1.0 allows (surrogate pairs are checked as pairs: a lone half never comes out of UTF-8). */
const BAD_CHAR =
  /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\uD800-\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface Open {
  qname: string;
  scope: ReadonlyMap<string, string | null>;
  /** Written to the output (the element and every ancestor are kept). */
  kept: boolean;
  /** Written as `<style>`: its text is collected and judged as one stylesheet at the end tag. */
  style: string | null;
}

/** The SVG written anew from the allow-list, or why it cannot be a logo. */
export function cleanSvg(source: string): SvgClean {
  try {
    return { ok: true, svg: new Cleaner(source.replace(/\r\n?/g, '\n')).run() };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, message: err.message };
    throw err;
  }
}

const malformed = (what: string) => new Refused(`the SVG is not well-formed XML (${what})`);
const contains = (what: string) => new Refused(`the SVG contains ${what}; upload a plain drawing`);

class Cleaner {
  private i = 0;
  private readonly out: string[] = [];
  private readonly stack: Open[] = [];
  private rootDone = false;

  constructor(private readonly s: string) {}

  run(): string {
    if (BAD_CHAR.test(this.s)) throw malformed('a character XML does not allow');
    const s = this.s;
    while (this.i < s.length) {
      const lt = s.indexOf('<', this.i);
      this.text(s.slice(this.i, lt === -1 ? s.length : lt), true);
      if (lt === -1) break;
      this.i = lt;
      if (s.startsWith('<!--', lt)) this.i = this.after('-->', lt + 4, 'a comment');
      else if (s.startsWith('<![CDATA[', lt)) {
        const end = this.after(']]>', lt + 9, 'a CDATA section');
        this.text(s.slice(lt + 9, end - 3), false);
        this.i = end;
      } else if (/^<!DOCTYPE/i.test(s.slice(lt, lt + 9)) || s.startsWith('<!ENTITY', lt))
        throw contains('a DTD or entity declarations');
      else if (s.startsWith('<!', lt)) throw malformed('an unknown <! declaration');
      else if (s.startsWith('<?', lt)) this.i = this.after('?>', lt + 2, 'a processing instruction');
      else if (s.startsWith('</', lt)) this.endTag();
      else this.startTag();
    }
    if (this.stack.length) throw malformed(`<${this.stack[this.stack.length - 1].qname}> is never closed`);
    if (!this.rootDone) throw malformed('no root element');
    return this.out.join('');
  }

  /** The index just past `end`, searched from `from`. */
  private after(end: string, from: number, what: string): number {
    const at = this.s.indexOf(end, from);
    if (at === -1) throw malformed(`${what} that never ends`);
    return at + end.length;
  }

  private text(raw: string, decode: boolean): void {
    if (raw === '') return;
    const top = this.stack[this.stack.length - 1];
    const value = decode ? decodeEntities(raw) : raw;
    if (!top) {
      if (value.trim() !== '') throw malformed('text outside the root element');
      return;
    }
    if (!top.kept) return;
    if (top.style !== null) top.style += value;
    else this.out.push(escapeText(value));
  }

  private name(): { prefix: string | null; local: string; qname: string } {
    QNAME.lastIndex = this.i;
    const m = QNAME.exec(this.s);
    if (!m) throw malformed(`a name expected at character ${this.i}`);
    this.i = QNAME.lastIndex;
    return { prefix: m[1] ?? null, local: m[2], qname: m[0] };
  }

  private spaces(): boolean {
    const from = this.i;
    while (/[ \t\n]/.test(this.s[this.i] ?? '')) this.i += 1;
    return this.i > from;
  }

  private startTag(): void {
    if (this.rootDone) throw malformed('a second root element');
    if (this.stack.length >= MAX_DEPTH) throw new Refused(`the SVG nests elements more than ${MAX_DEPTH} deep`);
    this.i += 1;
    const el = this.name();
    const raw: { prefix: string | null; local: string; qname: string; value: string }[] = [];
    const names = new Set<string>();
    let selfClosing = false;
    for (;;) {
      const spaced = this.spaces();
      if (this.s.startsWith('/>', this.i)) {
        selfClosing = true;
        this.i += 2;
        break;
      }
      if (this.s[this.i] === '>') {
        this.i += 1;
        break;
      }
      if (this.i >= this.s.length) throw malformed(`<${el.qname}> is cut short`);
      if (!spaced) throw malformed(`no space before an attribute of <${el.qname}>`);
      const a = this.name();
      this.spaces();
      if (this.s[this.i] !== '=') throw malformed(`the attribute ${a.qname} has no value`);
      this.i += 1;
      this.spaces();
      const q = this.s[this.i];
      if (q !== '"' && q !== "'") throw malformed(`the value of ${a.qname} is not quoted`);
      const end = this.s.indexOf(q, this.i + 1);
      if (end === -1) throw malformed(`the value of ${a.qname} never ends`);
      const rawValue = this.s.slice(this.i + 1, end);
      if (rawValue.includes('<')) throw malformed(`a < in the value of ${a.qname}`);
      this.i = end + 1;
      if (names.has(a.qname)) throw malformed(`${a.qname} twice on <${el.qname}>`);
      names.add(a.qname);
      // Attribute-value normalisation (XML 1.0, 3.3.3): literal white space becomes a space; character references stay.
      raw.push({ ...a, value: decodeEntities(rawValue.replace(/[\t\n]/g, ' ')) });
    }

    const parent = this.stack[this.stack.length - 1];
    // A new scope only where namespaces are declared; other elements share their parent's.
    const declarations = raw.filter((a) => a.prefix === 'xmlns' || (a.prefix === null && a.local === 'xmlns'));
    let scope: ReadonlyMap<string, string | null> = parent?.scope ?? new Map([['xml', XML_NS]]);
    if (declarations.length) {
      const own = new Map(scope);
      for (const a of declarations) {
        if (a.prefix === null) own.set('', a.value === '' ? null : a.value);
        else if (
          a.local === 'xml' ||
          a.local === 'xmlns' ||
          a.value === '' ||
          a.value === XML_NS ||
          a.value === XMLNS_NS
        )
          throw malformed(`the namespace declaration ${a.qname}`);
        else own.set(a.local, a.value);
      }
      scope = own;
    }
    const resolve = (prefix: string | null): string | null => {
      if (prefix === null) return null;
      const ns = scope.get(prefix);
      if (ns === undefined || ns === null) throw malformed(`the prefix ${prefix}: is not declared`);
      return ns;
    };
    // An unprefixed element is in the default namespace; with none declared, it is read as SVG (and judged as such).
    const elNs = el.prefix === null ? (scope.get('') ?? SVG_NS) : resolve(el.prefix);
    // Judged wherever it stands (a script is refused, not dropped); inside <style> only text counts, so an element there is left out.
    const judged = judgeElement(elNs, el.local);
    const verdict = parent && parent.style !== null ? 'drop' : judged;
    if (!parent && !(verdict === 'keep' && el.local === 'svg'))
      throw new Refused('the root element of the SVG must be <svg>');
    const kept = verdict === 'keep' && (parent?.kept ?? true);

    const attrs: string[] = [];
    const seen = new Set<string>();
    for (const a of raw) {
      if (a.prefix === 'xmlns' || (a.prefix === null && a.local === 'xmlns')) continue;
      const ns = resolve(a.prefix);
      const expanded = `${ns ?? ''} ${a.local}`;
      if (seen.has(expanded)) throw malformed(`${a.qname} twice on <${el.qname}>`);
      seen.add(expanded);
      if (!kept) continue;
      const name = attributeName(ns, a.local, a.value, el.local);
      if (name !== null) attrs.push(` ${name}="${escapeAttribute(a.value)}"`);
    }

    if (kept) {
      const root = parent ? '' : ` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"`;
      this.out.push(`<${el.local}${root}${attrs.join('')}${selfClosing ? '/>' : '>'}`);
    }
    if (selfClosing) {
      if (!parent) this.rootDone = true;
      return;
    }
    this.stack.push({ qname: el.qname, scope, kept, style: kept && el.local === 'style' ? '' : null });
  }

  private endTag(): void {
    this.i += 2;
    const { qname } = this.name();
    this.spaces();
    if (this.s[this.i] !== '>') throw malformed(`</${qname} is cut short`);
    this.i += 1;
    const open = this.stack.pop();
    if (!open || open.qname !== qname) throw malformed(`</${qname}> closes ${open ? `<${open.qname}>` : 'nothing'}`);
    if (open.style !== null) {
      const problem = cssProblem(open.style);
      if (problem) throw contains(`${problem} in a <style> element`);
      this.out.push(escapeText(open.style));
    }
    if (open.kept) this.out.push(`</${qname.slice(qname.indexOf(':') + 1)}>`);
    if (this.stack.length === 0) this.rootDone = true;
  }
}

function judgeElement(ns: string | null, local: string): 'keep' | 'drop' {
  if (ns === XHTML_NS) throw contains(`an HTML element <${local.slice(0, 40)}> (an embedded document)`);
  if (ns !== SVG_NS && ns !== null) return 'drop';
  const refused = REFUSED[local.toLowerCase()];
  if (refused) throw contains(refused);
  return ELEMENTS.has(local) ? 'keep' : 'drop';
}

/** The name a kept element's attribute is written under, or null to leave it out; throws for what is refused. */
function attributeName(ns: string | null, local: string, value: string, element: string): string | null {
  if (ns === XLINK_NS) {
    if (local !== 'href') return null;
    checkHref(value, element);
    return 'xlink:href';
  }
  if (ns === XML_NS) return local === 'space' || local === 'lang' ? `xml:${local}` : null;
  if (ns !== null) return null;
  if (/^on/i.test(local)) throw contains('event handler attributes (on...=)');
  if (local === 'href') {
    checkHref(value, element);
    return 'href';
  }
  if (PRESENTATION.has(local)) {
    const problem = cssProblem(value);
    if (problem) throw contains(`${problem} in the attribute ${local}`);
    return local;
  }
  return PLAIN.has(local) ? local : null;
}

/** A link may only name a part of this drawing; an image may also be embedded raster data. */
function checkHref(value: string, element: string): void {
  // As a URL parser reads it: leading and trailing C0 controls and spaces dropped, tabs and line breaks removed.
  const url = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (url.startsWith('#')) return;
  if ((element === 'image' || element === 'feImage') && RASTER_DATA.test(url)) return;
  if (/^[a-z][a-z0-9+.-]*script:/i.test(url)) throw contains('script URLs');
  throw contains(
    'links or references to other files (only #fragments, and embedded PNG, JPEG, GIF or WebP data in an image)',
  );
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string): string {
  return raw.replace(/&([^;&]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw malformed('an & that starts no reference (write &amp;)');
    if (ENTITIES[body] !== undefined) return ENTITIES[body];
    const m = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
    if (!m)
      throw contains(
        `the entity reference &${body.slice(0, 40)}; (only &lt; &gt; &amp; &quot; &apos; and character references)`,
      );
    const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2], 10);
    const ok =
      cp === 0x9 ||
      cp === 0xa ||
      cp === 0xd ||
      (cp >= 0x20 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0xfffd) ||
      (cp >= 0x10000 && cp <= 0x10ffff);
    if (!ok) throw malformed(`the character reference &${body};`);
    return String.fromCodePoint(cp);
  });
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

function escapeAttribute(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
