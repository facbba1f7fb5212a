/**
 * The heartbeat routes, answered on the HTTP server itself, ahead of express and Nest: a ping is
 * the hottest request the service answers (thousands a second), and the framework's router,
 * guards and interceptors cost several times the ping's own work. Answers are short plain text for
 * cron jobs and shell scripts (`curl -fsS .../hb/<token>`).
 *
 * They also run ahead of the security-header and request-limit wrappers (src/app.ts): an answer
 * carries the same security headers, written in one writeHead from a prebuilt list (set one by
 * one on every request they cost 10-15 µs a ping, a fifth of a bare node answer), and a URL over
 * the limit goes on to the wrappers, which answer 414 as for any other route.
 */
import { Logger } from '@nestjs/common';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { HEARTBEAT_BODY_KEEP } from '../../common/http/limits/body-parsing';
import { ProxyTrust } from '../../common/http/client-ip';
import { URL_MAX_BYTES } from '../../common/http/limits/request-limits';
import { securityHeaders } from '../../common/http/security-headers';
import { HeartbeatService, PingAnswer } from './heartbeat.service';

const log = new Logger('heartbeat');
const HB_PATH = /^\/hb\/([^/?#]+)(\/fail)?\/?(?:\?.*)?$/;
/** Uptime Kuma's push URL, kept for imported push monitors (docs/import-kuma.md "Push URLs"). */
const PUSH_PATH = /^\/api\/push\/([^/?#]+)\/?(\?.*)?$/;
/** The most a `ping` (Kuma: the job's own response time, in ms) may say: an hour. */
const PUSH_PING_MAX_MS = 3_600_000;
/** A body past this is not a cron job's: it is answered 413 (of a smaller one the first 1 KB is kept). */
export const HEARTBEAT_BODY_MAX = 64 * 1024;
/**
 * A refused body is read and dropped up to here before the 413 goes out, so the sender gets the
 * answer instead of a connection reset; one that goes on past this is answered and cut off.
 */
export const HEARTBEAT_DRAIN_MAX = 1024 * 1024;

/**
 * Puts the heartbeat handler in front of the server's existing request listener (the security
 * headers, the request limits, express).
 */
export function installHeartbeatRoutes(
  server: Server,
  heartbeats: HeartbeatService,
  proxies: ProxyTrust,
  https = false,
): void {
  const [framework] = server.listeners('request') as RequestListener[];
  const send = answerWith(https);
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const push = url.length <= URL_MAX_BYTES ? PUSH_PATH.exec(url) : null;
    if (push) return kumaPush(req, res, push, heartbeats, proxies, send);
    const m = url.length <= URL_MAX_BYTES ? HB_PATH.exec(url) : null;
    if (!m || (m[2] && req.method !== 'POST')) return framework(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
      return send(res, { status: 405, text: 'method not allowed' }, { Allow: 'GET, HEAD, POST' });
    }
    const ip = proxies.clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    const token = safeDecode(m[1]);
    const failed = (err: unknown) => {
      log.error(`heartbeat failed: ${err instanceof Error ? err.stack : String(err)}`);
      send(res, { status: 500, text: 'internal error' });
    };
    const answer = (text: string | null) => {
      let a: PingAnswer | Promise<PingAnswer>;
      try {
        a = heartbeats.ping(token, m[2] ? 'fail' : 'ping', text, ip);
      } catch (err) {
        return failed(err);
      }
      if (a instanceof Promise) a.then((done) => send(res, done), failed);
      else send(res, a);
    };
    if (req.method !== 'POST') return void answer(null);
    readCapped(req, (read) => {
      if (read === 'too_large') send(res, TOO_LARGE);
      // Node closes the connection once this answer is out; what the sender still sends is not read.
      else if (read === 'cut_off') send(res, TOO_LARGE, { Connection: 'close' });
      else void answer(read.text);
    });
  });
}

/**
 * `GET /api/push/{token}?status=up|down&msg=…&ping=…`, as Uptime Kuma's push monitors take it
 * (server/routers/api-router.js): `status=down` is a failure report with `msg` as its text, any
 * other push a ping; `ping` becomes the check's latency. Answered like /hb/ (same rate limits, same
 * plain-text answers), and a query this service cannot read is a 400 saying which parameter.
 */
function kumaPush(
  req: IncomingMessage,
  res: ServerResponse,
  m: RegExpExecArray,
  heartbeats: HeartbeatService,
  proxies: ProxyTrust,
  send: Send,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST')
    return send(res, { status: 405, text: 'method not allowed' }, { Allow: 'GET, HEAD, POST' });
  const query = new URLSearchParams(m[2]?.slice(1) ?? '');
  const status = query.get('status') ?? 'up';
  if (status !== 'up' && status !== 'down') return send(res, { status: 400, text: 'status must be up or down' });
  const pingText = query.get('ping');
  let latencyMs: number | null = null;
  if (pingText !== null && pingText !== '') {
    const ms = Number(pingText);
    if (!Number.isFinite(ms) || ms < 0 || ms > PUSH_PING_MAX_MS)
      return send(res, { status: 400, text: `ping must be a number of milliseconds from 0 to ${PUSH_PING_MAX_MS}` });
    latencyMs = Math.round(ms);
  }
  const msg = query.get('msg');
  // Kuma's own jobs send msg=OK with every good push: it says nothing, so it is not kept.
  const text = msg === null || msg === '' || (status === 'up' && msg === 'OK') ? null : msg.slice(0, 1024);
  const ip = proxies.clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for']);
  const go = () => {
    let a: PingAnswer | Promise<PingAnswer>;
    try {
      a = heartbeats.ping(safeDecode(m[1]), status === 'down' ? 'fail' : 'ping', text, ip, { latencyMs });
    } catch (err) {
      log.error(`push failed: ${err instanceof Error ? err.stack : String(err)}`);
      return send(res, { status: 500, text: 'internal error' });
    }
    if (a instanceof Promise)
      a.then(
        (done) => send(res, done),
        (err: unknown) => {
          log.error(`push failed: ${err instanceof Error ? err.stack : String(err)}`);
          send(res, { status: 500, text: 'internal error' });
        },
      );
    else send(res, a);
  };
  if (req.method !== 'POST') return go();
  // A body is not read (Kuma takes none); it is drained within the same limits as /hb/.
  readCapped(req, (read) => {
    if (read === 'too_large') send(res, TOO_LARGE);
    else if (read === 'cut_off') send(res, TOO_LARGE, { Connection: 'close' });
    else go();
  });
}

const TOO_LARGE: PingAnswer = { status: 413, text: `body too large: at most ${HEARTBEAT_BODY_MAX / 1024} KB` };

type BodyRead = { text: string | null } | 'too_large' | 'cut_off';

/**
 * Keeps the first 1 KB of a text body and drops the rest. A body past 64 KB is refused: it is
 * read and dropped to its end (`too_large`), or up to 1 MB (`cut_off`: the sender is still going).
 */
function readCapped(req: IncomingMessage, done: (read: BodyRead) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > HEARTBEAT_DRAIN_MAX) {
      req.off('data', onData);
      req.off('end', onEnd);
      done('cut_off');
      return;
    }
    if (kept < HEARTBEAT_BODY_KEEP) {
      const part = chunk.subarray(0, HEARTBEAT_BODY_KEEP - kept);
      chunks.push(part);
      kept += part.length;
    }
  };
  const onEnd = () => {
    if (seen > HEARTBEAT_BODY_MAX) done('too_large');
    else done({ text: kept > 0 ? Buffer.concat(chunks).toString('utf8') : null });
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', () => undefined);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

type Send = (res: ServerResponse, a: PingAnswer, extra?: Record<string, string>) => void;

/** Writes an answer with every header in one list: the security headers, then the answer's own. */
function answerWith(https: boolean): Send {
  const fixed = [
    ...Object.entries(securityHeaders(https)).flat(),
    'Content-Type',
    'text/plain; charset=utf-8',
    'Cache-Control',
    'no-store',
  ];
  return (res, a, extra = {}) => {
    const body = `${a.text}\n`;
    const headers = [...fixed, 'Content-Length', String(Buffer.byteLength(body))];
    if (a.retryAfterS) headers.push('Retry-After', String(a.retryAfterS));
    for (const [name, value] of Object.entries(extra)) headers.push(name, value);
    res.writeHead(a.status, headers);
    res.end(body);
  };
}
