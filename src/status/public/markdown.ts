/**
 * The status page's Markdown (docs/maintenance.md, "Descriptions"): the small subset a window's
 * description may use, rendered to HTML that can only ever hold the tags written here. Pure.
 *
 * - Blocks are separated by blank lines. A block whose first line starts with `- `, `* `, `+ `
 *   is a bulleted list, with `1. ` or `1) ` a numbered one; a line that starts no item continues
 *   the item before it. Any other block is a paragraph, its line breaks kept (`<br>`), as the
 *   plain descriptions before Markdown showed them.
 * - Inline: `**strong**`, `*emphasis*` or `_emphasis_` (not inside a word, so snake_case stays),
 *   `` `code` ``, `[text](url)` for http, https and mailto addresses only (others stay text), with
 *   rel="noopener nofollow"; a backslash shows the next punctuation mark as itself.
 * - Everything else is text: raw HTML, headings, images, quotes and tables are shown as written
 *   (escaped), never interpreted. No attribute but a checked href and the fixed rel is written.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const BULLET = /^[-*+][ \t]+/;
const NUMBERED = /^\d{1,9}[.)][ \t]+/;
const PUNCTUATION = '\\`*_{}[]()#+-.!<>|~"\'';
const LINK = /^\[([^[\]\n]{1,500})\]\(([^()\s]{1,2000})\)/;

/** The HTML of a description (null or blank: ""). */
export function markdownHtml(source: string | null): string {
  if (source === null) return '';
  const blocks = source
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((b) => b.replace(/^\n+|\s+$/g, ''))
    .filter((b) => b.trim().length > 0);
  return blocks.map(block).join('');
}

function block(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const marker = BULLET.test(lines[0]) ? BULLET : NUMBERED.test(lines[0]) ? NUMBERED : null;
  if (marker === null) return `<p>${lines.map((l) => inline(l, true)).join('<br>')}</p>`;
  const items: string[] = [];
  for (const line of lines) {
    if (marker.test(line)) items.push(line.replace(marker, ''));
    else items[items.length - 1] += `\n${line}`;
  }
  const tag = marker === BULLET ? 'ul' : 'ol';
  const lis = items.map(
    (item) =>
      `<li>${item
        .split('\n')
        .map((l) => inline(l, true))
        .join('<br>')}</li>`,
  );
  return `<${tag}>${lis.join('')}</${tag}>`;
}

/** Whether an address may become a link: http(s) with a host, or mailto; nothing a browser would run. */
export function safeHref(url: string): boolean {
  if (!/^(https?:\/\/|mailto:)/i.test(url)) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'mailto:' ? parsed.pathname.length > 0 : parsed.hostname.length > 0;
  } catch {
    return false;
  }
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** One line's inline Markdown as HTML; `links`: false inside a link's own text. */
function inline(src: string, links: boolean): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && i + 1 < src.length && PUNCTUATION.includes(src[i + 1])) {
      out += escapeHtml(src[i + 1]);
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i + 1) {
        out += `<code>${escapeHtml(src.slice(i + 1, end))}</code>`;
        i = end + 1;
        continue;
      }
    }
    if (c === '[' && links) {
      const m = LINK.exec(src.slice(i));
      if (m && safeHref(m[2])) {
        out += `<a href="${escapeHtml(m[2])}" rel="noopener nofollow">${inline(m[1], false)}</a>`;
        i += m[0].length;
        continue;
      }
    }
    if (c === '*' && src[i + 1] === '*') {
      const end = src.indexOf('**', i + 2);
      if (end > i + 2 && src[i + 2] !== ' ' && src[end - 1] !== ' ') {
        out += `<strong>${inline(src.slice(i + 2, end), links)}</strong>`;
        i = end + 2;
        continue;
      }
    }
    if ((c === '*' || c === '_') && !(c === '_' && isWordChar(src[i - 1]))) {
      const end = closing(src, i, c);
      if (end !== -1) {
        out += `<em>${inline(src.slice(i + 1, end), links)}</em>`;
        i = end + 1;
        continue;
      }
    }
    out += escapeHtml(c);
    i += 1;
  }
  return out;
}

/** The closing mark of an emphasis opened at `from`: not after a space, and for `_` not inside a word. */
function closing(src: string, from: number, mark: string): number {
  if (src[from + 1] === undefined || src[from + 1] === ' ' || src[from + 1] === mark) return -1;
  for (let j = from + 2; j < src.length; j++) {
    if (src[j] !== mark || src[j - 1] === ' ' || src[j - 1] === '\\') continue;
    if (mark === '*' && src[j + 1] === '*') {
      j += 1;
      continue;
    }
    if (mark === '_' && isWordChar(src[j + 1])) continue;
    return j;
  }
  return -1;
}
