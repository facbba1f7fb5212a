/**
 * The fast path (src/status/public/public-fast-path.ts): once the home page or the public JSON is
 * built, the next requests for it are sent ahead of the framework. Each case asks the framework
 * first (the answer is built) and then the fast path (the same URL again), and holds the two equal:
 * status, every header but Date, and the body's bytes, plain and compressed, HEAD included. Then
 * what must never come from it: a page unpublished, a settings change, an answer past its 30 s,
 * another query.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PublicStatusService } from '../../src/status/public/public-status.service';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { seedStatusPage } from './seed';

let t: TestApp;
let key: string;
let pages: PublicStatusService;
/** What the fast path asked for and was given, in order (null: it left the request to the framework). */
let served: boolean[];

beforeAll(async () => {
  t = await startApp();
  const { cookie } = await createOwner(t);
  key = await createKey(t, cookie, 'admin');
  await seedStatusPage(
    t,
    bearer(key),
    [
      { name: 'Web', group: 'Front', downDays: { 2: 30 } },
      { name: 'DNS', group: 'Back' },
    ],
    40,
  );
  await new Promise<void>((resolve) => t.app.getHttpServer().listen(0, '127.0.0.1', resolve));
  pages = t.app.get(PublicStatusService);
  const ready = pages.readyAnswer.bind(pages);
  // Observed, not changed: only the fast path calls readyAnswer, and sends what it returns.
  jest.spyOn(pages, 'readyAnswer').mockImplementation((kind, range) => {
    const a = ready(kind, range);
    served.push(a !== null);
    return a;
  });
});
beforeEach(() => {
  served = [];
  // Nothing kept from the case before: the first request of each case is the framework's.
  pages.invalidate();
});
afterAll(async () => t.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const { date: _date, connection: _c, 'keep-alive': _k, ...rest } = res.headers;
          resolve({ status: res.statusCode ?? 0, headers: rest, body: Buffer.concat(parts) });
        });
      })
      .on('error', reject)
      .end();
  });
}

const BR = { 'Accept-Encoding': 'br' };
const GZIP = { 'Accept-Encoding': 'gzip, deflate' };

describe.each([
  ['/status', {}],
  ['/status', BR],
  ['/status', GZIP],
  ['/status?range=24h', BR],
  ['/status?range=12mo', {}],
  ['/api/public/status', {}],
  ['/api/public/status', BR],
  ['/api/public/status?range=7d', GZIP],
])('GET %s %j', (path, headers) => {
  it('the fast path sends what the framework sent: status, headers and bytes', async () => {
    const built = await raw('GET', path, headers);
    expect(built.status).toBe(200);
    const fast = await raw('GET', path, headers);
    expect(served).toEqual([false, true]);
    expect(fast.headers).toEqual(built.headers);
    expect(fast.body.equals(built.body)).toBe(true);
    expect(built.headers['content-security-policy']).toBeDefined();
    expect(built.headers['x-frame-options']).toBe('DENY');
  });

  it('HEAD: the same headers, no body', async () => {
    await raw('GET', path, headers);
    const viaFramework = await raw('HEAD', `${path}${path.includes('?') ? '&' : '?'}x=1`, headers);
    const fast = await raw('HEAD', path, headers);
    expect(served.at(-1)).toBe(true);
    expect(fast.body.length).toBe(0);
    expect(fast.headers).toEqual(viaFramework.headers);
  });
});

it('the default range and the same range asked by name are one kept answer', async () => {
  await raw('GET', '/api/public/status');
  expect((await raw('GET', '/api/public/status?range=90d')).status).toBe(200);
  // A range the page does not offer falls back to the default, as the controller says.
  expect((await raw('GET', '/api/public/status?range=5y')).status).toBe(200);
  expect(served).toEqual([false, true, true]);
});

it('a page with the subscribe form: its own Content-Security-Policy comes through the fast path', async () => {
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ subscribers: true }).expect(200);
  const built = await raw('GET', '/status');
  const fast = await raw('GET', '/status');
  expect(served).toEqual([false, true]);
  expect(fast.headers['content-security-policy']).toContain("form-action 'self'");
  expect(fast.headers).toEqual(built.headers);
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ subscribers: false }).expect(200);
});

it('a settings change is in the very next answer; an unpublished page is never sent from it', async () => {
  await raw('GET', '/status');
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ title: 'Lab after the change' }).expect(200);
  const changed = await raw('GET', '/status');
  expect(changed.body.toString()).toContain('Lab after the change');
  expect(served).toEqual([false, false]);

  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ enabled: false }).expect(200);
  expect((await raw('GET', '/status')).status).toBe(404);
  expect((await raw('GET', '/api/public/status')).status).toBe(404);
  expect(served.slice(2)).toEqual([false, false]);
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ enabled: true }).expect(200);
});

it('an answer past its 30 s goes to the framework, which builds it again', async () => {
  await raw('GET', '/api/public/status');
  t.clock.advance(29_000);
  await raw('GET', '/api/public/status');
  t.clock.advance(1_000);
  await raw('GET', '/api/public/status');
  await raw('GET', '/api/public/status');
  expect(served).toEqual([false, true, false, true]);
});

describe("/ on one of the page's own hosts, where it is the home page", () => {
  const PAGE_HOST = { Host: 'status.acme.example' };
  beforeAll(async () => {
    await t.http
      .put('/api/v1/status-page')
      .set(bearer(key))
      .send({ hosts: ['status.acme.example'] })
      .expect(200);
  });
  afterAll(async () => {
    await t.http.put('/api/v1/status-page').set(bearer(key)).send({ hosts: [] }).expect(200);
  });

  it.each([
    ['GET', '/', {}],
    ['GET', '/?range=24h', { 'Accept-Encoding': 'br' }],
    ['HEAD', '/', { 'Accept-Encoding': 'gzip' }],
  ])('%s %s %j: the same answer as the framework', async (method, path, headers) => {
    const built = await raw(method, path, { ...PAGE_HOST, ...headers });
    expect(built.status).toBe(200);
    const fast = await raw(method, path, { ...PAGE_HOST, ...headers });
    expect(served).toEqual([false, true]);
    expect(fast.headers).toEqual(built.headers);
    expect(fast.body.equals(built.body)).toBe(true);
    // The same kept answer as /status.
    expect((await raw(method, path.replace('/', '/status'), headers)).body.equals(built.body)).toBe(true);
  });

  it('on any other host, / is not the status page and is left to the framework', async () => {
    await raw('GET', '/status');
    const own = await raw('GET', '/');
    expect(own.status).toBe(303);
    expect((await raw('GET', '/', { Host: 'other.example' })).status).toBe(303);
    expect(served).toEqual([false]);
  });
});

it('any other query, method or path is left to the framework', async () => {
  await raw('GET', '/status');
  await raw('GET', '/api/public/status');
  served = [];
  for (const path of ['/status?range=24h&x=1', '/status?range=24h#x', '/status/', '/STATUS', '/status?Range=24h']) {
    await raw('GET', path);
  }
  expect((await raw('POST', '/api/public/status')).status).toBe(404);
  expect(served).toEqual([]);
});
