import { cleanSvg } from './svg-clean';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const doc = (inner: string, rootAttrs = '') => `<svg xmlns="${SVG_NS}"${rootAttrs} viewBox="0 0 10 10">${inner}</svg>`;
/** How every clean SVG starts: the root in the SVG namespace, xlink declared, then the kept attributes. */
const cleanDoc = (inner: string) =>
  `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">${inner}</svg>`;

function refusal(svg: string): string {
  const r = cleanSvg(svg);
  if (r.ok) throw new Error(`accepted: ${r.svg}`);
  return r.message;
}

describe('cleanSvg refuses', () => {
  it.each<[string, string, string]>([
    // The bypasses of issue 42: a prefix, an HTML iframe in a prefixed foreignObject, CSS escapes.
    ['a prefixed script in the SVG namespace', `<x:script xmlns:x="${SVG_NS}">alert(1)</x:script>`, 'a script element'],
    [
      'a prefixed foreignObject with an iframe srcdoc',
      `<x:foreignObject xmlns:x="${SVG_NS}"><iframe xmlns="${XHTML_NS}" srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/></x:foreignObject>`,
      'foreignObject',
    ],
    [
      'an HTML iframe without a foreignObject',
      `<h:iframe xmlns:h="${XHTML_NS}" srcdoc="x"/>`,
      'an HTML element <iframe>',
    ],
    ['an HTML script', `<h:script xmlns:h="${XHTML_NS}">alert(1)</h:script>`, 'an HTML element <script>'],
    ['@\\69mport', '<style>@\\69mport url(https://x.example/a.css);</style>', '@import'],
    [
      '@\\000069 mport (six digits and a space)',
      '<style>@\\000069 mport "https://x.example/a.css";</style>',
      '@import',
    ],
    ['@\\import (any character escaped)', '<style>@\\import "https://x.example/a.css";</style>', '@import'],
    ['@im/**/port', '<style>@im/**/port "https://x.example/a.css";</style>', '@im '],
    ['u\\72l( in a stylesheet', '<style>rect{fill:u\\72l(https://x.example/p.svg#g)}</style>', 'url()'],
    ['u\\72l( in a style attribute', '<rect style="fill:u\\72l(https://x.example/p.svg#g)"/>', 'url()'],
    ['\\75 rl( in a presentation attribute', '<rect fill="\\75 rl(https://x.example/p.svg#g)"/>', 'url()'],
    [
      'a url( hidden between two strings that look like a comment',
      '<style>a{font-family:"/*"}rect{fill:url(https://x.example/p)}b{font-family:"*/"}</style>',
      'url()',
    ],
    ['URL( in capitals', '<rect style="fill:URL(https://x.example/p.svg)"/>', 'url()'],
    ['@import in a CDATA section', '<style><![CDATA[@import url(https://x.example/a.css);]]></style>', '@import'],
    // The classics.
    ['a script', '<script>alert(1)</script>', 'a script element'],
    ['a SCRIPT in capitals', '<SCRIPT/>', 'a script element'],
    ['a script without a namespace (xmlns="")', '<g xmlns=""><script>alert(1)</script></g>', 'a script element'],
    ['a script inside a style', '<style>.a{fill:red}<script>alert(1)</script></style>', 'a script element'],
    ['a handler element', '<handler type="application/ecmascript">alert(1)</handler>', 'a script element'],
    ['a foreignObject', '<foreignObject><div/></foreignObject>', 'foreignObject'],
    ['an iframe element', '<iframe src="https://x.example/"/>', 'embedded documents'],
    ['an onload attribute', '<rect onload="alert(1)"/>', 'event handler'],
    ['an ONCLICK attribute', '<rect ONCLICK="alert(1)"/>', 'event handler'],
    ['a javascript: link', '<a href="javascript:alert(1)"><rect/></a>', 'script URLs'],
    ['a JaVaScRiPt: link', '<a href="JaVaScRiPt:alert(1)"><rect/></a>', 'script URLs'],
    [
      'a javascript: link spelt with a character reference',
      '<a href="&#106;avascript:alert(1)"><rect/></a>',
      'script URLs',
    ],
    ['a javascript: link with a tab inside', '<a href="java&#x09;script:alert(1)"><rect/></a>', 'script URLs'],
    [
      'a javascript: link after spaces',
      '<a xlink:href=" javascript:alert(1)" xmlns:xlink="http://www.w3.org/1999/xlink"><rect/></a>',
      'script URLs',
    ],
    ['a use of another file', '<use href="https://x.example/a.svg#x"/>', 'other files'],
    [
      'a use of another file through xlink',
      '<use xmlns:l="http://www.w3.org/1999/xlink" l:href="other.svg#a"/>',
      'other files',
    ],
    ['an image of another file', '<image href="https://tracker.example/p.png"/>', 'other files'],
    ['an image of an embedded SVG', '<image href="data:image/svg+xml;base64,PHN2Zy8+"/>', 'other files'],
    ['a use of embedded raster data', '<use href="data:image/png;base64,iVBORw0KGgo="/>', 'other files'],
    ['a link to a page', '<a href="https://x.example/"><rect/></a>', 'other files'],
    ['@import', '<style>@import url(https://x.example/a.css);</style>', '@import'],
    ['@font-face', '<style>@font-face{font-family:x;src:url(https://x.example/f.woff)}</style>', '@font-face'],
    ['a fill of another file', '<rect fill="url(https://x.example/p.svg#g)"/>', 'url()'],
    ['image-set() with a string', `<rect style="fill:image-set('x.png' 1x)"/>`, 'image-set()'],
    ['expression()', '<rect style="width:expression(alert(1))"/>', 'expression()'],
    ['a custom property holding a url', '<style>rect{--p:url(https://x.example/p);fill:var(--p)}</style>', 'url()'],
    [
      'an animation that rewrites a link',
      '<a href="#a"><set attributeName="href" to="javascript:alert(1)"/></a>',
      'animation',
    ],
    ['an animate element', '<animate attributeName="fill" to="red"/>', 'animation'],
    ['a DTD', '', 'DTD'],
    ['an entity of its own', '<text>&a;</text>', 'entity reference &a;'],
  ])('%s', (_what, inner, words) => {
    const svg = _what === 'a DTD' ? `<!DOCTYPE svg [<!ENTITY a "aaaa">]>${doc('<text>&a;</text>')}` : doc(inner);
    expect(refusal(svg)).toContain(words);
  });

  it.each<[string, string, string]>([
    ['an element never closed', `<svg xmlns="${SVG_NS}"><g>`, '<g> is never closed'],
    ['an end tag that closes another', doc('<g></rect>'), 'closes <g>'],
    ['a bare &', doc('<text>A & B</text>'), 'write &amp;'],
    ['one attribute twice', doc('<rect x="1" x="2"/>'), 'twice'],
    [
      'one attribute twice through two prefixes',
      doc(
        '<use xmlns:a="http://www.w3.org/1999/xlink" xmlns:b="http://www.w3.org/1999/xlink" a:href="#a" b:href="#b"/>',
      ),
      'twice',
    ],
    ['an undeclared prefix', doc('<x:rect/>'), 'x: is not declared'],
    ['a second root', `${doc('')}<svg xmlns="${SVG_NS}"/>`, 'second root'],
    ['text after the root', `${doc('')}hello`, 'outside the root'],
    ['a root that is not svg', `<g xmlns="${SVG_NS}"/>`, 'must be <svg>'],
    ['a control character', doc('<text>\u0001</text>'), 'character XML does not allow'],
    ['a reference to a control character', doc('<text>&#1;</text>'), 'character reference'],
    ['an unquoted value', doc('<rect x=1/>'), 'not quoted'],
    ['a < in a value', doc('<rect id="a<b"/>'), 'a < in the value'],
    ['nesting past 256', doc('<g>'.repeat(300) + '</g>'.repeat(300)), 'more than 256 deep'],
  ])('a document that is not well-formed: %s', (_what, svg, words) => {
    expect(refusal(svg)).toContain(words);
  });
});

