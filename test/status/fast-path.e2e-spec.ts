/**
 * The fast path (src/status/public/public-fast-path.ts): the home page and the public JSON are
 * sent ahead of the framework, built there when they are not kept. Each case asks the fast path
 * (which builds), the fast path again (the kept answer) and the framework (the same URL with a
 * query the fast path leaves alone), and holds the three equal: status, every header but Date,
 * and the body's bytes, plain and compressed, HEAD included. Then what must never come from it:
 * a page unpublished, settings a write has just dropped, another query; and a build that fails,
 * which the framework answers with the error's envelope.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PublicStatusService } from '../../src/status/public/public-status.service';
import { Packed } from '../../src/common/http/compression/compression';
import { StatusPageRepository } from '../../src/status/settings/status-page.repository';
import { Database } from '../../src/db/database';
import { PublicData } from '../../src/status/public/public-data';
import { bearer, createKey, createOwner, startApp, TestApp } from '../support/app';
import { seedStatusPage } from './seed';

let t: TestApp;
let key: string;
let pages: PublicStatusService;
/**
 * What the fast path was given for each request it looked at, in order: the kept answer, a build,
 * or nothing (it left the request to the framework).
 */
type Given = 'kept' | 'built' | 'framework';
let served: Given[];
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
  const fastAnswer = pages.fastAnswer.bind(pages);
  // Observed, not changed: only the fast path calls fastAnswer, and sends what it returns.
  jest.spyOn(pages, 'fastAnswer').mockImplementation((kind, range) => {
    const a = fastAnswer(kind, range);
    served.push(a === null ? 'framework' : a.packed instanceof Packed ? 'kept' : 'built');
    return a;
  });
});
beforeEach(() => {
  served = [];
  // Nothing kept from the case before: the first request of each case builds.
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

/** The same request for the framework: a query the fast path leaves alone, which the controller ignores. */
function viaFramework(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}x=1`;
}

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
  it('the fast path builds, then sends what it kept, as the framework sends it: status, headers and bytes', async () => {
    const built = await raw('GET', path, headers);
    expect(built.status).toBe(200);
    const kept = await raw('GET', path, headers);
    const framework = await raw('GET', viaFramework(path), headers);
    expect(served).toEqual(['built', 'kept']);
    for (const other of [kept, framework]) {
      expect(other.status).toBe(200);
      expect(other.headers).toEqual(built.headers);
      expect(other.body.equals(built.body)).toBe(true);
    }
    expect(built.headers['content-security-policy']).toBeDefined();
    expect(built.headers['x-frame-options']).toBe('DENY');
  });

  it('HEAD: the same headers, no body, built or kept', async () => {
    const built = await raw('HEAD', path, headers);
    const kept = await raw('HEAD', path, headers);
    const framework = await raw('HEAD', viaFramework(path), headers);
    expect(served).toEqual(['built', 'kept']);
    for (const a of [built, kept]) {
      expect(a.body.length).toBe(0);
      expect(a.headers).toEqual(framework.headers);
    }
  });
});

it('requests that arrive during a build wait for it: one build for all of them', async () => {
  // Observed, not changed: each build reads the public services once.
  const reads = jest.spyOn(t.app.get(PublicData), 'services');
  try {
    const answers = await Promise.all([1, 2, 3].map(() => raw('GET', '/api/public/status')));
    expect(served[0]).toBe('built');
    expect(reads).toHaveBeenCalledTimes(1);
    for (const a of answers) expect(a.body.equals(answers[0].body)).toBe(true);
  } finally {
    reads.mockRestore();
  }
});

it('the default range and the same range asked by name are one kept answer', async () => {
  await raw('GET', '/api/public/status');
  expect((await raw('GET', '/api/public/status?range=90d')).status).toBe(200);
  // A range the page does not offer falls back to the default, as the controller says.
  expect((await raw('GET', '/api/public/status?range=5y')).status).toBe(200);
  expect(served).toEqual(['built', 'kept', 'kept']);
});

it('a page with the subscribe form: its own Content-Security-Policy comes through the fast path', async () => {
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ subscribers: true }).expect(200);
  const built = await raw('GET', '/status');
  const kept = await raw('GET', '/status');
  expect(served).toEqual(['built', 'kept']);
  expect(built.headers['content-security-policy']).toContain("form-action 'self'");
  expect(kept.headers).toEqual(built.headers);
  expect((await raw('GET', viaFramework('/status'))).headers).toEqual(built.headers);
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ subscribers: false }).expect(200);
});

it('a settings change is in the very next answer; an unpublished page is never sent from it', async () => {
  await raw('GET', '/status');
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ title: 'Lab after the change' }).expect(200);
  const changed = await raw('GET', '/status');
  expect(changed.body.toString()).toContain('Lab after the change');
  expect(served).toEqual(['built', 'built']);

  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ enabled: false }).expect(200);
  expect((await raw('GET', '/status')).status).toBe(404);
  expect((await raw('GET', '/api/public/status')).status).toBe(404);
  expect(served.slice(2)).toEqual(['framework', 'framework']);
  await t.http.put('/api/v1/status-page').set(bearer(key)).send({ enabled: true }).expect(200);
});

it('while a write has dropped the settings from memory, the framework answers and reads them', async () => {
  t.app.get(StatusPageRepository).forget();
  expect((await raw('GET', '/api/public/status')).status).toBe(200);
  expect((await raw('GET', '/api/public/status')).status).toBe(200);
  expect(served).toEqual(['framework', 'kept']);
});

it('an answer past its 30 s is built again', async () => {
  await raw('GET', '/api/public/status');
  t.clock.advance(29_000);
  await raw('GET', '/api/public/status');
  t.clock.advance(1_000);
  await raw('GET', '/api/public/status');
  await raw('GET', '/api/public/status');
  expect(served).toEqual(['built', 'kept', 'built', 'kept']);
});

it('a build that fails is left to the framework, which answers with the error envelope; nothing is kept', async () => {
  const db = t.app.get(Database);
  // A real failure: the build's read of incidents finds no table.
  await db.query('ALTER TABLE incidents RENAME TO incidents_away');
  try {
    const failed = await raw('GET', '/api/public/status');
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body.toString())).toEqual({
      error: { code: 'internal', message: expect.any(String) },
    });
    expect(failed.body.toString()).not.toContain('incidents_away');
  } finally {
    await db.query('ALTER TABLE incidents_away RENAME TO incidents');
  }
  expect((await raw('GET', '/api/public/status')).status).toBe(200);
  expect(served).toEqual(['built', 'built']);
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
    const kept = await raw(method, path, { ...PAGE_HOST, ...headers });
    const framework = await raw(method, viaFramework(path), { ...PAGE_HOST, ...headers });
    expect(served).toEqual(['built', 'kept']);
    for (const other of [kept, framework]) {
      expect(other.status).toBe(200);
      expect(other.headers).toEqual(built.headers);
      expect(other.body.equals(built.body)).toBe(true);
    }
    // The same kept answer as /status.
    expect((await raw(method, path.replace('/', '/status'), headers)).body.equals(built.body)).toBe(true);
  });

  it('on any other host, / is not the status page and is left to the framework', async () => {
    await raw('GET', '/status');
    const own = await raw('GET', '/');
    expect(own.status).toBe(303);
    expect((await raw('GET', '/', { Host: 'other.example' })).status).toBe(303);
    expect(served).toEqual(['built']);
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
