/**
 * The two listeners of custom hosts, beside the main one (FARSIGHT_LISTEN):
 * - FARSIGHT_ACME_HTTP_LISTEN (e.g. :80): HTTP-01 challenges; a page host that has a certificate
 *   is redirected to https (the same path); anything else is a short 404.
 * - FARSIGHT_HTTPS_LISTEN (e.g. :443): TLS with the certificate of the name the client asks for
 *   (SNI; no name or an unknown one ends the handshake), HSTS, and then the SAME request handler
 *   as the main listener, so the status page (at `/` on a page host) is the one code path. Only the
 *   page's public paths are served there: the dashboard and the API stay on the main listener.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';
import { applyRequestDeadline } from '../common/http/limits/request-limits';
import type { AppConfig, ListenAddress } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { listenFailure, StartupError } from '../config/startup-failures';
import { requestHost } from './host-names';
import { ChallengeStore } from './challenges';
import { ServedCerts } from './served-certs';

/** One year, without includeSubDomains: the owner's other names under this host are not ours to decide. */
export const PAGE_HOST_HSTS = 'max-age=31536000';

/** The public paths of the status page: the page, its service and history pages, JSON, assets. */
const PUBLIC_PATH =
  /^\/(?:$|\?|status(?:[/.?]|$)|api\/public\/|api\/health(?:\?|$)|icon-512\.png|apple-touch-icon\.png|favicon\.ico|\.well-known\/acme-challenge\/)/;

export function isPagePath(url: string): boolean {
  return PUBLIC_PATH.test(url);
}

@Injectable()
export class HostListeners implements OnApplicationShutdown {
  private readonly log = new Logger('hosts');
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly challenges: ChallengeStore,
    private readonly certs: ServedCerts,
  ) {}

  /** Starts the listeners that are configured; `app` is the main listener's request handler. */
  async start(app: http.RequestListener): Promise<void> {
    if (this.config.acmeHttpListen) {
      const server = http.createServer((req, res) => this.acmeHttp(req, res));
      applyRequestDeadline(server);
      await this.listen(server, 'FARSIGHT_ACME_HTTP_LISTEN', this.config.acmeHttpListen);
    }
    if (this.config.httpsListen) {
      const server = https.createServer(
        {
          minVersion: 'TLSv1.2',
          SNICallback: (name, cb) => {
            const context = this.certs.context(name.toLowerCase());
            cb(context ? null : new Error(`no certificate for ${name}`), context ?? undefined);
          },
        },
        (req, res) => this.page(req, res, app),
      );
      // A handshake for an unknown name is ordinary (scanners): no log line for each.
      server.on('tlsClientError', () => undefined);
      applyRequestDeadline(server);
      await this.listen(server, 'FARSIGHT_HTTPS_LISTEN', this.config.httpsListen);
    }
  }

  /** Where a listener is bound (tests bind port 0). */
  address(which: 'https' | 'acme'): AddressInfo | null {
    const s = this.servers.find((x) => (which === 'https' ? x instanceof https.Server : !(x instanceof https.Server)));
    return (s?.address() as AddressInfo | null) ?? null;
  }

  private acmeHttp(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.challenges.respond(req, res)) return;
    const host = requestHost(req.headers.host);
    res.setHeader('Cache-Control', 'no-store');
    if (host !== null && this.certs.has(host) && (req.method === 'GET' || req.method === 'HEAD')) {
      res.statusCode = 301;
      res.setHeader('Location', `https://${host}${(req.url ?? '/').startsWith('/') ? req.url : '/'}`);
      res.end();
      return;
    }
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('not found\n');
  }

  private page(req: http.IncomingMessage, res: http.ServerResponse, app: http.RequestListener): void {
    res.setHeader('Strict-Transport-Security', PAGE_HOST_HSTS);
    if (this.challenges.respond(req, res)) return;
    if (!isPagePath(req.url ?? '/')) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.end('not found: this address serves the status page only\n');
      return;
    }
    app(req, res);
  }

  private listen(server: Server, name: string, address: ListenAddress): Promise<void> {
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    return new Promise((resolve, reject) => {
      const failed = (err: unknown) => {
        const line = listenFailure(err, name, address);
        reject(line ? new StartupError(line) : err);
      };
      server.once('error', failed);
      server.listen(address.port, address.host, () => {
        server.off('error', failed);
        server.on('error', (err) => this.log.error(`${name}: ${err.message}`));
        this.servers.push(server);
        resolve();
      });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const closing = this.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    for (const s of this.sockets) s.destroy();
    await Promise.all(closing);
    this.servers.length = 0;
  }
}
