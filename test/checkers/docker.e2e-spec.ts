/**
 * docker checks against an emulation of the Docker Engine API on a unix socket and on TCP,
 * written from its reference (ContainerInspect:
 * https://docs.docker.com/reference/api/engine/version/v1.43/#tag/Container/operation/ContainerInspect
 * — 200 with the container's `State` and `RestartCount`, 404 `{"message": "No such container: x"}`).
 */
import * as http from 'node:http';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { checkDocker } from '../../src/probes/services/docker';
import { runCheck } from '../../src/probes/checkers';
import { makeCtx, makeDocker, makeEnv, timedWithStall } from './factories';

type State = Record<string, unknown>;
const containers = new Map<string, { State: State; RestartCount: number }>();
const requests: string[] = [];

function engine(req: http.IncomingMessage, res: http.ServerResponse): void {
  requests.push(`${req.method} ${req.url}`);
  const m = /^\/containers\/([^/]+)\/json$/.exec(req.url ?? '');
  const name = m ? decodeURIComponent(m[1]) : '';
  if (name === 'hang') return; // never answers
  if (name === 'garbage') return void res.end('<html>not docker</html>');
  if (name === 'huge') {
    res.write('{"State": {"Running": true}, "pad": "');
    const mb = 'x'.repeat(1024 * 1024);
    res.write(mb);
    return void res.end(mb + '"}');
  }
  const c = containers.get(name);
  res.setHeader('content-type', 'application/json');
  if (!c) {
    res.statusCode = 404;
    return void res.end(JSON.stringify({ message: `No such container: ${name}` }));
  }
  res.end(JSON.stringify({ Id: 'abc', Name: `/${name}`, ...c }));
}

const dir = mkdtempSync(join(tmpdir(), 'farsight-docker-'));
const socketPath = join(dir, 'docker.sock');
const lockedPath = join(dir, 'locked.sock');
const servers: http.Server[] = [];
let tcpPort = 0;
const env = makeEnv();
const ctx = makeCtx({ timeout_ms: 2000 });
const unix = `unix://${socketPath}`;

beforeAll(async () => {
  const listen = (target: string | number) =>
    new Promise<http.Server>((resolve) => {
      const s = http.createServer(engine);
      servers.push(s);
      if (typeof target === 'number') s.listen(target, '127.0.0.1', () => resolve(s));
      else s.listen(target, () => resolve(s));
    });
  await listen(socketPath);
  const tcp = await listen(0);
  tcpPort = (tcp.address() as AddressInfo).port;
  await listen(lockedPath);
  chmodSync(lockedPath, 0o000);
  containers.set('web', { State: { Status: 'running', Running: true, Paused: false, ExitCode: 0 }, RestartCount: 0 });
  containers.set('db', { State: { Status: 'running', Running: true, Health: { Status: 'healthy' } }, RestartCount: 1 });
  containers.set('sick', {
    State: { Status: 'running', Running: true, Health: { Status: 'unhealthy' } },
    RestartCount: 0,
  });
  containers.set('stopped', { State: { Status: 'exited', Running: false, ExitCode: 137 }, RestartCount: 0 });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

describe('docker check (Engine API emulation)', () => {
  it('is up for a running container, over the unix socket', async () => {
    const r = await runCheck('docker', makeDocker('web', unix), ctx, env);
    expect(r.error).toBeNull();
    expect(r.detail).toBe('running, restarts: 0');
    expect(r.phases.ttfb_ms).toEqual(expect.any(Number));
    expect(requests).toContain('GET /containers/web/json');
  });

  it('is up over tcp://, and notes restarts since the last check', async () => {
    const settings = makeDocker('db', `tcp://127.0.0.1:${tcpPort}`);
    expect((await checkDocker(settings, ctx, env)).detail).toBe('running, health: healthy, restarts: 1');
    containers.get('db')!.RestartCount = 3;
    const r = await checkDocker(settings, ctx, env);
    expect(r.error).toBeNull();
    expect(r.detail).toBe('running, health: healthy, restarts: 3 (+2 since the last check)');
    expect(r.phases.connect_ms).toEqual(expect.any(Number));
  });

  it('fails with unhealthy when the health check says so, unless require_healthy is off', async () => {
    const r = await checkDocker(makeDocker('sick', unix), ctx, env);
    expect(r.error).toEqual({ code: 'unhealthy', message: 'container sick runs, but its health check says unhealthy' });
    expect((await checkDocker(makeDocker('sick', unix, { require_healthy: false }), ctx, env)).error).toBeNull();
  });

  it('fails with not_running for a stopped container', async () => {
    const r = await checkDocker(makeDocker('stopped', unix), ctx, env);
    expect(r.error).toEqual({ code: 'not_running', message: 'container stopped is exited (exit code 137)' });
  });

  it('fails with not_found for a container that does not exist', async () => {
    const r = await checkDocker(makeDocker('nope', unix), ctx, env);
    expect(r.error).toEqual({ code: 'not_found', message: `no container named nope at ${socketPath}` });
  });

  it('fails with protocol when the answer is not the Engine API', async () => {
    expect((await checkDocker(makeDocker('garbage', unix), ctx, env)).error?.code).toBe('protocol');
  });

  it('reads at most 1 MB of an answer', async () => {
    expect((await checkDocker(makeDocker('huge', unix), ctx, env)).error?.code).toBe('protocol');
  });

  it('says the service user needs the docker group when the socket is not ours to open', async () => {
    // Root opens any socket: the mapping of EACCES is then proven by src/probes/services/docker.spec.ts alone.
    const asRoot = process.getuid?.() === 0;
    const r = await checkDocker(makeDocker('web', `unix://${lockedPath}`), ctx, env);
    if (asRoot) expect(r.error).toBeNull();
    else expect(r.error?.message).toContain('needs the docker group');
  });

  it('says Docker does not run when there is no socket', async () => {
    const r = await checkDocker(makeDocker('web', `unix://${dir}/missing.sock`), ctx, env);
    expect(r.error).toEqual({
      code: 'connect',
      message: `no Docker socket at ${dir}/missing.sock: is Docker (or podman's API service) running here?`,
    });
  });

  it('refuses the local socket when private targets are not allowed', async () => {
    const r = await checkDocker(makeDocker('web', unix), makeCtx({ allow_private_targets: false }), env);
    expect(r.error?.code).toBe('private_target');
  });

  it('is bounded by the timeout when the API never answers', async () => {
    const {
      value: r,
      wallMs,
      stallMs,
    } = await timedWithStall(() => checkDocker(makeDocker('hang', unix), makeCtx({ timeout_ms: 500 }), env));
    expect(r.error).toEqual({
      code: 'timeout',
      message: `timed out after 500 ms waiting for the Docker API (${unix})`,
    });
    expect(wallMs).toBeLessThan(500 + 300 + stallMs);
  });
});
