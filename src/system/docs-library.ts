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
  /** The page's own title (its H1). */
  title: string;
  /** Its short name in menus and in links written as the file name. */
  label: string;
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

/** The side menu, in reading order, with each page's short name. */
export const SECTIONS: readonly { title: string; pages: readonly (readonly [id: string, label: string])[] }[] = [
  {
    title: 'Contract',
    pages: [
      ['interface', 'Interface contract'],
      ['api', 'API conventions'],
      ['not-shown', 'Where the spec is silent'],
    ],
  },
  {
    title: 'Run it',
    pages: [
      ['install', 'Install'],
      ['configuration', 'Configuration'],
      ['settings', 'Settings'],
      ['security', 'Security'],
      ['passkeys', 'Passkeys and sign-in'],
      ['backup', 'Backup and restore'],
      ['export-import', 'Export and import'],
      ['import-kuma', 'Coming from Uptime Kuma'],
      ['diagnostics', 'Diagnostics'],
      ['metrics', 'Metrics'],
      ['watchdog', 'Watchdog'],
      ['storage', 'Storage'],
      ['packaging', 'Packaging'],
    ],
  },
  {
    title: 'Use it',
    pages: [
      ['monitors', 'Monitors'],
      ['checks', 'Checks'],
      ['incidents', 'Incidents'],
      ['maintenance', 'Maintenance windows'],
      ['dependencies', 'Dependencies'],
      ['agents', 'Probe locations'],
      ['alerts', 'Alerts'],
      ['channels', 'Alert channels'],
      ['status-page', 'Status page'],
      ['badges', 'Badges'],
      ['events', 'Timeline'],
      ['stream', 'Live stream'],
    ],
  },
  {
    title: 'Inside',
    pages: [
      ['architecture', 'Architecture'],
      ['engine', 'Check engine'],
      ['state-machine', 'Monitor status'],
      ['reliability', 'Reliability'],
      ['performance', 'Performance'],
      ['contributing', 'Contributing'],
    ],
  },
];
const LABELS = new Map(SECTIONS.flatMap((s) => s.pages));

/** A page the menu does not name is called by its title, up to a colon or a bracket. */
function labelOf(id: string, markdown: string): string {
  const known = LABELS.get(id);
  if (known) return known;
  const h1 = /^# (.+)$/m.exec(markdown)?.[1].replace(/`/g, '').trim();
  return h1 ? h1.split(/:| \(/)[0].trim() : id;
}

export const PAGE_ID = /^[a-z0-9-]{1,60}$/;

export function buildLibrary(files: readonly DocFile[]): DocsLibrary {
  const served = files.filter((f) => PAGE_ID.test(f.id));
  const labels = new Map(served.map((f) => [f.id, labelOf(f.id, f.markdown)]));
  const pages = new Map<string, DocPage>();
  for (const f of served) {
    const r = renderDoc(f.markdown, labels);
    pages.set(f.id, {
      id: f.id,
      title: r.title || f.id,
      label: labels.get(f.id)!,
      lead: r.lead,
      html: r.html,
      headings: r.headings,
      links: r.links,
    });
  }
  const placed = new Set<string>();
  const sections: DocSection[] = [];
  for (const s of SECTIONS) {
    const list = s.pages.flatMap(([id]) => {
      const p = pages.get(id);
      if (!p) return [];
      placed.add(id);
      return [p];
    });
    if (list.length) sections.push({ title: s.title, pages: list });
  }
  const rest = [...pages.values()].filter((p) => !placed.has(p.id)).sort((a, b) => a.label.localeCompare(b.label));
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
