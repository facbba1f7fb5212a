/**
 * Builds the HTTP application around an open database. main.ts and the e2e tests both use this,
 * so tests exercise exactly what the service runs.
 */
import { INestApplication, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { AppDeps, AppModule } from './app.module';
import { HeartbeatService } from './engine/heartbeats/heartbeat.service';
import { EngineService } from './engine/engine.service';
import { installHeartbeatRoutes } from './engine/heartbeats/heartbeat.routes';
import { installPublicFastPath } from './status/public/public-fast-path';
import { PublicStatusService } from './status/public/public-status.service';
import { ProxyTrust } from './common/http/client-ip';
import { installSecurityHeaders } from './common/http/security-headers';
import { installRequestLimits } from './common/http/limits/request-limits';
import { installJsonCompression } from './common/http/compression/json-compression';
import { LineLogger } from './runtime/logger';
import { ChallengeStore } from './hosts/challenges';
import { HostListeners } from './hosts/listeners';
import type { RequestListener } from 'node:http';
import { loadSavedPublicUrl } from './settings/public-url';

/**
 * `holdChecks`: the engine starts no check until EngineService.releaseChecks() (main.ts, once the
 * service listens); otherwise checks start when the application has bootstrapped.
 */
export async function createApp(
  deps: AppDeps,
  opts: { logger?: LoggerService; holdChecks?: boolean } = {},
): Promise<INestApplication> {
  // Before anything reads the public URL: the address saved at setup, unless FARSIGHT_PUBLIC_URL is set.
  await loadSavedPublicUrl(deps.db, deps.config);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(deps), {
    bodyParser: false,
    logger: opts.logger ?? new LineLogger(deps.config.logLevel),
  });
  const express = app.getHttpAdapter().getInstance() as Express;
  express.disable('x-powered-by');
  express.set('etag', false);
  if (opts.holdChecks) app.get(EngineService).holdChecks();
  await app.init();
  // Around express only: JSON answers of the API compressed for clients that take it.
  installJsonCompression(app.getHttpServer());
  // Installed last so it runs first: a URL over the limit is answered before any route looks at it.
  const https = deps.config.publicUrl.startsWith('https:');
  installRequestLimits(app.getHttpServer(), https);
  // Last, so it runs first: every answer, whoever writes it, carries the security headers.
  installSecurityHeaders(app.getHttpServer(), https);
  // The status page's home and JSON, once built, are sent ahead of the framework (public-fast-path.ts).
  installPublicFastPath(app.getHttpServer(), app.get(PublicStatusService), https, deps.config.challenge !== null);
  // Heartbeat pings are answered ahead of all of that, with the same headers and limit of their
  // own: the busiest route needs none of the framework, nor headers set one by one.
  installHeartbeatRoutes(app.getHttpServer(), app.get(HeartbeatService), new ProxyTrust(deps.config.trustProxy), https);
  // HTTP-01 challenges on the main listener too (an owner may forward port 80 to it), ahead of everything.
  installChallengeRoute(app.getHttpServer(), app.get(ChallengeStore));
  // The custom hosts' listeners hand their requests to this same handler: one status page.
  const [handler] = app.getHttpServer().listeners('request') as RequestListener[];
  await app.get(HostListeners).start(handler);
  return app;
}

function installChallengeRoute(server: import('node:http').Server, challenges: ChallengeStore): void {
  const [next] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    if (!challenges.respond(req, res)) next(req, res);
  });
}
