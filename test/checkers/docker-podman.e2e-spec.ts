/**
 * docker checks against real containers: podman's Docker-compatible API
 * (harness/servers/podman-engine.ts) with containers of an image built here from scratch. Up for
 * a running container, a created and a stopped one, one that does not exist. Health checks are
 * proven on the emulation (test/checkers/docker.e2e-spec.ts): in this sandbox `podman healthcheck
 * run` reports any command unhealthy (exec into the container fails), so a real healthy container
 * cannot be made here.
 */
import { runCheck } from '../../src/probes/checkers';
import { PODMAN_IMAGE, PodmanEngine, startPodmanEngine } from '../../harness/servers/podman-engine';
import { makeCtx, makeDocker, makeEnv } from './factories';

jest.setTimeout(300_000);

const env = makeEnv();
const ctx = makeCtx({ timeout_ms: 10_000 });
let engine: PodmanEngine;

beforeAll(async () => {
  engine = await startPodmanEngine();
  engine.podman('run', '-d', '--name', 'web', PODMAN_IMAGE);
  engine.podman('create', '--name', 'stopped', PODMAN_IMAGE);
});
afterAll(async () => {
  await engine?.stop();
});

describe('docker check (podman, real containers)', () => {
  it('is up for a running container', async () => {
    const r = await runCheck('docker', makeDocker('web', engine.endpoint), ctx, env);
    expect(r.error).toBeNull();
    expect(r.detail).toBe('running, restarts: 0');
  });

  it('fails with not_running for a container that is not started, and for one that was stopped', async () => {
    const created = await runCheck('docker', makeDocker('stopped', engine.endpoint), ctx, env);
    expect(created.error).toEqual({ code: 'not_running', message: 'container stopped is created' });
    engine.podman('stop', '-t', '0', 'web');
    const stopped = await runCheck('docker', makeDocker('web', engine.endpoint), ctx, env);
    expect(stopped.error?.code).toBe('not_running');
    expect(stopped.error?.message).toMatch(/^container web is (exited|stopped)/);
  });

  it('fails with not_found for a container that does not exist', async () => {
    const r = await runCheck('docker', makeDocker('nope', engine.endpoint), ctx, env);
    expect(r.error?.code).toBe('not_found');
  });
});
