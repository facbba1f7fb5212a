/**
 * `farsight health` (src/cli-health.ts) on the built entry point, as a container's HEALTHCHECK runs
 * it: against the real service, and against servers on 127.0.0.1 that answer as Farsight never
 * does (an error status, a page that is not JSON, an answer without end, nothing at all).
 */
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, TestApp } from '../support/app';
import { freePort, SERVICE_ENTRY } from '../../harness/paths';
import { version } from '../../package.json';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Asynchronous on purpose: the service under test runs in this process and must keep answering. */
function health(env: Record<string, string>, args: string[] = []): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SERVICE_ENTRY, 'health', ...args],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: unknown }).code as number | null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr, ms: Date.now() - t0 });
      },
    );
  });
}

async function serve(handler: http.RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('farsight health', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startApp();
    port = await freePort();
    await new Promise<void>((r) => t.app.getHttpServer().listen(port, '127.0.0.1', r));
  });
  afterAll(async () => {
    await t.close();
  });

  it('exits 0 with one line when the service at FARSIGHT_LISTEN is healthy', async () => {
    const r = await health({ FARSIGHT_LISTEN: `127.0.0.1:${port}` });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(
      new RegExp(`^healthy: Farsight ${version} at http://127\\.0\\.0\\.1:${port}/api/health, up \\d+ s\\n$`),
    );
  });

  it('asks loopback when the service listens on every address', async () => {
    const r = await health({ FARSIGHT_LISTEN: `0.0.0.0:${port}` });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`at http://127.0.0.1:${port}/api/health`);
  });

  it('exits 1 with the reason when nothing listens', async () => {
    const idle = await freePort();
    const r = await health({ FARSIGHT_LISTEN: `127.0.0.1:${idle}` });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `farsight: unhealthy: nothing listens at http://127.0.0.1:${idle}/api/health (connection refused): is \`farsight serve\` running with this FARSIGHT_LISTEN?\n`,
      ms: expect.any(Number),
    });
  });

  it.each([
    ['an error status', 503, '{"ok":true}', 'answered HTTP 503'],
    [
      'a page that is not JSON',
      200,
      '<html>\r\nrouter login</html>',
      'answered something that is not JSON: "<html> router login</html>"',
    ],
    ['another JSON', 200, '{"ok":false}', 'did not answer {"ok":true}: "{"ok":false}"'],
    ['an answer over 16 KiB', 200, 'x'.repeat(100_000), "answered more than 16384 bytes: not Farsight's health"],
  ])('exits 1 on %s', async (_what, status, body, reason) => {
    const server = await serve((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    try {
      const r = await health({ FARSIGHT_LISTEN: `127.0.0.1:${server.port}` });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: '' });
      expect(r.stderr).toBe(`farsight: unhealthy: http://127.0.0.1:${server.port}/api/health ${reason}\n`);
    } finally {
      await server.close();
    }
  });

  it('gives up at the timeout when the answer never ends', async () => {
    const server = await serve((_req, res) => res.writeHead(200).write('{"ok":'));
    try {
      const r = await health({ FARSIGHT_LISTEN: `127.0.0.1:${server.port}` }, ['--timeout', '0.5']);
      expect(r.stderr).toBe(
        `farsight: unhealthy: no answer from http://127.0.0.1:${server.port}/api/health within 0.5 s\n`,
      );
      expect(r.code).toBe(1);
      // Node's own start takes part of it; a check without its deadline would run until jest's.
      expect(r.ms).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  });

  it.each([
    [
      { FARSIGHT_LISTEN: 'localhost' },
      [],
      'farsight: FARSIGHT_LISTEN: expected host:port, :port or [ipv6]:port, got "localhost"\n',
    ],
    [
      { FARSIGHT_LISTEN: '127.0.0.1:70000' },
      [],
      'farsight: FARSIGHT_LISTEN: port 70000 is out of range (1-65535), in "127.0.0.1:70000"\n',
    ],
    [{}, ['--timeout', 'soon'], 'farsight: --timeout: expected seconds from 0.1 to 60, got "soon"\n'],
    [{}, ['now'], 'farsight: usage: farsight health [--timeout SECONDS]\n'],
  ])('exits 2 on bad settings %j %j', async (env, args, stderr) => {
    await expect(health(env, args)).resolves.toEqual({ code: 2, stdout: '', stderr, ms: expect.any(Number) });
  });
});
