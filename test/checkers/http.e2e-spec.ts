/** http checks against the loopback farm: requests, redirects and response rules. */
import type { Socket } from 'node:net';
import { version } from '../../package.json';
import type { CheckErrorCode } from '../../src/probes/check-result';
import { checkHttp } from '../../src/probes/checkers/http';
import type { HttpSettings } from '../../src/probes/kinds';
import { HTTP_METHODS } from '../../src/probes/kinds';
import { farmCerts } from '../../harness/servers/certs';
import {
  FARM_BASIC,
  FARM_BEARER,
  HttpFarm,
  HttpTarget,
  startHttpFarm,
  startHttpTarget,
} from '../../harness/servers/http-farm';
import { FARM_BANNER, freePort, startTcpTarget } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makeHttp, NOW } from './factories';

let farm: HttpFarm;
let other: HttpTarget; // a second origin, for cross-origin redirects
const env = makeEnv(farmCerts().ca);
const ctx = makeCtx();

beforeAll(async () => {
  [farm, other] = await Promise.all([startHttpFarm(farmCerts().valid), startHttpTarget()]);
});
afterAll(async () => {
  await Promise.all([farm.close(), other.close()]);
});

const check = (path: string, over: Partial<HttpSettings> = {}) =>
  checkHttp(makeHttp(`${farm.http.url}${path}`, over), ctx, env);

describe('http check', () => {
  it('is up for a 200 answer, with status, latency, phases and the clock time', async () => {
    const result = await check('/ok');
    expect(result).toMatchObject({ at_ms: NOW, outcome: 'up', status: 200, error: null, cert: null, detail: null });
    expect(result.latency_ms).toBeGreaterThan(0);
    expect(result.phases).toMatchObject({ dns_ms: null, tls_ms: null });
    expect(result.phases.connect_ms).not.toBeNull();
    expect(result.phases.ttfb_ms).not.toBeNull();
  });

  it.each(HTTP_METHODS.filter((m) => m !== 'HEAD'))('sends %s', async (method) => {
    const result = await check('/echo', { method, json: [{ path: '$.method', op: '==', value: method }] });
    expect(result.error).toBeNull();
  });

  it('fails with json when the server saw another method than the rule expects', async () => {
    const result = await check('/echo', { method: 'DELETE', json: [{ path: '$.method', op: '==', value: 'GET' }] });
    expect(result.error).toEqual({ code: 'json', message: '$.method: expected == "GET", got "DELETE"' });
  });

  it('sends HEAD and judges the status of a body-less answer', async () => {
    expect(await check('/ok', { method: 'HEAD' })).toMatchObject({ outcome: 'up', status: 200 });
  });

  it('sends the body with its content type', async () => {
    const result = await check('/echo', {
      method: 'POST',
      body: '{"ping":1}',
      content_type: 'application/json',
      json: [
        { path: '$.body', op: '==', value: '{"ping":1}' },
        { path: '$.content_type', op: '==', value: 'application/json' },
      ],
    });
    expect(result.error).toBeNull();
  });

  it('fails with json when the echoed body is not what was expected', async () => {
    const result = await check('/echo', {
      method: 'POST',
      body: 'hello',
      json: [{ path: '$.body', op: '==', value: 'bye' }],
    });
    expect(result.error).toEqual({ code: 'json', message: '$.body: expected == "bye", got "hello"' });
  });

  it('sends headers, and a Farsight User-Agent unless one is set', async () => {
    const headers = [{ name: 'X-Trace', value: 'abc', secret: false }];
    const json = [
      { path: '$["x-trace"]', op: '==' as const, value: 'abc' },
      { path: '$["user-agent"]', op: '==' as const, value: `Farsight/${version}` },
    ];
    expect((await check('/echo-headers', { headers, json })).error).toBeNull();
    const custom = [{ name: 'user-agent', value: 'probe/1', secret: false }];
    const result = await check('/echo-headers', {
      headers: custom,
      json: [{ path: '$["user-agent"]', op: '==', value: 'probe/1' }],
    });
    expect(result.error).toBeNull();
  });

  it.each<[string, CheckErrorCode | null, 'basic' | 'bearer', Partial<HttpSettings>]>([
    ['right basic credentials', null, 'basic', { auth: { type: 'basic', ...FARM_BASIC } }],
    ['wrong basic credentials', 'status', 'basic', { auth: { type: 'basic', username: 'farsight', password: 'nope' } }],
    ['a right bearer token', null, 'bearer', { auth: { type: 'bearer', token: FARM_BEARER } }],
    ['a wrong bearer token', 'status', 'bearer', { auth: { type: 'bearer', token: 'nope' } }],
    [
      'a right Authorization header',
      null,
      'bearer',
      { headers: [{ name: 'Authorization', value: `Bearer ${FARM_BEARER}`, secret: true }] },
    ],
    [
      'a wrong Authorization header',
      'status',
      'bearer',
      { headers: [{ name: 'Authorization', value: 'Bearer nope', secret: true }] },
    ],
  ])('with %s ends with error %p', async (_name, code, scheme, over) => {
    const result = await check(`/auth/${scheme}`, over);
    expect(result.error?.code ?? null).toBe(code);
  });

  it('never puts credentials in messages', async () => {
    const result = await checkHttp(
      makeHttp(`http://user:urlpass@127.0.0.1:${farm.http.port}/auth/basic?token=qtoken`, {
        auth: { type: 'basic', username: 'farsight', password: 'hunter2' },
        headers: [{ name: 'X-Api-Key', value: 'hkey', secret: true }],
        body: 'bodysecret',
        method: 'POST',
      }),
      ctx,
      env,
    );
    expect(result.error).toEqual({ code: 'status', message: 'expected status 200-399, got 401' });
    expect(JSON.stringify(result)).not.toMatch(/urlpass|qtoken|hunter2|hkey|bodysecret/);
  });

  it.each<[string, Partial<HttpSettings>, number, CheckErrorCode | null]>([
    ['a status in the default range', {}, 204, null],
    ['a status outside the default range', {}, 503, 'status'],
    ['a status listed in expect_status', { expect_status: '200-299, 503' }, 503, null],
    ['a status not listed in expect_status', { expect_status: '200-299,401' }, 302, 'status'],
  ])('judges %s', async (_name, over, status, code) => {
    const result = await check(`/status/${status}`, { follow_redirects: false, ...over });
    expect(result.status).toBe(status);
    expect(result.error?.code ?? null).toBe(code);
  });

  it('says which status it expected', async () => {
    expect((await check('/status/503')).error).toEqual({ code: 'status', message: 'expected status 200-399, got 503' });
  });
});

