import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { Public } from '../common/access';
import { listResources, readResource } from '../common/resources';
import { VERSION } from '../common/version';
import { render, renderText } from '../common/views';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { blurb, buildLibrary, DocPage, DocsLibrary, PAGE_ID } from './docs-library';
import { escapeHtml } from './docs-markdown';

/** The pages carry one stylesheet and nothing else: no script, no inline style, no frames. */
export const DOCS_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const CSS_FILE = 'public/docs/docs.css';
/** Pages with at least this many sections get an "On this page" list. */
const TOC_MIN = 4;

/**
 * The served documentation (`/docs`, `/docs/<page>`: docs/*.md rendered to HTML, the interface
 * contract among them), its stylesheet, and `/llms.txt`. All public. The files ship inside the
 * single binary like views/ (common/resources.ts); they are read and rendered once, on first use.
 */
@Public()
@Controller()
export class DocsController {
  private library: DocsLibrary | null = null;
  private css: { text: Buffer; version: string } | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('docs')
  index(@Res() res: Response): void {
    const lib = this.docs();
    const sections = lib.sections.map((s) => ({ title: s.title, pages: s.pages.map((p) => ({ id: p.id, title: p.title, blurb: blurb(p.lead) })) }));
    this.page(res, 200, 'docs/index', { title: 'Farsight documentation', sections });
  }

  @Get('docs/:page')
  docPage(@Param('page') id: string, @Res() res: Response): void {
    const page = PAGE_ID.test(id) ? this.docs().page(id) : null;
    if (!page) return this.page(res, 404, 'docs/missing', { title: 'No such page' });
    this.page(res, 200, 'docs/page', { title: `${page.title} · Farsight docs`, current: page.id, ...withToc(page) });
  }

  @Get('docs.css')
  stylesheet(@Query('v') v: unknown, @Res() res: Response): void {
    const css = this.stylesheetFile();
    res.setHeader('Content-Type', 'text/css; charset=utf-8');
    res.setHeader('Cache-Control', v === css.version ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.send(css.text);
  }

  @Get('llms.txt')
  llms(@Res() res: Response): void {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.send(renderText('docs/llms.txt', { base: this.config.publicUrl.replace(/\/+$/, ''), version: VERSION }));
  }

  private page(res: Response, status: number, view: string, model: Record<string, unknown>): void {
    const lib = this.docs();
    const current = model.current;
    const nav = lib.sections.map((s) => ({ title: s.title, pages: s.pages.map((p) => ({ id: p.id, label: p.label, current: p.id === current })) }));
    res.status(status);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.send(render(view, { ...model, nav, css: this.stylesheetFile().version, version: VERSION }, 'docs/layout'));
  }

  private docs(): DocsLibrary {
    this.library ??= buildLibrary(
      listResources('docs/')
        .filter((key) => /^docs\/[^/]+\.md$/.test(key))
        .map((key) => ({ id: key.slice('docs/'.length, -'.md'.length), markdown: readResource(key).toString('utf8') })),
    );
    return this.library;
  }

  private stylesheetFile(): { text: Buffer; version: string } {
    if (!this.css) {
      const text = readResource(CSS_FILE);
      this.css = { text, version: createHash('sha256').update(text).digest('hex').slice(0, 12) };
    }
    return this.css;
  }
}

/**
 * The page with an "On this page" list of its sections when it has several: folded after the
 * title on narrow screens, and as a column beside the text on wide ones (docs.css picks).
 */
function withToc(page: DocPage): { body: string; toc: string | null } {
  const sections = page.headings.filter((h) => h.depth === 2);
  const end = page.html.indexOf('</h1>');
  if (sections.length < TOC_MIN || end < 0) return { body: page.html, toc: null };
  const items = `<ul>${sections.map((h) => `<li><a href="#${h.id}">${escapeHtml(h.text)}</a></li>`).join('')}</ul>`;
  const folded = `<details class="toc"><summary>On this page</summary>${items}</details>`;
  const cut = end + '</h1>'.length;
  return { body: `${page.html.slice(0, cut)}\n${folded}\n${page.html.slice(cut)}`, toc: items };
}
