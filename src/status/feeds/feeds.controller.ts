import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/access/access';
import { ApiError } from '../../common/http/api-error';
import { FeedKind, FeedsService, FEED_TYPES } from './feeds.service';

/**
 * The status page's feeds (absolute, public). Registered before the page's own controller, whose
 * `/status/{name}` would take these paths. The answer's type is the feed's whatever Accept says:
 * a reader that sends an odd, huge or hostile Accept header still gets the feed (never 406).
 */
@Public()
@Controller('status')
export class FeedsController {
  constructor(private readonly feeds: FeedsService) {}

  @Get('feed.atom')
  atom(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.send('atom', req, res);
  }

  @Get('feed.rss')
  rss(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.send('rss', req, res);
  }

  private async send(kind: FeedKind, req: Request, res: Response): Promise<void> {
    const feed = await this.feeds.feed(kind);
    if (!feed) throw ApiError.notFound('status page');
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.setHeader('ETag', feed.etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const sent = req.headers['if-none-match'];
    if (typeof sent === 'string' && sent.split(',').some((t) => t.trim().replace(/^W\//, '') === feed.etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type(FEED_TYPES[kind]).send(feed.body);
  }
}
