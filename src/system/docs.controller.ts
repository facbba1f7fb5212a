import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/access/access';
import { ApiError } from '../common/http/api-error';
import { tryReadResource } from '../common/resources/resources';
import { contentTypeFor, isSafeAssetName } from '../common/resources/static-files';
import { DocsService } from './docs.service';

/** The pages carry one stylesheet and nothing else: no script, no inline style, no frames. */
export const DOCS_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The served documentation (`/docs`, `/docs/<page>`: docs/*.md rendered to HTML, the interface
 * contract among them), its stylesheet, and `/llms.txt`. All public.
 */
@Public()
@Controller()
export class DocsController {
  constructor(private readonly docs: DocsService) {}

  @Get('docs')
  async index(@Res() res: Response): Promise<void> {
    sendPage(res, 200, await this.docs.indexHtml());
  }

  @Get('docs/:page')
  async page(@Param('page') id: string, @Res() res: Response): Promise<void> {
    const html = await this.docs.pageHtml(id);
    sendPage(res, html === null ? 404 : 200, html ?? (await this.docs.missingHtml()));
  }

  /** The pictures the pages show (docs/images/). An SVG opened on its own runs nothing: it is sandboxed. */
  @Get('docs/images/:file')
  image(@Param('file') file: string, @Res() res: Response): void {
    const type = isSafeAssetName(file) ? contentTypeFor(file) : null;
    const data = type?.startsWith('image/') ? tryReadResource(`docs/images/${file}`) : null;
    if (!type || !data) throw ApiError.notFound('image');
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.send(data);
  }

  @Get('docs.css')
  stylesheet(@Query('v') v: unknown, @Res() res: Response): void {
    const css = this.docs.stylesheet();
    res.setHeader('Content-Type', 'text/css; charset=utf-8');
    res.setHeader('Cache-Control', v === css.version ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.send(css.text);
  }

  @Get('llms.txt')
  llms(@Res() res: Response): void {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.send(this.docs.llmsTxt());
  }
}

function sendPage(res: Response, status: number, html: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', DOCS_CSP);
  res.setHeader('Cache-Control', 'no-cache');
  res.send(html);
}
