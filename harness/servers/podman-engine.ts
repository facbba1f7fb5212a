/**
 * A Docker-compatible Engine API with real containers, for the docker checker's tests: podman's
 * `podman system service` on a unix socket, with its own storage in a temporary directory. No
 * registry is reachable, so the image is built here from scratch: a static C program that waits
 * forever, compiled with gcc and copied into an empty image. This machine runs containers only with runc and a containers.conf whose
 * default_ulimits is empty: both are set here (CONTAINERS_CONF), for the tests, not the product.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Child, startChild, stopChild } from '../children';
import { removeDir, tempDir } from '../paths';

export const PODMAN_IMAGE = 'localhost/farsight-test-waiter';

export interface PodmanEngine {
  /** `unix:///…/podman.sock`, the docker monitor's endpoint. */
  endpoint: string;
  /** Runs podman with this engine's storage (run, stop, healthcheck run…); returns stdout. */
  podman(...args: string[]): string;
  stop(): Promise<void>;
}

export async function startPodmanEngine(): Promise<PodmanEngine> {
  const dir = tempDir('podman');
  const conf = path.join(dir, 'containers.conf');
  writeFileSync(conf, '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n');
  const env = { ...process.env, CONTAINERS_CONF: conf };
  const global = [
    '--root',
    path.join(dir, 'root'),
    '--runroot',
    path.join(dir, 'run'),
    '--runtime',
    'runc',
    '--storage-driver',
    'vfs',
    '--cgroup-manager',
    'cgroupfs',
    '--events-backend',
    'file',
  ];
  const podman = (...args: string[]) =>
    execFileSync('podman', [...global, ...args], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  const image = path.join(dir, 'image');
  execFileSync('mkdir', ['-p', image]);
  writeFileSync(path.join(dir, 'wait.c'), '#include <unistd.h>\nint main(void){for(;;)pause();}\n');
  execFileSync('gcc', ['-static', '-O2', '-o', path.join(image, 'wait'), path.join(dir, 'wait.c')]);
  writeFileSync(path.join(image, 'Containerfile'), 'FROM scratch\nCOPY wait /\nCMD ["/wait"]\n');
  podman('build', '-q', '-t', PODMAN_IMAGE, image);
  const socket = path.join(dir, 'podman.sock');
  const child: Child = startChild('podman', [...global, 'system', 'service', '--time=0', `unix://${socket}`], { env });
  for (let i = 0; !existsSync(socket); i++) {
    if (i > 300) throw new Error(`podman's API socket did not appear:\n${child.tail()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint: `unix://${socket}`,
    podman,
    stop: async () => {
      try {
        podman('rm', '-a', '-f', '-t', '0');
      } finally {
        await stopChild(child, 10_000);
        removeDir(dir);
      }
    },
  };
}
