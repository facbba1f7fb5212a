/**
 * Security headers on every kind of answer, whoever writes it: express and Nest (JSON, errors,
 * pages, assets, the stream), the heartbeat routes ahead of express, the request-limit answers,
 * and the raw answers to requests Node cannot parse. HSTS only when the dashboard is https.
 * And the session cookie's flags: HttpOnly and SameSite=Strict always, Secure on https.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { totpAt } from '../../src/auth/password/totp';
import { Api, Answer } from '../faults/support/api';
import { bearer, setupToken, startApp, TestApp } from '../support/app';

interface Seen {
  what: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** Every kind of answer the service gives, as seen on the wire. */
async function everyKind(api: Api, port: number, key: string, setupPageToken: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  const add = (what: string, a: Answer) => seen.push({ what, status: a.status, headers: a.headers });
  const auth = bearer(key);
  add('health', await api.request('GET', '/api/health'));
  add('JSON list', await api.request('GET', '/api/v1/monitors', { headers: auth }));
  add('not signed in', await api.request('GET', '/api/v1/monitors'));
  add('unknown resource', await api.request('GET', '/api/v1/monitors/999999', { headers: auth }));
  add('validation error', await api.request('POST', '/api/v1/monitors', { headers: auth, body: { kind: 'nope' } }));
  add('malformed JSON', await api.request('POST', '/api/v1/monitors', { headers: auth, body: '{"name":' }));
  add('unknown route', await api.request('GET', '/no/such/route'));
  add('setup page', await api.request('GET', `/setup/${setupPageToken}`));
  add('dashboard asset', await api.request('GET', '/dashboard/assets/pages/setup.js'));
  const hb = await api.json<{ heartbeat_url: string }>('POST', '/api/v1/monitors', {
    headers: auth,
    body: { name: 'cron', kind: 'heartbeat', interval_s: 3600, heartbeat: { grace_s: 60 } },
  });
  const hbPath = new URL(hb.heartbeat_url).pathname;
  add('heartbeat ping', await api.request('GET', hbPath));
  add('heartbeat unknown token', await api.request('GET', '/hb/not-a-token'));
  add('heartbeat wrong method', await api.request('PUT', hbPath));
  add(
    'heartbeat body too large',
    await api.request('POST', hbPath, {
      body: Buffer.alloc(70 * 1024, 'x'),
      headers: { 'Content-Type': 'text/plain' },
    }),
  );
  add('URL too long', await api.request('GET', `/api/v1/monitors?q=${'a'.repeat(9000)}`));
  add('stream', await streamHead(port, key));
  add('malformed request line', await raw(port, 'GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n'));
  add('headers too large', await raw(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\n\r\n`));
  return seen;
}

/** The head of the event stream (then the connection is dropped). */
function streamHead(port: number, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET /api/v1/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(parseHead(text));
      }
    });
    socket.on('error', reject);
  });
}

/** Sends bytes as they are and reads the whole answer (the server closes after an error). */
function raw(port: number, bytes: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('close', () => resolve(parseHead(text)));
    socket.on('error', reject);
  });
}

function parseHead(text: string): Answer {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n'), ms: 0 };
}

/** What is wrong with one answer's headers. */
function problems(s: Seen, https: boolean): string[] {
  const out: string[] = [];
  const csp = String(s.headers['content-security-policy'] ?? '');
  if (!/frame-ancestors 'none'/.test(csp)) out.push(`CSP without frame-ancestors 'none': "${csp}"`);
  if (!/default-src 'none'/.test(csp)) out.push(`CSP without default-src 'none': "${csp}"`);
  if (s.headers['x-content-type-options'] !== 'nosniff') out.push('no X-Content-Type-Options: nosniff');
  if (!['same-origin', 'no-referrer', 'strict-origin'].includes(String(s.headers['referrer-policy'])))
    out.push(`Referrer-Policy "${s.headers['referrer-policy']}"`);
  const hsts = s.headers['strict-transport-security'];
  if (https && !/max-age=\d{7,}/.test(String(hsts))) out.push(`no HSTS on https: "${hsts}"`);
  if (!https && hsts !== undefined) out.push('HSTS on plain http');
  return out.map((p) => `${s.what} (${s.status}): ${p}`);
}

async function listen(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer() as import('node:http').Server;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe.each([
  ['http', 'http://farsight.test'],
  ['https', 'https://status.farsight.test'],
])('security headers and cookies, dashboard on %s', (scheme, publicUrl) => {
  const https = scheme === 'https';
  let t: TestApp;
  let port: number;
  let api: Api;
  beforeAll(async () => {
    t = await startApp({ FARSIGHT_PUBLIC_URL: publicUrl });
    port = await listen(t);
    api = Api.tcp(`http://127.0.0.1:${port}`);
  });
  afterAll(() => t.close());

  it('puts CSP (frame-ancestors), nosniff and Referrer-Policy on every kind of answer, HSTS only on https', async () => {
    const origin = new URL(publicUrl).origin;
    const token = await setupToken(t);
    const info = await api.json<{ totp: { secret: string } }>('GET', `/api/v1/auth/setup/${token}`);
    const setup = await api.request('POST', `/api/v1/auth/setup/${token}`, {
      headers: { Origin: origin },
      body: {
        email: 'owner@example.com',
        password: 'correct horse battery',
        code: totpAt(info.totp.secret, t.clock.now()),
      },
    });
    expect(setup.status).toBe(200);
    const cookie = String((setup.headers['set-cookie'] as string[])[0]);
    const key = (
      await api.json<{ key: string }>('POST', '/api/v1/keys', {
        headers: { Cookie: cookie.split(';')[0], Origin: origin },
        body: { name: 'k', scope: 'admin' },
      })
    ).key;

    const seen = await everyKind(api, port, key, token);
    // Each kind really answered as intended (a 404 everywhere would prove nothing).
    expect(Object.fromEntries(seen.map((s) => [s.what, s.status]))).toEqual({
      health: 200,
      'JSON list': 200,
      'not signed in': 401,
      'unknown resource': 404,
      'validation error': 422,
      'malformed JSON': 400,
      'unknown route': 404,
      'setup page': 200,
      'dashboard asset': 200,
      'heartbeat ping': 200,
      'heartbeat unknown token': 404,
      'heartbeat wrong method': 405,
      'heartbeat body too large': 413,
      'URL too long': 414,
      stream: 200,
      'malformed request line': 400,
      'headers too large': 431,
    });
    expect(seen.flatMap((s) => problems(s, https))).toEqual([]);
  });

  it(`sets the session cookie HttpOnly, SameSite=Strict${https ? ', Secure' : ' (not Secure: plain http would drop it)'}, on sign-in and sign-out`, async () => {
    const fresh = await startApp({ FARSIGHT_PUBLIC_URL: publicUrl });
    try {
      const origin = new URL(publicUrl).origin;
      const token = await setupToken(fresh);
      const info = await fresh.http.get(`/api/v1/auth/setup/${token}`).expect(200);
      const res = await fresh.http
        .post(`/api/v1/auth/setup/${token}`)
        .set('Origin', origin)
        .send({
          email: 'owner@example.com',
          password: 'correct horse battery',
          code: totpAt(info.body.totp.secret as string, fresh.clock.now()),
        })
        .expect(200);
      const out = await fresh.http
        .post('/api/v1/auth/logout')
        .set('Cookie', (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0])
        .set('Origin', origin)
        .set('Content-Type', 'application/json')
        .send('{}');
      for (const set of [
        (res.headers['set-cookie'] as unknown as string[])[0],
        (out.headers['set-cookie'] as unknown as string[])[0],
      ]) {
        const attrs = set.split(';').map((a) => a.trim().toLowerCase());
        expect(attrs[0]).toMatch(/^service_session=/);
        expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
        expect(attrs.includes('secure')).toBe(https);
      }
    } finally {
      await fresh.close();
    }
  });
});
