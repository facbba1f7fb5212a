import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnswerReader, parseHead, runRawGetLoad } from './raw-load';

const answer = (status: number, body: string, extra = '') =>
  `HTTP/1.1 ${status} X\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('parseHead', () => {
  it.each<[string, { status: number; close: boolean; length: number }]>([
    ['HTTP/1.1 200 OK\r\nContent-Length: 3', { status: 200, close: false, length: 3 }],
    ['HTTP/1.1 404 Not Found\r\ncontent-length:0\r\nConnection: close', { status: 404, close: true, length: 0 }],
    ['HTTP/1.0 200 OK\r\nContent-Length: 1', { status: 200, close: true, length: 1 }],
    ['HTTP/1.0 200 OK\r\nContent-Length: 1\r\nConnection: keep-alive', { status: 200, close: false, length: 1 }],
    ['HTTP/1.1 429\r\nContent-Length: 5\r\nRetry-After: 3', { status: 429, close: false, length: 5 }],
  ])('%j', (head, parsed) => {
    expect(parseHead(head)).toEqual(parsed);
  });

  it.each<[string, RegExp]>([
    ['HTTP/2 200\r\nContent-Length: 1', /status line/],
    ['hello', /status line/],
    ['HTTP/1.1 200 OK', /without Content-Length/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked', /chunked/],
    ['HTTP/1.1 200 OK\r\nContent-Length: -1', /bad Content-Length/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2', /bad Content-Length/],
    ['HTTP/1.1 200 OK\r\nno colon here', /header line/],
  ])('refuses %j', (head, error) => {
    expect(() => parseHead(head)).toThrow(error);
  });
});

describe('AnswerReader', () => {
  const bytes = Buffer.from(answer(200, 'OK\n') + answer(404, 'unknown heartbeat URL\n', 'Connection: close\r\n'));

  it('reads answers however the bytes are cut', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const r = new AnswerReader();
      const got = [...r.feed(bytes.subarray(0, cut)), ...r.feed(bytes.subarray(cut))];
      expect(got.map((a) => [a.status, a.close, a.body.toString()])).toEqual([
        [200, false, 'OK\n'],
        [404, true, 'unknown heartbeat URL\n'],
      ]);
    }
  });

  it('reads byte by byte', () => {
    const r = new AnswerReader();
    const got = [];
    for (let i = 0; i < bytes.length; i++) got.push(...r.feed(bytes.subarray(i, i + 1)));
    expect(got.map((a) => a.status)).toEqual([200, 404]);
  });

  it('refuses a head that never ends', () => {
    const r = new AnswerReader();
    expect(() => r.feed(Buffer.from(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(20_000)}`))).toThrow(/over/);
  });
});

describe('runRawGetLoad against a real server', () => {
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  let connections = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const n = Number((req.url ?? '').split('/').pop());
      if (n % 10 === 3) {
        res.writeHead(404, { 'Content-Length': 5 }).end('nope\n');
      } else if (n % 10 === 7) {
        // Closes the connection with this answer: the client connects again.
        res.writeHead(200, { 'Content-Length': 3, Connection: 'close' }).end('ok\n');
      } else if (n % 10 === 9) {
        // An answer this client cannot read: a failed request, the connection closed.
        res.writeHead(200, { 'Transfer-Encoding': 'chunked' }).end('ok\n');
      } else {
        res.writeHead(200, { 'Content-Length': 3 }).end('ok\n');
      }
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends each path once, counts answers by status and reconnects after close and failures', async () => {
    seen.length = 0;
    connections = 0;
    const r = await runRawGetLoad({ host: '127.0.0.1', port, path: (i) => `/hb/${i}`, concurrency: 4, requests: 100 });
    expect(seen.sort()).toEqual(Array.from({ length: 100 }, (_, i) => `/hb/${i}`).sort());
    expect(r.statuses).toEqual({ 200: 80, 404: 10, 0: 10 });
    expect(r.latencies).toHaveLength(90);
    expect(r.firstError).toMatch(/chunked|HTTP 404/);
    // 4 first connections, one more after each close (10) and each unreadable answer (10), at most.
    expect(connections).toBeGreaterThan(4);
    expect(connections).toBeLessThanOrEqual(24);
  });

  it('counts a refused connection as a failed request and goes on', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await runRawGetLoad({ host: '127.0.0.1', port: deadPort, path: () => '/', concurrency: 2, requests: 6 });
    expect(r.statuses).toEqual({ 0: 6 });
    expect(r.firstError).toMatch(/ECONNREFUSED/);
  });
});
