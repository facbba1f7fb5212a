/** Where things are: the repository root (found from here, so it works from harness/ and dist/tsc/harness/). */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    // dist/tsc holds a copy of package.json too; only the repository root has tsconfig.json.
    if (
      fs.existsSync(pkg) &&
      fs.existsSync(path.join(dir, 'tsconfig.json')) &&
      (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'farsight'
    ) {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find the farsight repository above ${start}`);
  }
}

export const ROOT = findRoot(__dirname);
/** The built service, exactly what an operator runs with node. */
export const SERVICE_ENTRY = path.join(ROOT, 'dist', 'main.js');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `farsight-bench-${prefix}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A TCP port on 127.0.0.1 that is free now and that nothing else on this machine will take by chance
 * before the service binds it. Ports from listen(0) come from the kernel's ephemeral range, the same
 * range every outgoing connection's local port is drawn from: under parallel tests one of those can
 * take the port between our check and the service's bind. So the port is drawn at random from below
 * that range (read from /proc; 32768 when unknown) and checked by binding it.
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = ephemeralLow() - 1;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await canBind(port)) return port;
  }
  throw new Error(`no free TCP port on 127.0.0.1 between ${low} and ${high}`);
}

function ephemeralLow(): number {
  try {
    const first = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(first) && first > 11_000) return first;
  } catch {
    // not Linux, or /proc is not mounted: fall through
  }
  return 32_768;
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
