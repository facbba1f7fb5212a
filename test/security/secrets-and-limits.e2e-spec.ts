/**
 * The built service at debug log level, handed every kind of secret the API takes (monitor
 * passwords, tokens and secret headers, credentials in a URL, webhook and chat secrets, the
 * heartbeat token, API keys, the session, the TOTP secret, recovery codes, a wrong password),
 * with failures that make it talk (receivers that refuse, targets that fail, bad sign-ins, bad
 * keys). Then:
 * - no answer outside `?secrets=1` export holds a secret, diagnostics included;
 * - a burst with one API key (until 50 are refused, at most 3,000): at most 600 a minute (plus
 *   the refill while the burst lasts) get through, the rest are 429 `too_many_requests` with Retry-After, in the error
 *   envelope; another key is not affected; after Retry-After the key works again;
 * - the whole log of the process holds none of the secrets.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { keepAliveAgent } from '../../harness/http-client';
import { bearer, logPath, ownerSecrets, readLog, secretsIn, ServiceProcess } from '../faults/support/service-process';

const RATE = 600;

/** A target / receiver that refuses everything with 500 (and names nothing it was sent). */
async function refuser(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('refused'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('secrets never leave, rate limits hold (the built service)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-security-secrets-'));
  const log = logPath(dir, 'service');
  let service: ServiceProcess | null = null;
  let target: Awaited<ReturnType<typeof refuser>>;
  afterAll(async () => {
    if (service) await service.kill();
    await target?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every secret out of answers and the log, and throttles a burst at 600 a minute per key', async () => {
    target = await refuser();
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    service = await ServiceProcess.start({ dataDir, logFile: log, env: { FARSIGHT_LOG_LEVEL: 'debug' } });
    const api = service.api;
    const owner = await service.owner(['admin', 'read', 'write']);
    const admin = bearer(owner.keys.admin);
    const s = (name: string) => `${name}-s3cret-${process.pid}-value`;
    const secrets = [...ownerSecrets(owner)];
    const use = (name: string) => {
      secrets.push(s(name));
      return s(name);
    };

    // Monitors with every kind of monitor secret, all failing (the target answers 500).
    const bodies = [
      {
        name: 'basic',
        kind: 'http',
        http: { url: `${target.url}/a`, auth: { type: 'basic', username: 'admin', password: use('basic-password') } },
      },
      {
        name: 'bearer',
        kind: 'http',
        http: { url: `${target.url}/b`, auth: { type: 'bearer', token: use('bearer-token') } },
      },
      {
        name: 'header',
        kind: 'http',
        http: {
          url: `${target.url}/c`,
          headers: [
            { name: 'X-Api-Key', value: use('header-value') },
            { name: 'X-Custom', value: use('custom-secret-header'), secret: true },
          ],
        },
      },
      {
        name: 'in url',
        kind: 'http',
        http: { url: `${target.url.replace('http://', `http://user:${use('url-password')}@`)}/d` },
      },
    ];
    const ids: number[] = [];
    for (const body of bodies)
      ids.push(
        (
          await api.json<{ id: number }>('POST', '/api/v1/monitors', {
            headers: admin,
            body: { ...body, interval_s: 10, confirm_after: 1 },
          })
        ).id,
      );
    for (const id of ids) await api.json('POST', `/api/v1/monitors/${id}/check`, { headers: admin });
    const hb = await api.json<{ id: number; heartbeat_url: string }>('POST', '/api/v1/monitors', {
      headers: admin,
      body: { name: 'cron', kind: 'heartbeat', interval_s: 3600, heartbeat: { grace_s: 60 } },
    });
    const hbToken = new URL(hb.heartbeat_url).pathname.split('/').pop() as string;
    secrets.push(hbToken);
    await api.request('GET', `/hb/${hbToken}`);
    await api.request('POST', `/hb/${hbToken}/fail`, {
      body: 'backup failed',
      headers: { 'Content-Type': 'text/plain' },
    });

    // Channels with secrets, whose receivers refuse: test messages fail and are logged.
    const webhook = await api.json<{ id: number }>('POST', '/api/v1/channels', {
      headers: admin,
      body: {
        kind: 'webhook',
        name: 'hook',
        config: {
          url: `${target.url}/hook?token=${use('webhook-url-token')}`,
          secret: use('webhook-signing'),
          headers: [{ name: 'X-Auth', value: use('webhook-header') }],
        },
      },
    });
    const chat = await api.json<{ id: number }>('POST', '/api/v1/channels', {
      headers: admin,
      body: { kind: 'chat', name: 'chat', config: { url: `${target.url}/chat/${use('chat-path-secret')}` } },
    });
    for (const id of [webhook.id, chat.id])
      await api.request('POST', `/api/v1/channels/${id}/test`, { headers: admin });

    // Wrong credentials of every kind.
    await api.request('POST', '/api/v1/auth/password', {
      body: { email: 'faults@example.com', password: use('wrong-password') },
    });
    await api.request('GET', '/api/v1/monitors', { headers: { Authorization: `Bearer fs_${'ab'.repeat(24)}` } });
    await api.request('GET', '/api/v1/monitors', { headers: { Cookie: `service_session=${use('forged-session')}` } });
    secrets.push(`fs_${'ab'.repeat(24)}`);

    // Answers: everything a read key may see, and diagnostics.
    const read = bearer(owner.keys.read);
    const answers: [string, string][] = [];
    for (const p of [
      '/api/v1/monitors',
      ...ids.map((id) => `/api/v1/monitors/${id}`),
      ...ids.map((id) => `/api/v1/monitors/${id}/checks`),
      '/api/v1/channels',
      '/api/v1/deliveries',
      '/api/v1/events?limit=500',
      '/api/v1/incidents',
      '/api/v1/summary',
      '/api/v1/diagnostics',
      '/api/v1/keys',
      '/api/v1/export',
    ]) {
      const a = await api.request('GET', p, { headers: p.endsWith('keys') || p.endsWith('export') ? admin : read });
      answers.push([`${p} (${a.status})`, a.body]);
    }
    const leaks = answers.flatMap(([what, body]) => secretsIn(body, secrets).map((x) => `${what}: ${x}`));
    expect(leaks).toEqual([]);
    const diagnostics = answers.find(([what]) => what.startsWith('/api/v1/diagnostics'))![0];
    process.stdout.write(
      `secrets: ${secrets.length} secrets looked for in ${answers.length} answers (${diagnostics}) and the log\n`,
    );

    // A burst with one key, 20 at a time, until 50 are refused (a slow machine needs more than 600 + 10 a second).
    const agent = keepAliveAgent(20);
    const writeKey = bearer(owner.keys.write);
    const started = Date.now();
    let next = 0;
    const results: { status: number; retryAfter: string | undefined; body: string; csp: unknown }[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 3000 && results.filter((r) => r.status === 429).length < 50) {
          next++;
          const a = await api.request('GET', '/api/v1/summary', { headers: writeKey, agent });
          results.push({
            status: a.status,
            retryAfter: a.headers['retry-after'] as string | undefined,
            body: a.body,
            csp: a.headers['content-security-policy'],
          });
        }
      }),
    );
    const elapsedS = (Date.now() - started) / 1000;
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429);
    expect(ok + limited.length).toBe(results.length);
    expect(limited.length).toBeGreaterThanOrEqual(50);
    expect(ok).toBeGreaterThanOrEqual(RATE);
    expect(ok).toBeLessThanOrEqual(RATE + Math.ceil(elapsedS * (RATE / 60)) + 1);
    for (const r of limited) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(r.body)).toEqual({ error: expect.objectContaining({ code: 'too_many_requests' }) });
      expect(r.csp).toBeDefined();
    }
    // Another key is not throttled; the throttled one works again after Retry-After.
    expect((await api.request('GET', '/api/v1/summary', { headers: read, agent })).status).toBe(200);
    const wait = Math.max(...limited.map((r) => Number(r.retryAfter)));
    await new Promise((r) => setTimeout(r, wait * 1000 + 100));
    expect((await api.request('GET', '/api/v1/summary', { headers: writeKey, agent })).status).toBe(200);
    agent.destroy();
    process.stdout.write(
      `rate limit: ${JSON.stringify({ burst: results.length, ok, limited: limited.length, elapsedS, retryAfterS: wait })}\n`,
    );

    await service.stop();
    service = null;
    const text = readLog(log);
    expect(text.length).toBeGreaterThan(0);
    expect(secretsIn(text, secrets)).toEqual([]);
  }, 180_000);
});
