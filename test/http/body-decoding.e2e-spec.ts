/**
 * Bodies that fail in the body layer, before any handler runs (issue 42, item 5): a body that does
 * not inflate, an encoding that is not accepted, a charset that is not read, a body cut short, an
 * inflated body past the limit, and a Content-Length past it. Each is the client's error: an
 * answer in the envelope, never a 500, and no stack trace in the log. Raw sockets, so a test
 * controls every header and byte.
 */
import * as net from 'node:net';
import * as zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { REQUEST_DEADLINE_MS } from '../../src/common/http/limits/request-limits';
import { startApp, startListeningApp, TestApp } from '../support/app';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** ms from the first byte sent to the end of the answer. */
  ms: number;
}

const DECODE = {
  code: 'bad_request',
  message: 'the request body could not be decoded (its Content-Encoding does not match its bytes)',
};
/** How long an answer to a request whose body is still unsent may take. */
const ANSWER_BOUND_MS = 5000;

describe('bodies that fail before a handler runs', () => {
  let t: TestApp;
  let port: number;
  let write: Record<string, string>;

  beforeAll(async () => {
    ({ t, port, write } = await startListeningApp());
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    t.logs.length = 0;
  });
  afterEach(() => {
    // Not one stack trace, nor an "unexpected error" line, for any of these requests.
    expect(t.logs.filter((l) => /unexpected error|\n\s+at /.test(l))).toEqual([]);
  });

  /**
   * Writes a request head and `body`, leaves the socket open (or ends its side: `end`; Node then
   * gives up the request and closes) and resolves with the answer: the status line, headers and
   * JSON body read off the socket; status 0 when the connection closed without one.
   */
  function raw(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: Buffer,
    opts: { end?: boolean; length?: number } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within ${ANSWER_BOUND_MS} ms`));
      }, ANSWER_BOUND_MS);
      const finish = () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('latin1');
        const [head, ...rest] = text.split('\r\n\r\n');
        const [statusLine, ...lines] = head.split('\r\n');
        const hs: Record<string, string> = {};
        for (const l of lines) hs[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
        const payload = rest.join('\r\n\r\n');
        let parsed: unknown = payload;
        try {
          parsed = JSON.parse(payload);
        } catch {
          /* not JSON: the test shows what came */
        }
        resolve({
          status: Number(statusLine.split(' ')[1] ?? 0) || 0,
          headers: hs,
          body: parsed,
          ms: Date.now() - started,
        });
      };
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        // One answer is all a test waits for: done once its body is complete.
        const text = Buffer.concat(chunks).toString('latin1');
        const at = text.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(text.slice(0, at));
        if (at !== -1 && length && Buffer.byteLength(text.slice(at + 4), 'latin1') >= Number(length[1])) {
          socket.destroy();
          finish();
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', finish);
      const all = { Host: 'farsight.test', 'Content-Length': String(opts.length ?? body.length), ...headers };
      socket.write(
        `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}\r\n`,
      );
      socket.write(body);
      if (opts.end) socket.end();
    });
  }

  const json = { 'Content-Type': 'application/json' };
  const garbage = Buffer.from('this is not compressed data, just text {"email": "a@b.c"}');
  const gzipped = (text: string) => zlib.gzipSync(Buffer.from(text));

  describe('a body that does not inflate', () => {
    it.each<[string, string, Record<string, string>]>([
      ['GET /api/health', '/api/health', {}],
      ['an anonymous POST /api/v1/auth/password', '/api/v1/auth/password', {}],
      ['POST /api/v1/monitors with a write key', '/api/v1/monitors', {}],
    ])('%s with gzip, deflate or br that is not: 400 in the envelope', async (_, path, extra) => {
      const method = path === '/api/health' ? 'GET' : 'POST';
      const auth = path === '/api/v1/monitors' ? write : extra;
      for (const encoding of ['gzip', 'deflate', 'br', 'GZIP']) {
        const res = await raw(method, path, { ...json, ...auth, 'Content-Encoding': encoding }, garbage);
        expect({ encoding, status: res.status, body: res.body }).toEqual({
          encoding,
          status: 400,
          body: { error: DECODE },
        });
      }
    });

    it('answers a gzip stream cut short with 400', async () => {
      const whole = gzipped(JSON.stringify({ email: 'owner@example.com', password: 'x'.repeat(500) }));
      const res = await raw(
        'POST',
        '/api/v1/auth/password',
        { ...json, 'Content-Encoding': 'gzip' },
        whole.subarray(0, whole.length - 12),
      );
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: DECODE } });
    });

    it('still reads a body that is compressed as it says', async () => {
      const res = await raw(
        'POST',
        '/api/v1/auth/password',
        { ...json, 'Content-Encoding': 'gzip' },
        gzipped('{"email": '),
      );
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 'bad_request', message: 'the request body is not valid JSON' } },
      });
      const ok = await raw(
        'POST',
        '/api/v1/monitors',
        { ...json, ...write, 'Content-Encoding': 'deflate' },
        zlib.deflateSync('{"name": 5}'),
      );
      expect(ok.status).toBe(422);
    });
  });

  describe('an encoding that is not accepted', () => {
    it.each(['compress', 'x-gzip', 'zstd', 'gzip, br', 'chunked', 'weird\u00e9'])(
      'answers Content-Encoding %j with 415 in the envelope',
      async (encoding) => {
        const res = await raw('POST', '/api/v1/auth/password', { ...json, 'Content-Encoding': encoding }, garbage);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 415,
          body: {
            error: {
              code: 'bad_request',
              message:
                "the request body's Content-Encoding is not accepted: send it uncompressed, or as gzip, deflate or br",
            },
          },
        });
      },
    );

    it('answers it before reading the body', async () => {
      const res = await raw(
        'POST',
        '/api/v1/auth/password',
        { ...json, 'Content-Encoding': 'compress' },
        Buffer.alloc(1000, 'a'),
        { length: 5 * 1024 * 1024 },
      );
      expect(res.status).toBe(415);
      expect(res.headers.connection).toBe('close');
    });
  });

  describe('the rest of the body layer', () => {
    it('answers a charset that is not read with 400', async () => {
      const res = await raw(
        'POST',
        '/api/v1/auth/password',
        { 'Content-Type': 'application/json; charset=latin1' },
        Buffer.from('{"email": "x"}'),
      );
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 'bad_request', message: 'send the body in UTF-8 (charset "latin1" is not read)' } },
      });
    });

    it.each([
      ['identity', Buffer.from('{"email": "owner@')],
      ['gzip', gzipped(JSON.stringify({ email: 'x'.repeat(2000) })).subarray(0, 40)],
    ])(
      'answers a %s body cut short (the sender ends before Content-Length) with 400 or the close, never a 500',
      async (encoding, part) => {
        const res = await raw('POST', '/api/v1/auth/password', { ...json, 'Content-Encoding': encoding }, part, {
          length: 5000,
          end: true,
        });
        // The sender has ended its side: Node's parser reports the short body (answered on the
        // server, request-limits.ts) or the body layer sees the request aborted, whichever comes
        // first; the connection closes, with the answer when it is out in time. Never a 500.
        if (res.status !== 0)
          expect({ status: res.status, body: res.body }).toEqual({
            status: 400,
            body: {
              error: {
                code: 'bad_request',
                message: expect.stringMatching(
                  /^(the request ended before its body was complete|the request was aborted)$/,
                ),
              },
            },
          });
        // And the service goes on answering.
        expect((await raw('GET', '/api/health', {}, Buffer.alloc(0))).status).toBe(200);
      },
    );

    it('stops inflating a gzip bomb at the limit: 400 naming the limit, answered at once', async () => {
      const bomb = zlib.gzipSync(Buffer.alloc(200 * 1024 * 1024, ' '), { level: 9 });
      expect(bomb.length).toBeLessThan(300 * 1024);
      const res = await raw('POST', '/api/v1/auth/password', { ...json, 'Content-Encoding': 'gzip' }, bomb);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 'bad_request', message: 'the request body is larger than 1 MB' } },
      });
      expect(res.ms).toBeLessThan(2000);
    });

    it.each<[string, string, Record<string, string>, string]>([
      ['an anonymous sign-in', '/api/v1/auth/password', {}, '1 MB'],
      ['a bulk post with a write key', '/api/v1/monitors/bulk', {}, '10 MB'],
    ])('refuses %s whose Content-Length is past its limit before reading the body', async (_, path, extra, limit) => {
      const auth = path.endsWith('bulk') ? write : extra;
      // 50 MB announced, 64 KB sent: the answer comes while the rest is unsent, and the connection closes.
      const res = await raw('POST', path, { ...json, ...auth }, Buffer.alloc(64 * 1024, ' '), {
        length: 50 * 1024 * 1024,
      });
      expect({ status: res.status, connection: res.headers.connection, body: res.body }).toEqual({
        status: 400,
        connection: 'close',
        body: { error: { code: 'bad_request', message: `the request body is larger than ${limit}` } },
      });
    });
  });
});

describe('a body that takes too long to arrive', () => {
  let t: TestApp;
  let port: number;
  let server: Server;
  /** Shortened from the service's 30 s for the test; the period of Node's check stays the service's. */
  const DEADLINE_MS = 1500;

  beforeAll(async () => {
    t = await startApp();
    server = t.app.getHttpServer() as Server;
    expect({
      request: server.requestTimeout,
      headers: server.headersTimeout,
      check: (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval,
    }).toEqual({
      request: REQUEST_DEADLINE_MS,
      headers: REQUEST_DEADLINE_MS,
      check: 1000,
    });
    server.requestTimeout = DEADLINE_MS;
    server.headersTimeout = DEADLINE_MS;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  /** Sends a head announcing 1 MB, then one byte every 100 ms; resolves with what came back and when the server closed. */
  function trickle(path: string): Promise<{ text: string; answeredMs: number | null; closedMs: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      let answeredMs: number | null = null;
      socket.on('data', (c: Buffer) => {
        answeredMs ??= Date.now() - started;
        text += c.toString('latin1');
      });
      socket.on('error', () => undefined);
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: farsight.test\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024 - 1}\r\n\r\n{"email": "`,
      );
      const drip = setInterval(() => socket.write('a'), 100);
      // A bound of the test's own: the server must have closed long before.
      const stop = setTimeout(() => socket.destroy(), 10_000);
      socket.on('close', () => {
        clearInterval(drip);
        clearTimeout(stop);
        resolve({ text, answeredMs, closedMs: Date.now() - started });
      });
    });
  }

  it('answers a body still trickling in at the deadline 408 in the envelope and closes', async () => {
    const res = await trickle('/api/v1/auth/password');
    expect(res.text.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(res.text.slice(res.text.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'bad_request', message: 'the request took too long to arrive' },
    });
    expect(res.closedMs).toBeGreaterThanOrEqual(DEADLINE_MS);
    expect(res.closedMs).toBeLessThan(DEADLINE_MS + 1000 + 500);
    expect(t.logs.filter((l) => /unexpected error|\n\s+at /.test(l))).toEqual([]);
  });

  it('closes a connection whose body is not read (401) at the deadline, instead of reading its rest', async () => {
    const res = await trickle('/api/v1/monitors');
    expect(res.text.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(res.answeredMs).toBeLessThan(DEADLINE_MS);
    expect(res.closedMs).toBeLessThan(DEADLINE_MS + 1000 + 500);
  });
});
