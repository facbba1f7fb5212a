/**
 * Request bodies: JSON only (1 MB; larger for bulk and import). A body is read only after the
 * AuthGuard has let the request through: guards run before interceptors, and BodyInterceptor is
 * the first interceptor. An unauthenticated request, or one with an unknown key, is answered 401
 * without its body ever being buffered or parsed (Node then discards the unread bytes), so
 * anonymous senders cannot make the service hold megabytes of JSON. A body sent with another
 * Content-Type is refused rather than silently read as empty. Routes that take raw bodies
 * (heartbeat pings) are answered ahead of express and read their own.
 */
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { from, Observable } from 'rxjs';
import { mergeMap } from 'rxjs/operators';
import { ApiError } from './api-error';

export const JSON_LIMIT = '1mb';
/** Paths whose bodies may be larger (bulk monitor upserts, imports). */
export const LARGE_JSON_PATHS: Record<string, string> = {
  '/api/v1/monitors/bulk': '10mb',
  '/api/v1/import': '10mb',
};
/** Path prefixes whose handlers read a non-JSON body themselves (heartbeat pings take text; the status page's logo and icon are images). */
export const RAW_BODY_PREFIXES = ['/hb/', '/api/v1/status-page/logo', '/api/v1/status-page/icon'];

const JSON_TYPES = ['application/json', 'application/*+json'];

/** Keys that could reach an object's prototype are never fields of ours: refuse the body outright. */
export const RESERVED_KEY_MESSAGE = 'the request body uses a reserved key';
function refuseReservedKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
    throw new Error(`${RESERVED_KEY_MESSAGE}: ${key}`);
  }
  return value;
}

/** Heartbeat bodies: text, of which the first 1 KB is kept; the rest is read and dropped. */
export const HEARTBEAT_BODY_KEEP = 1024;

type Parser = (req: Request, res: Response, next: NextFunction) => void;
// `strict: false`: a body of `null`, `42` or `"text"` is valid JSON, so it reaches the route and is
// answered 422 on field `body` (requireObjectBody) rather than 400 "not valid JSON".
const jsonParser = (limit: string): Parser => express.json({ limit, type: JSON_TYPES, strict: false, reviver: refuseReservedKeys });
const GENERAL = jsonParser(JSON_LIMIT);
const LARGE = new Map(Object.entries(LARGE_JSON_PATHS).map(([path, limit]) => [path, jsonParser(limit)]));

const reads = new WeakMap<Request, Promise<void>>();

/** Reads and parses the request's JSON body into req.body, once per request (later calls share the first read). */
export function readJsonBody(req: Request, res: Response): Promise<void> {
  let read = reads.get(req);
  if (!read) {
    read = parse(req, res);
    reads.set(req, read);
  }
  return read;
}

function parse(req: Request, res: Response): Promise<void> {
  if (!hasBody(req) || RAW_BODY_PREFIXES.some((p) => req.path.startsWith(p))) return Promise.resolve();
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    return Promise.reject(new ApiError('bad_request', 'send the body as JSON with Content-Type: application/json'));
  }
  const parser = LARGE.get(req.path.replace(/\/+$/, '')) ?? GENERAL;
  // Parser errors (too large, not JSON, reserved key) reach the error filter, which renders them in the envelope.
  return new Promise((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads the body after the guards and before every other interceptor (it is registered first in
 * app.module; the IdempotencyInterceptor hashes req.body).
 */
@Injectable()
export class BodyInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const http = ctx.switchToHttp();
    return from(readJsonBody(http.getRequest<Request>(), http.getResponse<Response>())).pipe(mergeMap(() => next.handle()));
  }
}
