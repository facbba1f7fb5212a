/** Where things are: the repository root (found from here, so it works from bench/ and dist/tsc/bench/). */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    // dist/tsc holds a copy of package.json too; only the repository root has tsconfig.json.
    if (fs.existsSync(pkg) && fs.existsSync(path.join(dir, 'tsconfig.json')) && (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'farsight') {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find the farsight repository above ${start}`);
  }
}

export const ROOT = findRoot(__dirname);
/** The built service, exactly what an operator runs with node. */
export const SERVICE_ENTRY = path.join(ROOT, 'dist', 'main.js');
/** This harness, compiled (the farm runs as `node <BENCH_CLI> farm ...`). */
export const BENCH_CLI = path.join(ROOT, 'dist', 'tsc', 'bench', 'cli.js');
export const DEFAULT_RESULTS_DIR = path.join(ROOT, 'bench', 'results');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `farsight-bench-${prefix}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
