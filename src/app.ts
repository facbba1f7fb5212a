/**
 * Builds the HTTP application around an open database. main.ts and the e2e tests both use this,
 * so tests exercise exactly what the service runs.
 */
import { INestApplication, LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { AppDeps, AppModule } from './app.module';
import { installBodyParsers } from './common/body-parsing';
import { installSecurityHeaders } from './common/security-headers';
import type { LogLevel } from './config/config';

const NEST_LEVELS: Record<LogLevel, NestLogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

export async function createApp(deps: AppDeps, opts: { logger?: boolean } = {}): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(deps), {
    bodyParser: false,
    logger: opts.logger === false ? false : NEST_LEVELS[deps.config.logLevel],
  });
  const express = app.getHttpAdapter().getInstance() as Express;
  express.disable('x-powered-by');
  express.set('etag', false);
  installSecurityHeaders(express);
  installBodyParsers(express);
  await app.init();
  return app;
}