describe('cleanSvg writes anew', () => {
  it.each<[string, string, string]>([
    [
      'a plain drawing, as it was',
      '<rect width="10" height="10" fill="url(#g)"/><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>',
      '<rect width="10" height="10" fill="url(#g)"/><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>',
    ],
    [
      'text, escaped again',
      '<text x="1" y="9">A &amp; B &lt;3 &#60;script&#62;</text>',
      '<text x="1" y="9">A &amp; B &lt;3 &lt;script&gt;</text>',
    ],
    [
      'an embedded raster image',
      '<image href="data:image/png;base64,iVBORw0KGgo="/>',
      '<image href="data:image/png;base64,iVBORw0KGgo="/>',
    ],
    [
      'fragment links, xlink and plain',
      '<use xmlns:l="http://www.w3.org/1999/xlink" l:href="#a"/><use href=" #b"/>',
      '<use xlink:href="#a"/><use href=" #b"/>',
    ],
    ['SVG elements under a prefix, without it', `<s:rect xmlns:s="${SVG_NS}" width="1"/>`, '<rect width="1"/>'],
    [
      'a script in a namespace nobody runs, left out',
      '<x:script xmlns:x="urn:example:other">alert(1)</x:script><rect/>',
      '<rect/>',
    ],
    [
      'editor metadata, left out',
      '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata><i:namedview xmlns:i="http://www.inkscape.org/namespaces/inkscape"/><path d="M0 0"/>',
      '<path d="M0 0"/>',
    ],
    [
      'unknown attributes and xml:base, left out; xml:space kept',
      '<g xml:space="preserve" xml:base="https://x.example/" data-name="a" tabindex="0"><rect/></g>',
      '<g xml:space="preserve"><rect/></g>',
    ],
    [
      'a stylesheet of colours and a media query',
      '<style>.a{fill:#123}@media (prefers-color-scheme:dark){.a{fill:rgb(1,2,3)}} rect > g{stroke:url("#g")}</style>',
      '<style>.a{fill:#123}@media (prefers-color-scheme:dark){.a{fill:rgb(1,2,3)}} rect &gt; g{stroke:url("#g")}</style>',
    ],
    [
      'a CDATA section, as text',
      '<style><![CDATA[.a{fill:red}]]></style><g><![CDATA[<script>alert(1)</script>]]></g>',
      '<style>.a{fill:red}</style><g>&lt;script&gt;alert(1)&lt;/script&gt;</g>',
    ],
    [
      'comments and processing instructions, left out',
      '<!-- a note --><?xml-stylesheet href="https://x.example/a.css"?><rect/>',
      '<rect/>',
    ],
    ['a line break in a value, kept as a reference', '<path d="M0&#10;0 L1\n1"/>', '<path d="M0&#10;0 L1 1"/>'],
    ['transforms', '<g transform="translate(1 2) rotate(45)"/>', '<g transform="translate(1 2) rotate(45)"/>'],
    [
      'an element inside a style, left out',
      '<style>.a{fill:red}<rect/>.b{fill:blue}</style>',
      '<style>.a{fill:red}.b{fill:blue}</style>',
    ],
  ])('%s', (_what, inner, expected) => {
    const r = cleanSvg(doc(inner));
    expect(r).toEqual({ ok: true, svg: cleanDoc(expected) });
    // What it writes, it accepts unchanged.
    if (r.ok) expect(cleanSvg(r.svg)).toEqual(r);
  });

  it('puts a root without a namespace in the SVG namespace, and leaves out a prolog and editor attributes on it', () => {
    const inkscape =
      '<?xml version="1.0"?>\n<!-- Inkscape -->\n<svg xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.3" width="10" height="10"><rect/></svg>\n';
    expect(cleanSvg(inkscape)).toEqual({
      ok: true,
      svg: `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><rect/></svg>`,
    });
  });
});