describe('http redirects', () => {
  it('follows 5 relative redirects', async () => {
    const result = await check('/redirect/5');
    expect(result).toMatchObject({
      outcome: 'up',
      status: 200,
      detail: `followed 5 redirects to ${farm.http.url}/redirect/0`,
    });
    expect(farm.http.hits('/redirect/0')).toBeGreaterThan(0);
  });

  it('fails with redirects after a 6th hop', async () => {
    const result = await check('/redirect/6');
    expect(result.status).toBe(302);
    expect(result.error).toEqual({
      code: 'redirects',
      message: `more than 5 redirects (the last one from ${farm.http.url}/redirect/1)`,
    });
  });

  it('fails with redirects on a loop', async () => {
    expect((await check('/redirect-loop')).error?.code).toBe('redirects');
  });

  it('follows an absolute Location, also from http to https', async () => {
    expect(await check('/redirect-abs')).toMatchObject({ outcome: 'up', status: 200 });
    const result = await check(`/redirect-abs?to=${encodeURIComponent(`${farm.https.url}/ok`)}`);
    expect(result).toMatchObject({ outcome: 'up', status: 200 });
    expect(result.cert?.issuer).toBe('Farsight Test CA');
  });

  it('judges the 3xx itself when follow_redirects is off', async () => {
    expect(await check('/redirect/1', { follow_redirects: false })).toMatchObject({ outcome: 'up', status: 302 });
    const strict = await check('/redirect/1', { follow_redirects: false, expect_status: '200' });
    expect(strict.error).toEqual({ code: 'status', message: 'expected status 200, got 302' });
  });

  it('keeps credentials on the same origin and drops them on another', async () => {
    const auth = { type: 'bearer' as const, token: FARM_BEARER };
    const headers = [
      { name: 'X-Secret', value: 's', secret: true },
      { name: 'X-Plain', value: 'p', secret: false },
    ];
    const same = await check(`/redirect-abs?to=${encodeURIComponent(`${farm.http.url}/echo-headers`)}`, {
      auth,
      headers,
      json: [
        { path: '$.authorization', op: 'exists' },
        { path: '$["x-secret"]', op: 'exists' },
      ],
    });
    expect(same.error).toBeNull();
    const cross = await check(`/redirect-abs?to=${encodeURIComponent(`${other.url}/echo-headers`)}`, {
      auth,
      headers,
      json: [
        { path: '$.authorization', op: 'not_exists' },
        { path: '$["x-secret"]', op: 'not_exists' },
        { path: '$["x-plain"]', op: '==', value: 'p' },
      ],
    });
    expect(cross.error).toBeNull();
  });

  it('turns a POST into a GET after a 302', async () => {
    const result = await check(`/redirect-abs?to=${encodeURIComponent(`${farm.http.url}/echo`)}`, {
      method: 'POST',
      body: 'x',
      expect_status: '200-399',
      json: [{ path: '$.method', op: '==', value: 'GET' }],
    });
    expect(result.error).toBeNull();
  });
});

