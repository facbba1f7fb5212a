/**
 * Reads an upload's raw bytes (the logo and icon routes take images, not JSON: body-parsing.ts
 * leaves them alone). The body is read only after the AuthGuard let the request through. A body
 * past `limit` is refused as a 422 on field `body` (the spec's error table has no code of its own
 * for 413); what is sent beyond it is read and dropped up to DRAIN_MAX so the client gets the
 * answer rather than a reset connection, and a longer one is cut off.
 */
import type { Request } from 'express';
import { ApiError } from '../../common/http/api-error';

export const DRAIN_MAX = 4 * 1024 * 1024;

export class BodyTooLarge extends ApiError {
  constructor(limit: number) {
    super('invalid', `the body is larger than ${limit / 1024} KB`, {
      field: 'body',
      fields: [{ field: 'body', message: `must be at most ${limit / 1024} KB` }],
    });
  }
}

export function readRawBody(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    const finish = (err: Error | null) => {
      req.removeAllListeners('data');
      if (err) reject(err);
      else if (over) reject(new BodyTooLarge(limit));
      else resolve(Buffer.concat(parts, size));
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size <= limit) parts.push(chunk);
      else over = true;
      if (size > DRAIN_MAX) {
        // Answer now; the connection cannot be reused for a body that is still arriving.
        req.socket.setKeepAlive(false);
        req.res?.setHeader('Connection', 'close');
        req.pause();
        finish(null);
      }
    });
    req.once('end', () => finish(null));
    req.once('error', (err) => finish(err));
    req.once('aborted', () => finish(new ApiError('bad_request', 'the request was aborted')));
  });
}
