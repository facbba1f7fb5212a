/**
 * The served documentation: docs/*.md read through the resource helper (so it works inside the
 * single binary), rendered once on first use and kept; the pages' view models; llms.txt. The
 * Markdown renderer is loaded on the first page asked for, not at start.
 */
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { listResources, readResource } from '../common/resources/resources';
import { VERSION } from '../common/version';
import { render, renderText } from '../common/resources/views';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { DocPage, DocsLibrary } from './docs-library';

const CSS_FILE = 'public/docs/docs.css';
/** Pages with at least this many sections get an "On this page" list. */
const TOC_MIN = 4;

export interface Stylesheet {
  text: Buffer;
  /** A hash of the text: the pages link `/docs.css?v=<version>`, which may be cached for good. */
  version: string;
}

/** The rendered library with the helpers the pages need (loaded with it). */
interface Library extends DocsLibrary {
  blurb(lead: string): string;
  escapeHtml(text: string): string;
}

@Injectable()
export class DocsService {
  private library: Promise<Library> | null = null;
  private css: Stylesheet | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The index: every page by section, with the start of its first paragraph. */
  async indexHtml(): Promise<string> {
    const lib = await this.docs();
    const sections = lib.sections.map((s) => ({
      title: s.title,
      pages: s.pages.map((p) => ({ id: p.id, title: p.title, blurb: lib.blurb(p.lead) })),
    }));
    return this.html(lib, 'docs/index', { title: 'Farsight documentation', sections });
  }

  /** One page, or null when there is no page of that name. */
  async pageHtml(id: string): Promise<string | null> {
    const lib = await this.docs();
    const page = lib.page(id);
    return (
      page &&
      this.html(lib, 'docs/page', {
        title: `${page.title} · Farsight docs`,
        current: page.id,
        ...withToc(page, lib.escapeHtml),
      })
    );
  }

  async missingHtml(): Promise<string> {
    return this.html(await this.docs(), 'docs/missing', { title: 'No such page' });
  }

  stylesheet(): Stylesheet {
    if (!this.css) {
      const text = readResource(CSS_FILE);
      this.css = { text, version: createHash('sha256').update(text).digest('hex').slice(0, 12) };
    }
    return this.css;
  }

  /** llms.txt, its links absolute from the public URL. */
  llmsTxt(): string {
    return renderText('docs/llms.txt', { base: this.config.publicUrl.replace(/\/+$/, ''), version: VERSION });
  }

  private html(lib: Library, view: string, model: Record<string, unknown>): string {
    const current = model.current;
    const nav = lib.sections.map((s) => ({
      title: s.title,
      pages: s.pages.map((p) => ({ id: p.id, label: p.label, current: p.id === current })),
    }));
    return render(view, { ...model, nav, css: this.stylesheet().version, version: VERSION }, 'docs/layout');
  }

  private docs(): Promise<Library> {
    this.library ??= Promise.all([import('./docs-library'), import('./docs-markdown')]).then(([library, markdown]) => {
      const files = listResources('docs/')
        .filter((key) => /^docs\/[^/]+\.md$/.test(key))
        .map((key) => ({ id: key.slice('docs/'.length, -'.md'.length), markdown: readResource(key).toString('utf8') }));
      const lib = library.buildLibrary(files);
      return {
        sections: lib.sections,
        page: (id: string) => (library.PAGE_ID.test(id) ? lib.page(id) : null),
        blurb: library.blurb,
        escapeHtml: markdown.escapeHtml,
      };
    });
    return this.library;
  }
}

/**
 * The page with an "On this page" list of its sections when it has several: folded after the
 * title on narrow screens, and as a column beside the text on wide ones (docs.css picks).
 */
function withToc(page: DocPage, escapeHtml: (text: string) => string): { body: string; toc: string | null } {
  const sections = page.headings.filter((h) => h.depth === 2);
  const end = page.html.indexOf('</h1>');
  if (sections.length < TOC_MIN || end < 0) return { body: page.html, toc: null };
  const items = `<ul>${sections.map((h) => `<li><a href="#${h.id}">${escapeHtml(h.text)}</a></li>`).join('')}</ul>`;
  const folded = `<details class="toc"><summary>On this page</summary>${items}</details>`;
  const cut = end + '</h1>'.length;
  return { body: `${page.html.slice(0, cut)}\n${folded}\n${page.html.slice(cut)}`, toc: items };
}
