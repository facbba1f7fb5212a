/**
 * API answers in JSON are sent compressed to clients that accept it (brotli, else gzip), once
 * they are at least COMPRESS_FROM bytes: the monitor list of 1,000 monitors is about 1 MB of JSON
 * and 20-30 KB compressed. Levels are the fastest that still pay: brotli quality 1 compresses that
 * megabyte in under a millisecond of CPU (on libuv's threads, not the event loop), about what
 * handing the megabyte to the kernel and a browser's network stack costs, and 40 times fewer bytes
 * cross a Wi-Fi link or a VPN (docs/api.md "Compression"; figures in docs/performance.md).
 *
 * Every answer of the API knows its length before it is written (express's send, sendJsonParts),
 * so the whole body is taken at end() and compressed at once; an answer that streams (the event
 * stream) or is already encoded (the status page's own, the dashboard's assets) is left alone.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';
import { Encoding, pickEncoding } from './accept-encoding';

/** Smaller answers go as they are: compressing them saves less than the header costs. */
export const COMPRESS_FROM = 1024;

/** Paths whose answers may be compressed: the API, but not its event stream. */
export function compressiblePath(url: string | undefined): boolean {
  if (!url || !url.startsWith('/api/')) return false;
  return !url.startsWith('/api/v1/stream');
}

/**
 * Whether an answer about to be sent is compressed: JSON, a status that has a body, not encoded
 * already, and a known length of at least COMPRESS_FROM. Pure (reads headers only).
 */
export function shouldCompress(
  status: number,
  headers: { type: unknown; encoding: unknown; length: unknown },
): boolean {
  if (status < 200 || status === 204 || status === 304) return false;
  if (headers.encoding !== undefined) return false;
  if (typeof headers.type !== 'string' || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(headers.type)) return false;
  const length = Number(headers.length);
  return Number.isFinite(length) && length >= COMPRESS_FROM;
}

/**
 * Compresses a whole body in one pass on libuv's threads. One buffer, not the pieces the answer was
 * written in: brotli's fastest qualities compress each input they are handed on its own, and the
 * 500 pieces of a list page came out three times larger than the page compressed at once.
 */
export function compressBody(
  encoding: Exclude<Encoding, 'identity'>,
  body: Buffer,
  done: (err: Error | null, out: Buffer) => void,
): void {
  if (encoding === 'gzip') {
    zlib.gzip(body, { level: 3 }, done);
    return;
  }
  zlib.brotliCompress(
    body,
    {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    },
    done,
  );
}

type End = ServerResponse['end'];
type Write = ServerResponse['write'];

/** Wraps the server's request handler (installed like the security headers: it runs first). */
export function installJsonCompression(server: Server): void {
  const [next] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'HEAD' && compressiblePath(req.url)) {
      const encoding = pickEncoding(req.headers['accept-encoding']);
      res.setHeader('Vary', 'Accept-Encoding');
      if (encoding !== 'identity') compressAnswer(res, encoding);
    }
    next(req, res);
  });
}

/**
 * Holds the body's pieces until end(), then sends them compressed with the new length. Decided
 * at the first write or end, from the headers set by then (sendJsonParts and express both set the
 * type and length before writing).
 */
function compressAnswer(res: ServerResponse, encoding: Exclude<Encoding, 'identity'>): void {
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  let held: Buffer[] | null = null;
  let decided = false;
  const decide = (): void => {
    decided = true;
    const headers = {
      type: res.getHeader('Content-Type'),
      encoding: res.getHeader('Content-Encoding'),
      length: res.getHeader('Content-Length'),
    };
    if (!res.headersSent && shouldCompress(res.statusCode, headers)) held = [];
  };
  const bytes = (chunk: unknown, enc: unknown): Buffer =>
    Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk as string, typeof enc === 'string' ? (enc as BufferEncoding) : 'utf8');

  res.write = function (this: ServerResponse, chunk: unknown, enc?: unknown, cb?: unknown): boolean {
    if (!decided) decide();
    if (!held) return (write as (...a: unknown[]) => boolean)(chunk, enc, cb);
    held.push(bytes(chunk, enc));
    const done = typeof enc === 'function' ? enc : cb;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  } as Write;

  res.end = function (this: ServerResponse, chunk?: unknown, enc?: unknown, cb?: unknown): ServerResponse {
    if (typeof chunk === 'function') [chunk, cb] = [undefined, chunk];
    else if (typeof enc === 'function') [enc, cb] = [undefined, enc];
    if (!decided) decide();
    if (!held) return (end as (...a: unknown[]) => ServerResponse)(chunk, enc, cb);
    if (chunk !== undefined && chunk !== null) held.push(bytes(chunk, enc));
    const size = held.reduce((n, p) => n + p.length, 0);
    const body = held.length === 1 ? held[0] : Buffer.concat(held, size);
    // Ended: a later write or end goes to the response as it would without us (and is refused there).
    held = null;
    compressBody(encoding, body, (err, out) => {
      // Compressing a buffer in memory fails only on a bug: the answer then goes as it is.
      if (!err) {
        res.setHeader('Content-Encoding', encoding);
        res.setHeader('Content-Length', out.length);
      }
      (end as (...a: unknown[]) => ServerResponse)(err ? body : out, cb);
    });
    return res;
  } as End;
}
