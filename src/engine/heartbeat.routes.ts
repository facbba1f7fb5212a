/**
 * The heartbeat routes, answered on the HTTP server itself, ahead of express and Nest: a ping is
 * the hottest request the service answers (thousands a second), and the framework's router,
 * guards and interceptors cost several times the ping's own work. Answers are short plain text for
 * cron jobs and shell scripts (`curl -fsS .../hb/<token>`).
 */
import { Logger } from '@nestjs/common';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { HEARTBEAT_BODY_KEEP } from '../common/body-parsing';
import { ProxyTrust } from '../common/client-ip';
import { HeartbeatService, PingAnswer } from './heartbeat.service';

const log = new Logger('heartbeat');
const HB_PATH = /^\/hb\/([^/?#]+)(\/fail)?\/?(?:\?.*)?$/;
/** A sender that goes past this is not a cron job: it is cut off. */
const BODY_MAX = 64 * 1024;

/** Puts the heartbeat handler in front of the server's existing request listener (express). */
export function installHeartbeatRoutes(server: Server, heartbeats: HeartbeatService, proxies: ProxyTrust): void {
  const [framework] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const m = HB_PATH.exec(req.url ?? '');
    if (!m || (m[2] && req.method !== 'POST')) return framework(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
      return send(res, { status: 405, text: 'method not allowed' }, { Allow: 'GET, HEAD, POST' });
    }
    const ip = proxies.clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    const token = safeDecode(m[1]);
    const answer = (text: string | null) =>
      heartbeats.ping(token, m[2] ? 'fail' : 'ping', text, ip).then(
        (a) => send(res, a),
        (err: unknown) => {
          log.error(`heartbeat failed: ${err instanceof Error ? err.stack : String(err)}`);
          send(res, { status: 500, text: 'internal error' });
        },
      );
    if (req.method !== 'POST') return void answer(null);
    readCapped(req, (text) => void answer(text));
  });
}

/** Keeps the first 1 KB of a text body; reads and drops the rest. */
function readCapped(req: IncomingMessage, done: (text: string | null) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > BODY_MAX) {
      req.destroy();
      return;
    }
    if (kept < HEARTBEAT_BODY_KEEP) {
      const part = chunk.subarray(0, HEARTBEAT_BODY_KEEP - kept);
      chunks.push(part);
      kept += part.length;
    }
  });
  req.on('end', () => done(kept > 0 ? Buffer.concat(chunks).toString('utf8') : null));
  req.on('error', () => undefined);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function send(res: ServerResponse, a: PingAnswer, extra: Record<string, string> = {}): void {
  const body = `${a.text}\n`;
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  };
  if (a.retryAfterS) headers['Retry-After'] = a.retryAfterS;
  res.writeHead(a.status, headers);
  res.end(body);
}