describe('http response rules', () => {
  it.each<[string, string, Partial<HttpSettings>, CheckErrorCode | null]>([
    ['body_contains that is there', '/text?contains=healthy', { body_contains: 'healthy' }, null],
    ['body_contains that is missing', '/text?contains=sick', { body_contains: 'healthy' }, 'body'],
    ['body_not_contains that is absent', '/text?contains=healthy', { body_not_contains: 'error' }, null],
    ['body_not_contains that is there', '/text?contains=error', { body_not_contains: 'error' }, 'body'],
    [
      'json rules that hold',
      '/json',
      {
        json: [
          { path: '$.checks.db', op: '==', value: 'ok' },
          { path: '$.items', op: 'contains', value: 2 },
        ],
      },
      null,
    ],
    ['a json rule that fails', '/json', { json: [{ path: '$.checks.cache', op: '==', value: 'ok' }] }, 'json'],
    ['json rules on a body that is not JSON', '/ok', { json: [{ path: '$', op: 'exists' }] }, 'json'],
    ['json rules on a body over 1 MB', '/big/2', { json: [{ path: '$', op: 'exists' }] }, 'json'],
    ['expect_header that matches', '/json', { expect_header: { name: 'Content-Type', contains: 'json' } }, null],
    ['expect_header that does not match', '/json', { expect_header: { name: 'x-farm', contains: 'other' } }, 'header'],
    ['expect_header for a missing header', '/json', { expect_header: { name: 'x-missing', contains: 'a' } }, 'header'],
    ['max_ms above the latency', '/ok', { max_ms: 2000 }, null],
    ['max_ms below the latency', '/slow/150', { max_ms: 50 }, 'too_slow'],
  ])('%s', async (_name, path, over, code) => {
    const result = await check(path, over);
    expect(result.error?.code ?? null).toBe(code);
    expect(result.outcome).toBe(code ? 'down' : 'up');
  });

  it('explains a failed json rule', async () => {
    const result = await check('/json', { json: [{ path: '$.status', op: '==', value: 'degraded' }] });
    expect(result.error).toEqual({ code: 'json', message: '$.status: expected == "degraded", got "ok"' });
  });

  it('reads only the first 1 MB of a big body and drops the connection', async () => {
    const result = await check('/big/200', { body_contains: 'never-there' });
    expect(result.error).toEqual({
      code: 'body',
      message: 'the first 1 MB of the body does not contain "never-there"',
    });
    // The farm stops writing once our side has dropped the connection.
    expect(await farm.http.bigClosed()).toBeLessThan(32 * 1024 * 1024);
  });

  it.each<[string, CheckErrorCode, (socket: Socket) => void]>([
    ['protocol when the peer does not speak HTTP', 'protocol', (socket) => socket.write(FARM_BANNER)],
    ['reset when the server drops the connection', 'reset', (socket) => socket.resetAndDestroy()],
    ['reset when the server closes before answering', 'reset', (socket) => socket.end()],
  ])('fails with %s', async (_name, code, onConnection) => {
    const server = await startTcpTarget(onConnection);
    try {
      const result = await checkHttp(makeHttp(`http://127.0.0.1:${server.port}/`), ctx, env);
      expect(result.error?.code).toBe(code);
    } finally {
      await server.close();
    }
  });

  it('fails with refused when nothing listens', async () => {
    const port = await freePort();
    const result = await checkHttp(makeHttp(`http://127.0.0.1:${port}/`), ctx, env);
    expect(result.error).toEqual({ code: 'refused', message: `connection refused by 127.0.0.1:${port}` });
  });
});
