/**
 * Request bodies: JSON only (1 MB; larger for bulk and import). A body is read only after the
 * AuthGuard has let the request through: guards run before interceptors, and BodyInterceptor is
 * the first interceptor. An unauthenticated request, or one with an unknown key, is answered 401
 * without its body ever being buffered or parsed (Node then discards the unread bytes), so
 * anonymous senders cannot make the service hold megabytes of JSON. Routes that take raw bodies
 * (heartbeat pings) are answered ahead of express and read their own.
 *
 * What is accepted is decided in body-rules.ts, on the headers before a byte is read (a JSON type,
 * UTF-8, an accepted Content-Encoding, a Content-Length within the limit) and on the bytes after.
 * The reading is here: every way it can fail (bytes that do not inflate, a body past the limit on
 * the wire or once inflated, a sender that goes away) is a 400 or 415 in the envelope, and the
 * connection closes after the answer, so the unread rest of a refused body is never read. How long
 * a body may take to arrive is the HTTP server's bound (request-limits.ts, REQUEST_DEADLINE_MS).
 */
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { from, Observable } from 'rxjs';
import { mergeMap } from 'rxjs/operators';
import { ApiError } from '../api-error';
import { ABORTED, BodyEncoding, BodyPlan, MB, NOT_DECODED, parseJsonBody, planBody, tooLarge } from './body-rules';

export const JSON_LIMIT = MB;
/** Paths whose bodies may be larger (bulk monitor upserts, imports). */
export const LARGE_JSON_PATHS: Record<string, number> = {
  '/api/v1/monitors/bulk': 10 * MB,
  '/api/v1/import': 10 * MB,
};
/**
 * Path prefixes whose handlers read a non-JSON body themselves (heartbeat pings take text; the
 * status page's logo and icon are images; the Kuma import takes Kuma's database file; the status
 * page's subscribe and unsubscribe forms are form-encoded, subscribers/form-body.ts).
 */
export const RAW_BODY_PREFIXES = [
  '/hb/',
  '/api/v1/status-page/logo',
  '/api/v1/status-page/icon',
  '/api/v1/import/kuma',
  '/status/subscribe',
  '/status/unsubscribe/',
];

/** Heartbeat bodies: text, of which the first 1 KB is kept; the rest is read and dropped. */
export const HEARTBEAT_BODY_KEEP = 1024;

const INFLATERS: Record<Exclude<BodyEncoding, 'identity'>, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

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

async function parse(req: Request, res: Response): Promise<void> {
  if (!hasBody(req) || RAW_BODY_PREFIXES.some((p) => req.path.startsWith(p))) return;
  const plan = planBody(req.headers, LARGE_JSON_PATHS[req.path.replace(/\/+$/, '')] ?? JSON_LIMIT);
  if (plan instanceof ApiError) throw closing(res, plan);
  let bytes: Buffer;
  try {
    bytes = await readBody(req, plan);
  } catch (err) {
    throw closing(res, err as ApiError);
  }
  req.body = parseJsonBody(bytes);
}

/** A body refused or given up: the answer closes the connection, so what is still unsent is never read. */
function closing(res: Response, err: ApiError): ApiError {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  return err;
}

/**
 * The body's bytes, inflated. Both the bytes on the wire and the inflated bytes count against the
 * limit (a deflate stream of empty blocks inflates to nothing; a gzip bomb inflates to gigabytes):
 * reading stops at the first byte past it, and inflating with it. Rejects with an ApiError only.
 */
function readBody(req: Request, plan: BodyPlan): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const inflater = plan.encoding === 'identity' ? null : INFLATERS[plan.encoding]();
    const parts: Buffer[] = [];
    let wire = 0;
    let size = 0;
    let done = false;
    const finish = (err: ApiError | null) => {
      if (done) return;
      done = true;
      req.off('data', onWire);
      if (inflater) {
        req.unpipe(inflater);
        inflater.off('data', onData);
        inflater.on('error', () => undefined);
        inflater.destroy();
      } else req.off('data', onData);
      if (err) {
        // What is still arriving is dropped until the connection closes after the answer.
        req.resume();
        reject(err);
      } else resolve(Buffer.concat(parts, size));
    };
    const onWire = (chunk: Buffer) => {
      wire += chunk.length;
      if (wire > plan.limit) finish(tooLarge(plan.limit));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > plan.limit) finish(tooLarge(plan.limit));
      else parts.push(chunk);
    };
    const output: Readable = inflater ?? req;
    if (inflater) {
      req.on('data', onWire);
      inflater.once('error', () => finish(new ApiError('bad_request', NOT_DECODED)));
      req.pipe(inflater);
    }
    output.on('data', onData);
    output.once('end', () => finish(null));
    // A sender that goes away before its Content-Length is complete (or mid-chunk).
    req.once('close', () => {
      if (!req.complete) finish(new ApiError('bad_request', ABORTED));
    });
    req.once('error', () => finish(new ApiError('bad_request', ABORTED)));
  });
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
    return from(readJsonBody(http.getRequest<Request>(), http.getResponse<Response>())).pipe(
      mergeMap(() => next.handle()),
    );
  }
}
