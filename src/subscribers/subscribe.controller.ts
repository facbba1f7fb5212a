import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/access/access';
import type { AppRequest } from '../common/access/request-context';
import { ApiError } from '../common/http/api-error';
import { NeverReplayed } from '../common/http/idempotency';
import { PublicStatusService } from '../status/public/public-status.service';
import { SUBSCRIBE_ANSWER, SubscribeService } from './subscribe.service';
import { CONFIRM_WORDS, sendSubscriberPage, SUBSCRIBED_WORDS, unsubscribeWords } from './subscriber-pages';
import { readForm } from './form-body';

/**
 * The public routes of subscribing (docs/subscribers.md): the API, the status page's form (a plain
 * POST answered with a page), the confirmation link, and the unsubscribe link (a page with a
 * button on GET; RFC 8058's one-click POST).
 */
@Public()
@Controller()
export class SubscribeController {
  constructor(
    private readonly subscribers: SubscribeService,
    private readonly pages: PublicStatusService,
  ) {}

  @Post('api/public/subscribe')
  @HttpCode(202)
  async subscribe(@Body() body: unknown, @Req() req: AppRequest): Promise<typeof SUBSCRIBE_ANSWER> {
    await this.subscribers.subscribe(body, req.clientIp ?? null);
    return SUBSCRIBE_ANSWER;
  }

  /** Browsers' forms: no Idempotency-Key to keep, and the answer is a page written here. */
  @Post('status/subscribe')
  @NeverReplayed()
  async form(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    try {
      await this.subscribers.subscribe(await readForm(req), req.clientIp ?? null, true);
      return sendSubscriberPage(this.pages, req, res, SUBSCRIBED_WORDS);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
      const heading =
        err.status === 429 ? 'Too many requests' : err.status === 422 ? 'Check the address' : 'Not subscribed';
      const message = err.fields?.length ? `The ${err.fields[0].field}: ${err.fields[0].message}.` : `${err.message}.`;
      return sendSubscriberPage(this.pages, req, res, { status: err.status, heading, message });
    }
  }

  @Get('status/subscription/:token')
  async confirm(@Param('token') token: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    await sendSubscriberPage(this.pages, req, res, CONFIRM_WORDS[await this.subscribers.confirm(token)]);
  }

  /** Shows a button, never unsubscribes: mail scanners open every link of a mail. */
  @Get('status/unsubscribe/:token')
  async unsubscribePage(@Param('token') token: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    const known = await this.subscribers.knowsUnsubscribe(token);
    await sendSubscriberPage(this.pages, req, res, unsubscribeWords(token, known, false));
  }

  /** The page's button (`from=page`) answers a page; RFC 8058's one-click POST a short text. */
  @Post('status/unsubscribe/:token')
  @NeverReplayed()
  async unsubscribe(@Param('token') token: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    const form = await readForm(req);
    const removed = await this.subscribers.unsubscribe(token);
    if (form.from === 'page')
      return sendSubscriberPage(this.pages, req, res, unsubscribeWords(token, removed, removed));
    res.status(200).type('text/plain; charset=utf-8').setHeader('Cache-Control', 'no-store');
    res.end(removed ? 'unsubscribed\n' : 'not subscribed\n');
  }
}
