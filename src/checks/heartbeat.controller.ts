import { All, Controller, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../auth/decorators';
import type { AppRequest } from '../auth/request-context';
import { HeartbeatService, PingAnswer } from './heartbeat.service';

/**
 * Heartbeat pings: GET, HEAD or POST /hb/{token}, and POST /hb/{token}/fail. Answers are short
 * plain text, for cron jobs and shell scripts (`curl -fsS .../hb/<token>`).
 */
@Public()
@Controller('hb')
export class HeartbeatController {
  constructor(private readonly heartbeats: HeartbeatService) {}

  @Post(':token/fail')
  async fail(@Param('token') token: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    send(res, await this.heartbeats.ping(token, 'fail', textBody(req), req.clientIp ?? ''));
  }

  @All(':token')
  async ping(@Param('token') token: string, @Req() req: AppRequest, @Res() res: Response): Promise<void> {
    if (!['GET', 'HEAD', 'POST'].includes(req.method)) {
      res.status(405).setHeader('Allow', 'GET, HEAD, POST').type('text/plain').send('method not allowed\n');
      return;
    }
    send(res, await this.heartbeats.ping(token, 'ping', req.method === 'POST' ? textBody(req) : null, req.clientIp ?? ''));
  }
}

function textBody(req: Request): string | null {
  const body: unknown = req.body;
  return typeof body === 'string' && body.length > 0 ? body : null;
}

function send(res: Response, a: PingAnswer): void {
  res.status(a.status).setHeader('Cache-Control', 'no-store');
  if (a.retryAfterS) res.setHeader('Retry-After', String(a.retryAfterS));
  res.type('text/plain').send(`${a.text}\n`);
}
