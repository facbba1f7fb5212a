/**
 * The served documentation: every `docs/*.md` is a page `/docs/<name>`, grouped into the sections
 * of the side menu. A page not named below still appears (under "More"), so a new doc is served
 * without touching this file. Pure: it is handed the files.
 */
import { Heading, renderDoc } from './docs-markdown';

export interface DocFile {
  /** The file name without `.md`: the page's address. */
  id: string;
  markdown: string;
}

export interface DocPage {
  id: string;
  title: string;
  lead: string;
  html: string;
  headings: Heading[];
  links: string[];
}

export interface DocSection {
  title: string;
  pages: DocPage[];
}

export interface DocsLibrary {
  sections: DocSection[];
  page(id: string): DocPage | null;
}

/** The side menu, in reading order. */
export const SECTIONS: readonly { title: string; pages: readonly string[] }[] = [
  { title: 'Contract', pages: ['interface', 'api', 'not-shown'] },
  { title: 'Run it', pages: ['install', 'configuration', 'security', 'storage', 'packaging'] },
  { title: 'Use it', pages: ['monitors', 'checks', 'incidents', 'alerts', 'channels', 'events', 'stream'] },
  { title: 'Inside', pages: ['architecture', 'engine', 'state-machine', 'performance'] },
];

export const PAGE_ID = /^[a-z0-9-]{1,60}$/;

export function buildLibrary(files: readonly DocFile[]): DocsLibrary {
  const ids = new Set(files.map((f) => f.id).filter((id) => PAGE_ID.test(id)));
  const pages = new Map<string, DocPage>();
  for (const f of files) {
    if (!ids.has(f.id)) continue;
    const r = renderDoc(f.markdown, ids);
    pages.set(f.id, { id: f.id, title: r.title || f.id, lead: r.lead, html: r.html, headings: r.headings, links: r.links });
  }
  const placed = new Set<string>();
  const sections: DocSection[] = [];
  for (const s of SECTIONS) {
    const list = s.pages.flatMap((id) => {
      const p = pages.get(id);
      if (!p) return [];
      placed.add(id);
      return [p];
    });
    if (list.length) sections.push({ title: s.title, pages: list });
  }
  const rest = [...pages.values()].filter((p) => !placed.has(p.id)).sort((a, b) => a.title.localeCompare(b.title));
  if (rest.length) sections.push({ title: 'More', pages: rest });
  return { sections, page: (id) => pages.get(id) ?? null };
}

/** The first sentence or two of a page's lead, at most about `max` characters, cut at a word. */
export function blurb(lead: string, max = 180): string {
  if (lead.length <= max) return lead;
  const sentence = lead.slice(0, max).lastIndexOf('. ');
  if (sentence > max / 2) return lead.slice(0, sentence + 1);
  const space = lead.slice(0, max).lastIndexOf(' ');
  return `${lead.slice(0, space > 0 ? space : max)}…`;
}
