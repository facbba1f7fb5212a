/**
 * Request limits over real sockets (issue 10): who may make the service read a body, how large
 * bodies, URLs and headers are answered. Node's http client, so a test can stop sending halfway.
 */
import * as http from 'node:http';
import { TestApp, startListeningApp } from '../support/app';
import { heartbeatMonitor } from '../support/monitors';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** How long a test waits for an answer that must come before the request is complete. */
const ANSWER_BOUND_MS = 5000;

describe('request limits', () => {
  let t: TestApp;
  let port: number;
  let write: Record<string, string>;

  beforeAll(async () => {
    ({ t, port, write } = await startListeningApp());
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Sends the head of a request that announces `length` body bytes, then `first` bytes of it, and
   * resolves with the answer, which must come while the rest of the body is still unsent.
   */
  function answerBeforeBody(
    path: string,
    headers: Record<string, string>,
    length: number,
    first: number,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers },
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(
          new Error(`no answer within ${ANSWER_BOUND_MS} ms while ${length - first} body bytes were still unsent`),
        );
      }, ANSWER_BOUND_MS);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() });
        });
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.write(Buffer.concat([Buffer.from('{"monitors": ["'), Buffer.alloc(first, 'a')]));
    });
  }

  /** Sends a whole request and resolves with the answer (even if the server stops reading early). */
  function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      });
      // Writing may fail once the server has answered and closed: the answer is what the test checks.
      req.on('error', (err) => reject(err));
      req.end(body);
    });
  }

  describe('unauthenticated requests are answered before their body is read', () => {
    const BIG = Math.floor(9.9 * 1024 * 1024);

    it.each<[string, Record<string, string>]>([
      ['no credentials', {}],
      ['an unknown API key', { Authorization: `Bearer fs_${'0'.repeat(48)}` }],
      ['an unknown session cookie', { Cookie: 'service_session=not-a-session' }],
    ])('answers 401 sign_in to a 9.9 MB bulk post with %s while the body is still being sent', async (_, headers) => {
      const res = await answerBeforeBody('/api/v1/monitors/bulk', headers, BIG, 64 * 1024);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text)).toEqual({ error: { code: 'sign_in', message: expect.any(String) } });
    });

    it('answers 401, not a content-type error, to an anonymous body that is not JSON', async () => {
      const res = await send('POST', '/api/v1/monitors', { 'Content-Type': 'text/plain' }, Buffer.from('hello'));
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text).error.code).toBe('sign_in');
    });

    it('still reads the body of a signed-in request (and of public routes)', async () => {
      const body = Buffer.from(JSON.stringify({ monitors: [], dry_run: true }));
      const res = await send('POST', '/api/v1/monitors/bulk', { ...write, 'Content-Type': 'application/json' }, body);
      expect({ status: res.status, body: JSON.parse(res.text) }).toEqual({
        status: 200,
        body: { created: [], updated: [], unchanged: [], errors: [] },
      });
      const setup = await send(
        'POST',
        '/api/v1/auth/setup/nope',
        { 'Content-Type': 'application/json' },
        Buffer.from('{"email": '),
      );
      expect(JSON.parse(setup.text).error).toEqual({
        code: 'bad_request',
        message: 'the request body is not valid JSON',
      });
    });
  });

  describe('heartbeat failure bodies', () => {
    let hbPath: string;
    let monitorId: number;
    beforeAll(async () => {
      const res = await send(
        'POST',
        '/api/v1/monitors',
        { ...write, 'Content-Type': 'application/json' },
        Buffer.from(JSON.stringify(heartbeatMonitor())),
      );
      const created = JSON.parse(res.text) as { id: number; heartbeat_url: string };
      monitorId = created.id;
      hbPath = new URL(created.heartbeat_url).pathname;
    });

    it('takes a body up to 64 KB and keeps its first 1 KB', async () => {
      const res = await send('POST', `${hbPath}/fail`, { 'Content-Type': 'text/plain' }, Buffer.alloc(64 * 1024, 'x'));
      expect(res.status).toBe(200);
      const got = await send('GET', `/api/v1/monitors/${monitorId}`, write);
      expect(JSON.parse(got.text).state.error.message).toBe(`failure reported: ${'x'.repeat(1024)}`);
    });

    it.each([
      ['65 KB', 65 * 1024],
      ['200 KB', 200 * 1024],
      ['1000 KB', 1000 * 1024],
    ])('answers a %s failure body with 413 in plain text, not a reset', async (_, size) => {
      const res = await send('POST', `${hbPath}/fail`, { 'Content-Type': 'text/plain' }, Buffer.alloc(size, 'x'));
      expect({ status: res.status, type: res.headers['content-type'], text: res.text }).toEqual({
        status: 413,
        type: 'text/plain; charset=utf-8',
        text: 'body too large: at most 64 KB\n',
      });
    });

    it('answers a sender still going past 1 MB with 413 and closes the connection', async () => {
      const res = await send(
        'POST',
        `${hbPath}/fail`,
        { 'Content-Type': 'text/plain' },
        Buffer.alloc(4 * 1024 * 1024, 'x'),
      );
      expect({ status: res.status, connection: res.headers.connection, text: res.text }).toEqual({
        status: 413,
        connection: 'close',
        text: 'body too large: at most 64 KB\n',
      });
    });

    it('leaves the monitor as it was after a refused body', async () => {
      await send('POST', `${hbPath}/fail`, { 'Content-Type': 'text/plain' }, Buffer.alloc(200 * 1024, 'y'));
      const got = await send('GET', `/api/v1/monitors/${monitorId}`, write);
      expect(JSON.parse(got.text).state.error?.message ?? '').not.toContain('yyyy');
    });
  });

  describe('URLs and headers', () => {
    it('answers a request-target over 8 KB with 414 in the envelope', async () => {
      const res = await send('GET', `/api/v1/monitors?pad=${'a'.repeat(8 * 1024)}`, write);
      expect(res.status).toBe(414);
      expect(JSON.parse(res.text)).toEqual({ error: { code: 'bad_request', message: 'the URL is longer than 8 KB' } });
      const hb = await send('GET', `/hb/${'a'.repeat(9000)}`, {});
      expect(hb.status).toBe(414);
    });

    it('still serves a URL of exactly 8 KB', async () => {
      const path = '/api/v1/monitors?pad=';
      const res = await send('GET', `${path}${'a'.repeat(8 * 1024 - path.length)}`, write);
      expect(res.status).toBe(200);
    });

    it('answers a URL longer than all the headers may be (20 KB) with 414 too', async () => {
      const res = await send('GET', `/api/v1/monitors?pad=${'a'.repeat(20 * 1024)}`, write);
      expect({ status: res.status, body: JSON.parse(res.text) }).toEqual({
        status: 414,
        body: { error: { code: 'bad_request', message: 'the URL is longer than 8 KB' } },
      });
    });

    it('answers headers over 16 KB with 431 in the envelope', async () => {
      const res = await send('GET', '/api/health', { 'X-Padding': 'a'.repeat(20 * 1024) });
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(res.text)).toEqual({
        error: { code: 'bad_request', message: 'the request headers are larger than 16 KB' },
      });
    });
  });
});
