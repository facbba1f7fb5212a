/**
 * The status page's two busiest answers, the home page and the public JSON, sent ahead of express
 * and Nest: a page kept for 30 s is the same bytes for every visitor, and the framework's router,
 * guards and interceptors cost several times the sending itself (0.5-0.7 ms of CPU an answer
 * against about 0.1). That is when it matters: during an outage, everyone reloads the status page
 * at once, and the first of them after each 30 s or each change waits for the build.
 *
 * Only a GET or HEAD of exactly `/status` or `/api/public/status`, with at most a `range`, is
 * looked at (and `/` on one of the page's own hosts, its home page there), and only while
 * PublicStatusService has the page's settings in memory and says it is published (fastAnswer):
 * the kept answer is sent at once, else the build that makes it, as the controller would, once it
 * is done. Everything else goes on to the framework, which reads, refuses or answers it as before;
 * so does a request whose build failed, which the framework builds again and answers with the
 * error's envelope (a failed build is not kept). The headers are the controller's
 * (public-answer.ts) and the security headers every answer carries, written in one writeHead as
 * the heartbeat routes do.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { securityHeaders } from '../../common/http/security-headers';
import { endWithParts } from '../../common/http/json-parts';
import { homeCsp, pageKind, PUBLIC_JSON, publicAnswer } from './public-answer';
import type { PublicStatusService } from './public-status.service';
import { Packed } from '../../common/http/compression/compression';

const FAST_PATH = /^\/(status|api\/public\/status)(?:\?range=([0-9a-z]{1,8}))?$/;
/** `/` on one of the page's own hosts is its home page (status.module.ts, PageHostMiddleware). */
const PAGE_ROOT = /^\/(?:\?range=([0-9a-z]{1,8}))?$/;

/**
 * Puts the fast path in front of the server's request listener. `challenge`: a bot challenge is
 * configured (the subscribe form's page then loads its widget: homeCsp).
 */
export function installPublicFastPath(
  server: Server,
  pages: PublicStatusService,
  https: boolean,
  challenge: boolean,
): void {
  const [next] = server.listeners('request') as RequestListener[];
  const security = Object.entries(securityHeaders(https));
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const ask = req.method === 'GET' || req.method === 'HEAD' ? asked(req, pages) : null;
    const answer = ask ? pages.fastAnswer(ask.kind, ask.range) : null;
    if (!ask || !answer) return next(req, res);
    const kind = ask.kind === 'home' ? pageKind(homeCsp(answer.settings.subscribers, challenge)) : PUBLIC_JSON;
    const send = (packed: Packed) => {
      const a = publicAnswer(req.headers['accept-encoding'], packed, kind);
      // The route's own headers (a page's Content-Security-Policy) replace the defaults, as when set after them.
      const own = new Set(a.headers.map(([name]) => name.toLowerCase()));
      const head: string[] = [];
      for (const [name, value] of security) if (!own.has(name.toLowerCase())) head.push(name, value);
      for (const [name, value] of a.headers) head.push(name, value);
      res.writeHead(200, head);
      endWithParts(res, req.method === 'HEAD' ? [] : a.body);
    };
    if (answer.packed instanceof Packed) send(answer.packed);
    // A send that throws (nothing known does) ends the connection rather than the process.
    else answer.packed.then(send, () => next(req, res)).catch(() => res.destroy());
  });
}

/** Which kept answer a request asks for, if it is one the fast path may send. */
function asked(
  req: IncomingMessage,
  pages: PublicStatusService,
): { kind: 'home' | 'json'; range: string | undefined } | null {
  const url = req.url ?? '';
  const m = FAST_PATH.exec(url);
  if (m) return { kind: m[1] === 'status' ? 'home' : 'json', range: m[2] };
  const root = PAGE_ROOT.exec(url);
  return root && pages.isPageHost(req.headers.host) ? { kind: 'home', range: root[1] } : null;
}
