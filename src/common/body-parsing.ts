/**
 * Request bodies: JSON only (1 MB; larger for bulk and import), parsed before routing. A body
 * sent with another Content-Type is refused up front rather than silently read as empty. Routes
 * that take raw bodies (heartbeat pings, logo and icon uploads) register their own parser first.
 */
import type { Express, NextFunction, Request, Response } from 'express';
import express from 'express';
import { ApiError } from './api-error';
import { toErrorResponse } from './error-envelope';

export const JSON_LIMIT = '1mb';
/** Paths whose bodies may be larger (bulk monitor upserts, imports). */
export const LARGE_JSON_PATHS: Record<string, string> = {
  '/api/v1/monitors/bulk': '10mb',
  '/api/v1/import': '10mb',
};
/** Path prefixes whose handlers read a non-JSON body themselves (heartbeat pings take text). */
export const RAW_BODY_PREFIXES = ['/hb/'];

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

export function installBodyParsers(app: Express): void {
  app.use(requireJsonContentType);
  for (const [path, limit] of Object.entries(LARGE_JSON_PATHS)) {
    app.use(path, express.json({ limit, type: JSON_TYPES, strict: false, reviver: refuseReservedKeys }));
  }
  app.use(express.json({ limit: JSON_LIMIT, type: JSON_TYPES, strict: false, reviver: refuseReservedKeys }));
  // Body-parser errors happen before Nest routes the request, so render them here in the envelope.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const out = toErrorResponse(err);
    res.status(out.status).json(out.body);
  });
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function requireJsonContentType(req: Request, res: Response, next: NextFunction): void {
  if (!hasBody(req) || RAW_BODY_PREFIXES.some((p) => req.path.startsWith(p))) return next();
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return next();
  const err = new ApiError('bad_request', 'send the body as JSON with Content-Type: application/json');
  res.status(err.status).json(err.toBody());
}
