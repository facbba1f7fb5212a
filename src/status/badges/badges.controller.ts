import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/access/access';
import { BadgeAnswer, BadgesService } from './badges.service';

/** A minute, as the extensions say; a CDN or camo proxy may keep them as long. */
const BADGE_CACHE = 'public, max-age=60';

/** Badges (absolute, public): docs/badges.md. */
@Public()
@Controller('badge')
export class BadgesController {
  constructor(private readonly badges: BadgesService) {}

  @Get(':slug/status.svg')
  async status(
    @Param('slug') slug: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    send(req, res, await this.badges.svg(slug, 'status', q));
  }

  @Get(':slug/uptime.svg')
  async uptime(
    @Param('slug') slug: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    send(req, res, await this.badges.svg(slug, 'uptime', q));
  }

  @Get(':slug/latency.svg')
  async latency(
    @Param('slug') slug: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    send(req, res, await this.badges.svg(slug, 'latency', q));
  }

  @Get(':slug/shields.json')
  async shields(
    @Param('slug') slug: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    send(req, res, await this.badges.shields(slug, q));
  }
}

/** The answer with its ETag; 304 without a body when the client already has it. */
function send(req: Request, res: Response, a: BadgeAnswer): void {
  res.setHeader('Cache-Control', BADGE_CACHE);
  res.setHeader('ETag', a.etag);
  // Other sites show badges (READMEs, wikis, shields.io reading the JSON). The service's own
  // security headers stay (default-src 'none': an SVG opened on its own runs and loads nothing).
  res.setHeader('Access-Control-Allow-Origin', '*');
  const sent = req.headers['if-none-match'];
  if (typeof sent === 'string' && sent.split(',').some((t) => t.trim().replace(/^W\//, '') === a.etag)) {
    res.status(304).end();
    return;
  }
  res.status(a.status).type(a.type).send(a.body);
}
