/**
 * The heartbeat routes, mounted on the HTTP server ahead of Nest: a ping is the hottest request the
 * service answers (thousands a second), and the framework's guard, interceptor and parameter
 * pipeline cost several times the ping's own work. Answers are short plain text for cron jobs and
 * shell scripts (`curl -fsS .../hb/<token>`).
 */
import { Logger } from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import { cappedText } from '../common/body-parsing';
import { ProxyTrust } from '../common/client-ip';
import { HeartbeatService, PingAnswer } from './heartbeat.service';

const log = new Logger('heartbeat');

export function installHeartbeatRoutes(app: Express, heartbeats: HeartbeatService, proxies: ProxyTrust): void {
  const handle = (kind: 'ping' | 'fail') => (req: Request, res: Response, next: NextFunction) => {
    if (kind === 'fail' && req.method !== 'POST') return next();
    if (!['GET', 'HEAD', 'POST'].includes(req.method)) {
      res.status(405).setHeader('Allow', 'GET, HEAD, POST');
      res.type('text/plain').send('method not allowed\n');
      return;
    }
    const body: unknown = req.method === 'POST' ? req.body : null;
    const text = typeof body === 'string' && body.length > 0 ? body : null;
    const ip = proxies.clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    heartbeats.ping(String(req.params.token), kind, text, ip).then(
      (answer) => send(res, answer),
      (err: unknown) => {
        // Outside Nest the error filter does not run: log it here and answer without details.
        log.error(`heartbeat failed: ${err instanceof Error ? err.stack : String(err)}`);
        send(res, { status: 500, text: 'internal error' });
      },
    );
  };
  app.all('/hb/:token/fail', cappedText, handle('fail'));
  app.all('/hb/:token', cappedText, handle('ping'));
}

function send(res: Response, a: PingAnswer): void {
  res.status(a.status).setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (a.retryAfterS) res.setHeader('Retry-After', String(a.retryAfterS));
  res.type('text/plain').send(`${a.text}\n`);
}
