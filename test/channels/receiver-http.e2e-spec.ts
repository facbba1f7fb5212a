/**
 * The one POST to remote receivers, against real servers on 127.0.0.1, hostile ones included.
 * Deadlines are shortened through the option the senders leave at 10 s.
 */
import * as net from 'node:net';
import { ANSWER_LIMIT, postToReceiver, ReceiverOptions, USER_AGENT } from '../../src/channels/receiver-http';
import { farmCerts } from '../../harness/servers/certs';
import { Receiver, startReceiver } from '../../harness/servers/receivers';

const allow: ReceiverOptions = { allowPrivate: true, timeoutMs: 2000 };
const SLACK_LIKE_PATH = '/services/T0001/B0002/AbCdEfGhIjKlMnOpQrStUvWx';

let rx: Receiver;
let tlsRx: Receiver;

beforeAll(async () => {
  [rx, tlsRx] = await Promise.all([startReceiver(), startReceiver({ tls: farmCerts().valid })]);
});
afterAll(async () => {
  await Promise.all([rx.close(), tlsRx.close()]);
});

const post = (path: string, extra: { headers?: Record<string, string>; secrets?: string[] } = {}) => ({
  url: `${rx.origin}${path}`,
  body: '{"text":"hello"}',
  headers: { 'Content-Type': 'application/json', ...extra.headers },
  secrets: extra.secrets,
});

