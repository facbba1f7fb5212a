/**
 * Limits on the request head, answered on the HTTP server itself, ahead of the heartbeat routes and
 * express, in the error envelope:
 * - a request-target (path and query) over 8 KB: 414;
 * - a request line and headers over Node's maxHeaderSize (16 KB): Node stops parsing and reports a
 *   client error; it is answered 431 (414 when the request line alone is what overflowed), and
 *   other malformed requests 400, instead of Node's bare answers without a body;
 * - a request, head and body, still arriving 30 s after it began: 408, and the connection closes
 *   (applyRequestDeadline). A slow sender holds a connection, a body read and its buffer for 31 s
 *   at most, not Node's default of 300 s; a route that answered without reading the body (401)
 *   closes the connection then too, instead of reading the rest as it trickles in.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../api-error';
import { securityHeaders } from '../security-headers';

export const URL_MAX_BYTES = 8 * 1024;
/** Node's default maxHeaderSize (request line and headers together); the service does not change it. */
export const HEAD_MAX_BYTES = 16 * 1024;

/** The most a request (head and body) may take to arrive. A 10 MB import needs 350 KB/s; gzip it over a slower link. */
export const REQUEST_DEADLINE_MS = 30_000;
/** How often Node looks for requests past the deadline (its default, 30 s, would let one run to 60 s). */
export const DEADLINE_CHECK_MS = 1_000;

const URL_TOO_LONG = 'the URL is longer than 8 KB';
export const BODY_CUT_SHORT = 'the request ended before its body was complete';

/** The status and message for a request head Node could not parse (`clientError`), or null to just close. */
export function clientErrorAnswer(
  code: string | undefined,
  rawPacket: Buffer | undefined,
): { status: number; message: string } | null {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineTooLong(rawPacket)
        ? { status: 414, message: URL_TOO_LONG }
        : { status: 431, message: `the request headers are larger than ${HEAD_MAX_BYTES / 1024} KB` };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'the chunk extensions of the body are too large' };
    case 'HPE_INVALID_EOF_STATE':
      // The sender ended its side of the connection with its body still short of Content-Length.
      return { status: 400, message: BODY_CUT_SHORT };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request took too long to arrive' };
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    default:
      return { status: 400, message: 'malformed HTTP request' };
  }
}

/** True when the packet starts a request whose request line runs past the URL limit. */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  const head = packet.subarray(0, URL_MAX_BYTES + 32).toString('latin1');
  const m = /^[A-Z]{3,10} /.exec(head);
  if (!m) return false;
  const end = head.slice(m[0].length).search(/[ \r\n]/);
  return end === -1 ? head.length - m[0].length > URL_MAX_BYTES : end > URL_MAX_BYTES;
}

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

function envelope(message: string): string {
  return JSON.stringify(new ApiError('bad_request', message).toBody());
}

/**
 * Bounds how long a request may take to arrive: Node reports one past the deadline as a client
 * error (ERR_HTTP_REQUEST_TIMEOUT, answered 408 below). The check's period is read when the
 * server starts listening, so this runs before listen().
 */
export function applyRequestDeadline(server: Pick<Server, 'requestTimeout' | 'headersTimeout'>): void {
  server.requestTimeout = REQUEST_DEADLINE_MS;
  server.headersTimeout = REQUEST_DEADLINE_MS;
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = DEADLINE_CHECK_MS;
}

/** Wraps the server's request listener (heartbeat routes, then express) and answers client errors. */
export function installRequestLimits(server: Server, https = false): void {
  applyRequestDeadline(server);
  // A malformed request never reaches a request listener: its answer carries the headers itself.
  const rawHeaders = { ...securityHeaders(https), ...JSON_HEADERS };
  const [next] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if ((req.url ?? '').length <= URL_MAX_BYTES) return next(req, res);
    const body = envelope(URL_TOO_LONG);
    res.writeHead(414, { ...JSON_HEADERS, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });

  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const answer = clientErrorAnswer(err.code, err.rawPacket);
    // As Node does by default: write an answer only when nothing of a response went out on this connection yet.
    if (!answer || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const body = envelope(answer.message);
    const head = Object.entries({ ...rawHeaders, 'Content-Length': Buffer.byteLength(body), Connection: 'close' })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status]}\r\n${head}\r\n${body}`);
    // The parser cannot go on after such an error: close once the answer is flushed.
    socket.destroySoon();
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};
