import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config';
import type { Request, Response } from 'express';
import { Public } from '../../common/access/access';
import { ApiError } from '../../common/http/api-error';
import { isSafeAssetName } from '../../common/resources/static-files';
import { render } from '../../common/resources/views';
import { Packed } from '../../common/http/compression/compression';
import { endWithParts } from '../../common/http/json-parts';
import { onPageHost } from '../settings/hosts';
import { chrome } from './page-view';
import { PublicStatusService } from './public-status.service';
import { Asset, StatusAssets } from '../assets/status-assets';
import { StatusPageRepository } from '../settings/status-page.repository';
import { AnswerKind, homeCsp, PAGE_CSP, pageKind, PUBLIC_JSON, publicAnswer } from './public-answer';

/** An uploaded SVG opened on its own can run nothing and load nothing. */
export const LOGO_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

const YEAR = 'public, max-age=31536000, immutable';

/** The public routes of the status page (spec "Public routes"): no sign-in, nothing private. */
@Public()
@Controller()
export class PublicStatusController {
  constructor(
    private readonly pages: PublicStatusService,
    private readonly assets: StatusAssets,
    private readonly repo: StatusPageRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get challenge(): boolean {
    return this.config.challenge !== null;
  }

  @Get('api/public/status')
  async json(@Query('range') range: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!(await this.enabled())) throw ApiError.notFound('status page');
    send(req, res, await this.pages.json(await this.pages.range(range)), PUBLIC_JSON);
  }

  @Get('status')
  async home(@Query('range') range: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!(await this.enabled())) return this.missing(req, res, 'This status page is not published.');
    const s = await this.repo.getSettings();
    sendPage(req, res, await this.pages.home(await this.pages.range(range)), homeCsp(s.subscribers, this.challenge));
  }

  @Get('status/history')
  async history(@Query('before') before: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (!(await this.enabled())) return this.missing(req, res, 'This status page is not published.');
    sendPage(req, res, await this.pages.history(before));
  }

  @Get('status/theme.css')
  theme(@Query('a') a: unknown, @Req() req: Request, @Res() res: Response): void {
    if (typeof a !== 'string' || !/^[0-9a-fA-F]{6}$/.test(a)) throw ApiError.notFound('theme');
    const asset = this.assets.theme(`#${a.toLowerCase()}`);
    send(req, res, asset.packed, assetKind(req, asset));
  }

  @Get('status/fonts/:file')
  font(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    const asset = isSafeAssetName(file) ? this.assets.font(file) : null;
    if (!asset) throw ApiError.notFound('font');
    // woff2 is compressed already.
    sendBytes(req, res, asset.packed.raw, asset.type, versioned(req, asset));
  }

  @Get('status/logo')
  async logo(@Req() req: Request, @Res() res: Response): Promise<void> {
    const logo = await this.repo.asset('logo');
    if (!logo) throw ApiError.notFound('logo');
    res.setHeader('Content-Security-Policy', LOGO_CSP);
    res.setHeader('Content-Disposition', 'inline; filename="logo"');
    sendBytes(req, res, logo.data, logo.type, req.query.v === logo.v ? YEAR : 'no-cache');
  }

  @Get('status/icon.png')
  async icon(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendIcon(req, res, this.assets.icon512);
  }

  @Get('icon-512.png')
  async icon512(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendIcon(req, res, this.assets.icon512);
  }

  @Get('apple-touch-icon.png')
  async appleIcon(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendIcon(req, res, this.assets.appleIcon);
  }

  @Get('status/manifest.webmanifest')
  async manifest(@Req() req: Request, @Res() res: Response): Promise<void> {
    const s = await this.repo.getSettings();
    const icon = await this.repo.asset('icon');
    const start = onPageHost(s.hosts, req.headers.host) ? '/' : '/status';
    const icons = icon
      ? [
          {
            src: `/status/icon.png?v=${icon.v}`,
            sizes: `${icon.width}x${icon.height}`,
            type: 'image/png',
            purpose: 'any',
          },
        ]
      : [
          { src: `/icon-512.png?v=${this.assets.icon512.v}`, sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: `/apple-touch-icon.png?v=${this.assets.appleIcon.v}`,
            sizes: '180x180',
            type: 'image/png',
            purpose: 'any',
          },
        ];
    const body = {
      name: s.title,
      short_name: s.app_name || s.title,
      description: s.description || undefined,
      start_url: start,
      scope: start,
      display: 'standalone',
      theme_color: s.accent,
      background_color: s.theme === 'dark' ? '#0d0f14' : '#f6f7f9',
      icons,
    };
    send(req, res, new Packed(JSON.stringify(body)), {
      type: 'application/manifest+json; charset=utf-8',
      cache: 'no-cache',
      headers: {},
    });
  }

  @Get('status.css')
  css(@Req() req: Request, @Res() res: Response): void {
    send(req, res, this.assets.css.packed, assetKind(req, this.assets.css));
  }

  @Get('status.js')
  js(@Req() req: Request, @Res() res: Response): void {
    send(req, res, this.assets.js.packed, assetKind(req, this.assets.js));
  }

  /** Last: any other name under /status/ is a service's page. */
  @Get('status/:name')
  async service(
    @Param('name') name: string,
    @Query('range') range: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (!(await this.enabled())) return this.missing(req, res, 'This status page is not published.');
    const page = name.length <= 200 ? await this.pages.service(name, await this.pages.range(range)) : null;
    if (!page) return this.missing(req, res, 'There is no service of that name on this status page.');
    sendPage(req, res, page);
  }

  private async sendIcon(req: Request, res: Response, fallback: Asset): Promise<void> {
    const icon = await this.repo.asset('icon');
    if (icon) sendBytes(req, res, icon.data, 'image/png', req.query.v === icon.v ? YEAR : 'public, max-age=3600');
    else
      sendBytes(
        req,
        res,
        fallback.packed.raw,
        fallback.type,
        req.query.v === fallback.v ? YEAR : 'public, max-age=3600',
      );
  }

  private async enabled(): Promise<boolean> {
    return (await this.repo.getSettings()).enabled;
  }

  /** A page for people that find nothing here: the page's own look, status 404. */
  private async missing(req: Request, res: Response, message: string): Promise<void> {
    const ctx = await this.pages.context(false);
    const html = render(
      'status/missing',
      { ...chrome(ctx, `Not found · ${ctx.settings.title}`), message },
      'status/layout',
    );
    res.status(404);
    send(req, res, new Packed(html), { ...pageKind(), cache: 'no-cache' });
  }
}

function versioned(req: Request, a: Asset): string {
  return req.query.v === a.v ? YEAR : 'no-cache';
}

/** A shipped file's answer: kept for a year when asked for by its version, else checked each time. */
function assetKind(req: Request, a: Asset): AnswerKind {
  return { type: a.type, cache: versioned(req, a), headers: {} };
}

function sendPage(req: Request, res: Response, packed: Packed, csp = PAGE_CSP): void {
  send(req, res, packed, pageKind(csp));
}

/** Sends a body compressed as the client accepts (brotli, else gzip): public-answer.ts. */
function send(req: Request, res: Response, packed: Packed, kind: AnswerKind): void {
  const a = publicAnswer(req.headers['accept-encoding'], packed, kind);
  for (const [name, value] of a.headers) res.setHeader(name, value);
  endWithParts(res, req.method === 'HEAD' ? [] : a.body);
}

function sendBytes(req: Request, res: Response, data: Buffer, type: string, cache: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', cache);
  res.setHeader('Content-Length', data.length);
  res.end(req.method === 'HEAD' ? undefined : data);
}