describe('postToReceiver', () => {
  it('posts the body with our user agent and a content length, and takes a 2xx as sent', async () => {
    const outcome = await postToReceiver(post('/ok'), allow);
    expect(outcome).toEqual({ ok: true, status: 200, error: null, permanent: false });
    const got = rx.received.at(-1)!;
    expect(got.method).toBe('POST');
    expect(got.body.toString()).toBe('{"text":"hello"}');
    expect(got.headers['user-agent']).toBe(USER_AGENT);
    expect(got.headers['content-length']).toBe('16');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.host).toBe(`127.0.0.1:${rx.port}`);
  });

  it.each<[number, boolean]>([
    [400, true],
    [401, true],
    [403, true],
    [404, true],
    [410, true],
    [413, true],
    [408, false],
    [425, false],
    [429, false],
    [500, false],
    [502, false],
    [503, false],
  ])('classifies %d as %s permanent', async (code, permanent) => {
    const outcome = await postToReceiver(post(`/status/${code}${SLACK_LIKE_PATH}`), allow);
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBe(code);
    expect(outcome.permanent).toBe(permanent);
    expect(outcome.error).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${rx.port}: answered ${code} `));
    // The receiver quoted our path back: the secret part of it never shows.
    expect(outcome.error).toContain('refused by the receiver');
    expect(outcome.error).not.toContain('AbCdEfGhIjKlMnOpQrStUvWx');
    expect(outcome.error).not.toContain('/services/');
  });

  it('never shows a secret the receiver echoes back', async () => {
    const secret = 'sig-secret-0123456789';
    const outcome = await postToReceiver(
      post('/echo/401', { headers: { 'X-Token': secret }, secrets: [secret] }),
      allow,
    );
    expect(outcome).toMatchObject({ ok: false, status: 401, permanent: true });
    expect(outcome.error).toContain('x-token');
    expect(outcome.error).not.toContain(secret);
    expect(outcome.error!.length).toBeLessThanOrEqual(300);
  });

  /**
   * The quote of a refusal is cut at 100 characters: a secret the receiver echoes across that cut
   * must not leave its first part behind (issue 42). Padding moves the secret over the cut one
   * character at a time; the secrets are upper case, the rest of the echo is not (but for the F
   * of our user agent).
   */
  describe('a secret echoed across the cut of the quote', () => {
    const TOKEN = 'QWERTYUIOPASDGHJKLZXCVBNM';
    const shown = (error: string | null, after: string): string => (error ?? '').split(after)[1] ?? '';

    it('never shows the start of a URL path token', async () => {
      const leaks: string[] = [];
      for (let pad = 0; pad <= 70; pad++) {
        const outcome = await postToReceiver(post(`/status/401/${'a'.repeat(pad)}/${TOKEN}`), allow);
        const quote = shown(outcome.error, 'refused by the receiver: ');
        if (quote === '' || /[A-EG-Z]/.test(quote)) leaks.push(`${pad}: ${outcome.error}`);
      }
      expect(leaks).toEqual([]);
    });

    it('never shows the start of a signing secret', async () => {
      const leaks: string[] = [];
      for (let pad = 0; pad <= 40; pad++) {
        const outcome = await postToReceiver(
          post('/echo/401', { headers: { 'X-Pad': 'p'.repeat(pad), 'X-Token': TOKEN }, secrets: [TOKEN] }),
          allow,
        );
        const quote = shown(outcome.error, 'Unauthorized: ');
        if (!quote.includes('x-pad') || /[A-EG-Z]/.test(quote)) leaks.push(`${pad}: ${outcome.error}`);
      }
      expect(leaks).toEqual([]);
    });
  });

  it('does not follow a redirect: a permanent failure', async () => {
    const before = rx.received.length;
    const outcome = await postToReceiver(post('/redirect'), allow);
    expect(outcome).toMatchObject({ ok: false, status: 302, permanent: true });
    expect(outcome.error).toContain('redirects are not followed');
    await new Promise((r) => setTimeout(r, 50));
    expect(rx.received.slice(before).map((r) => r.path)).toEqual(['/redirect']);
  });

  it('gives up on a receiver that never answers, at the deadline, as retryable', async () => {
    const started = performance.now();
    const outcome = await postToReceiver(post('/hang'), { allowPrivate: true, timeoutMs: 300 });
    const took = performance.now() - started;
    expect(outcome).toEqual({
      ok: false,
      status: null,
      error: `http://127.0.0.1:${rx.port}: timed out after 300 ms waiting for the answer`,
      permanent: false,
    });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1500);
  });

  it('gives up on a receiver that trickles its headers, at the deadline', async () => {
    const started = performance.now();
    const outcome = await postToReceiver(post('/trickle'), { allowPrivate: true, timeoutMs: 500 });
    expect(outcome).toMatchObject({ ok: false, status: null, permanent: false });
    expect(outcome.error).toContain('timed out after 500 ms');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('takes a 2xx with a 10 MB body as sent without reading it', async () => {
    const started = performance.now();
    const outcome = await postToReceiver(post('/big/200'), allow);
    expect(outcome).toEqual({ ok: true, status: 200, error: null, permanent: false });
    const written = await rx.bigClosed();
    expect(written).toBeLessThan(10 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reads at most 64 KB of a refusal with a 10 MB body, then drops the connection', async () => {
    const started = performance.now();
    const outcome = await postToReceiver(post('/big/500'), allow);
    expect(outcome).toMatchObject({ ok: false, status: 500, permanent: false });
    expect(outcome.error).toMatch(/answered 500 Internal Server Error: x+…$/);
    const written = await rx.bigClosed();
    expect(written).toBeLessThan(10 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(ANSWER_LIMIT).toBe(64 * 1024);
  });

  it('refuses a private address when private targets are not allowed, before connecting', async () => {
    const before = rx.received.length;
    const literal = await postToReceiver(post('/ok'), { allowPrivate: false });
    expect(literal).toEqual({
      ok: false,
      status: null,
      error: `http://127.0.0.1:${rx.port}: 127.0.0.1 is a private address, and private targets are not allowed`,
      permanent: true,
    });
    // A name is judged on the address it resolves to, inside the socket's own lookup.
    const named = await postToReceiver(
      { ...post('/ok'), url: `http://localhost:${rx.port}/ok` },
      { allowPrivate: false },
    );
    expect(named).toMatchObject({ ok: false, status: null, permanent: true });
    expect(named.error).toMatch(/^http:\/\/localhost:\d+: localhost resolves to (127\.0\.0\.1|::1), a private address/);
    const mapped = await postToReceiver(
      { ...post('/ok'), url: `http://[::ffff:127.0.0.1]:${rx.port}/ok` },
      { allowPrivate: false },
    );
    expect(mapped).toMatchObject({ ok: false, permanent: true });
    // Every IPv6 form that carries a private IPv4 address, and site-local (issue 42).
    for (const literal of [
      '::7f00:1',
      '::ffff:0:7f00:1',
      '64:ff9b:1::7f00:1',
      '2002:7f00:1::',
      'FEC0::1',
      '0:0:0:0:0:FFFF:7F00:0001',
    ]) {
      const refused = await postToReceiver(
        { ...post('/ok'), url: `http://[${literal}]:${rx.port}/ok` },
        { allowPrivate: false },
      );
      expect({ literal, ...refused }).toMatchObject({
        literal,
        ok: false,
        status: null,
        permanent: true,
        error: expect.stringContaining('is a private address'),
      });
    }
    expect(rx.received.length).toBe(before);
  });

  it('calls a closed port retryable', async () => {
    const port = await closedPort();
    const outcome = await postToReceiver({ ...post('/x'), url: `http://127.0.0.1:${port}/secret-path-123456` }, allow);
    expect(outcome).toEqual({
      ok: false,
      status: null,
      error: `http://127.0.0.1:${port}: connection refused by 127.0.0.1:${port}`,
      permanent: false,
    });
  });

  it.each([
    ['not a URL', 'hooks.example.com/x', 'the receiver URL is not a valid URL'],
    ['another scheme', 'ftp://127.0.0.1/x', 'the receiver URL must start with http:// or https://'],
  ])('calls %s permanent', async (_, url, error) => {
    expect(await postToReceiver({ ...post('/'), url }, allow)).toEqual({
      ok: false,
      status: null,
      error,
      permanent: true,
    });
  });

  it('verifies TLS: trusted with the test CA, refused (retryable) without it', async () => {
    const url = `${tlsRx.origin}/ok`;
    expect(await postToReceiver({ ...post('/'), url }, { ...allow, ca: farmCerts().ca })).toMatchObject({
      ok: true,
      status: 200,
    });
    const untrusted = await postToReceiver({ ...post('/'), url }, allow);
    expect(untrusted).toMatchObject({ ok: false, status: null, permanent: false });
    expect(untrusted.error).toMatch(/^https:\/\/127\.0\.0\.1:\d+: /);
    expect(untrusted.error).toMatch(/certificate|TLS/);
  });

  it('a hanging receiver does not hold up another send', async () => {
    const started = performance.now();
    const hanging = postToReceiver(post('/hang'), { allowPrivate: true, timeoutMs: 800 });
    const good = await postToReceiver(post('/ok'), allow);
    const goodTook = performance.now() - started;
    expect(good.ok).toBe(true);
    expect(goodTook).toBeLessThan(500);
    expect((await hanging).ok).toBe(false);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

describe('postToReceiver reading an answer', () => {
  it("hands a sender that reads answers the refusal's body and its Retry-After header", async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '42' });
      res.end('{"error":"slow down"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as net.AddressInfo;
      const outcome = await postToReceiver(
        { url: `http://127.0.0.1:${port}/v1/x`, body: '{}', headers: {}, readAnswer: true },
        allow,
      );
      expect(outcome).toMatchObject({ ok: false, status: 429, permanent: false, retryAfter: '42' });
      expect(outcome.answer).toBe('{"error":"slow down"}');
      // A sender that does not read answers gets neither.
      const plain = await postToReceiver({ url: `http://127.0.0.1:${port}/v1/x`, body: '{}', headers: {} }, allow);
      expect(plain).not.toHaveProperty('retryAfter');
      expect(plain).not.toHaveProperty('answer');
    } finally {
      server.close();
    }
  });
});
