/**
 * Markdown of docs/ to HTML for /docs/<page>: GitHub-style heading ids (so `page.md#anchor` links
 * written for the repository keep working), links between pages rewritten to /docs/<page>, links
 * to files that are not served dropped to their text, raw HTML shown as text (the pages carry
 * nothing but what the Markdown says), tables wrapped so they scroll on a phone. Pure.
 */
import { Marked, Renderer, Tokens } from 'marked';

export interface Heading {
  depth: number;
  id: string;
  text: string;
}

export interface RenderedDoc {
  title: string;
  /** The first paragraph's text (the index page shows it). */
  lead: string;
  html: string;
  headings: Heading[];
  /** Every href the page links to after rewriting (for tests: none may be dead). */
  links: string[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, ... */
export function slugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base);
    seen.set(base, (n ?? -1) + 1);
    return n === undefined ? base : `${base}-${n + 1}`;
  };
}

/**
 * Where a link of a docs page points once served: another page (`x.md#a` → `/docs/x#a`, also
 * `docs/<page>.md` as README writes it), an anchor, an absolute http(s) or mailto address, or a served
 * path, or a picture under docs/images/ (`images/x.png` → `/docs/images/x.png`); null for a file
 * that is not served (`../src/...`), whose link is then dropped.
 */
export function rewriteHref(href: string, pages: ReadonlyMap<string, string> | ReadonlySet<string>): string | null {
  if (/^(https?:|mailto:)/i.test(href) || href.startsWith('#')) return href;
  if (href.startsWith('/')) return href.startsWith('//') ? null : href;
  const image = /^(?:\.\/)?(?:docs\/)?images\/([a-z0-9][a-z0-9._-]{0,100})$/i.exec(href);
  if (image && !image[1].includes('..')) return `/docs/images/${image[1]}`;
  const m = /^(?:\.\/)?(?:docs\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/i.exec(href);
  if (m && pages.has(m[1].toLowerCase())) return `/docs/${m[1].toLowerCase()}${m[2] ?? ''}`;
  return null;
}

/**
 * `pages`: every served page by id, with its short name. A link whose text is just the file name
 * (`[stream.md](stream.md)`, natural in the repository) shows the page's name instead.
 */
export function renderDoc(markdown: string, pages: ReadonlyMap<string, string>): RenderedDoc {
  const slug = slugger();
  const headings: Heading[] = [];
  const links: string[] = [];
  let title = '';
  let lead = '';
  let quoted = 0;
  const renderer = new Renderer();
  const base = new Renderer();
  const plain = (r: Renderer, tokens: Tokens.Generic[]): string => r.parser.parseInline(tokens, r.parser.textRenderer);

  renderer.heading = function ({ tokens, depth }: Tokens.Heading): string {
    const text = unescape(plain(this, tokens));
    const id = slug(text);
    headings.push({ depth, id, text });
    const inner = this.parser.parseInline(tokens);
    if (depth === 1) {
      if (!title) title = text;
      return `<h1 id="${id}">${inner}</h1>\n`;
    }
    return `<h${depth} id="${id}"><a class="self" href="#${id}">${inner}</a></h${depth}>\n`;
  };
  renderer.blockquote = function (token: Tokens.Blockquote): string {
    quoted++;
    const html = base.blockquote.call(this, token);
    quoted--;
    return html;
  };
  renderer.paragraph = function (token: Tokens.Paragraph): string {
    if (!lead && title && quoted === 0) lead = unescape(plain(this, token.tokens)).replace(/\s+/g, ' ').trim();
    return base.paragraph.call(this, token);
  };
  renderer.link = function ({ href, title: t, tokens }: Tokens.Link): string {
    let inner = this.parser.parseInline(tokens);
    const to = rewriteHref(href, pages);
    if (to === null) return inner;
    const file = /^\/docs\/([a-z0-9-]+)/.exec(to)?.[1];
    if (file && new RegExp(`^(docs/)?${file}\\.md(#.*)?$`).test(unescape(plain(this, tokens))))
      inner = escapeHtml(pages.get(file) ?? file);
    links.push(to);
    const external = /^https?:/i.test(to);
    return `<a href="${escapeHtml(to)}"${t ? ` title="${escapeHtml(t)}"` : ''}${external ? ' rel="noopener noreferrer"' : ''}>${inner}</a>`;
  };
  // Pictures from docs/images/ are shown (served beside the pages); any other is its text.
  renderer.image = ({ href, text }: Tokens.Image): string => {
    const src = rewriteHref(href, pages);
    if (src === null || !src.startsWith('/docs/images/')) return escapeHtml(text);
    links.push(src);
    return `<img src="${escapeHtml(src)}" alt="${escapeHtml(text)}" loading="lazy" decoding="async">`;
  };
  renderer.html = ({ text }: Tokens.HTML | Tokens.Tag): string => escapeHtml(text);
  renderer.table = function (token: Tokens.Table): string {
    return `<div class="table-wrap" tabindex="0">${base.table.call(this, token)}</div>\n`;
  };

  const html = new Marked({ gfm: true, renderer }).parse(markdown, { async: false });
  return { title, lead, html, headings, links };
}

/** The text renderer escapes; headings' plain text and the lead are shown through the templates' own escaping. */
function unescape(s: string): string {
  return s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? _,
  );
}
