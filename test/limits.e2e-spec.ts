/**
 * Request limits over real sockets (issue 10): who may make the service read a body, how large
 * bodies, URLs and headers are answered. Node's http client, so a test can stop sending halfway.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestApp, bearer, createKey, createOwner, startApp } from './support/app';

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
    t = await startApp();
    const { cookie } = await createOwner(t);
    write = bearer(await createKey(t, cookie, 'write'));
    const server = t.app.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Sends the head of a request that announces `length` body bytes, then `first` bytes of it, and
   * resolves with the answer, which must come while the rest of the body is still unsent.
   */
  function answerBeforeBody(path: string, headers: Record<string, string>, length: number, first: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers } });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error(`no answer within ${ANSWER_BOUND_MS} ms while ${length - first} body bytes were still unsent`));
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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
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
      const setup = await send('POST', '/api/v1/auth/setup/nope', { 'Content-Type': 'application/json' }, Buffer.from('{"email": '));
      expect(JSON.parse(setup.text).error).toEqual({ code: 'bad_request', message: 'the request body is not valid JSON' });
    });
  });
});
