/**
 * Every child process the harness starts goes through here, so that all of them are killed when
 * the harness ends: normally, on an error, on Ctrl-C or on SIGTERM. A benchmark that leaves a
 * service or a farm running would skew the next run's figures.
 */
import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * BENCH_CHILD_LOG=FILE: every line the children write is appended to FILE as it comes (with
 * `--node-args=--trace-gc` on a bench, the service's collector log: docs/performance.md, "Profiling").
 */
const CHILD_LOG = process.env.BENCH_CHILD_LOG;

const running = new Set<ChildProcess>();
let hooked = false;

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  tail(): string;
  /** Resolves with the exit code (or signal name) when the child has exited. */
  exited: Promise<number | string>;
}

const TAIL_LINES = 40;

/** `onLine` sees every line the child writes (stdout and stderr), as it comes. */
export function startChild(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
  onLine?: (line: string) => void,
): Child {
  hookExit();
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (proc.pid === undefined) throw new Error(`could not start ${command}`);
  running.add(proc);
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      onLine?.(line);
      if (CHILD_LOG) fs.appendFileSync(CHILD_LOG, `${line}\n`);
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
    }
  };
  // Always drained: a child blocked on a full pipe would show up as a slow service.
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<number | string>((resolve) => {
    proc.once('exit', (code, signal) => {
      running.delete(proc);
      resolve(code ?? signal ?? -1);
    });
  });
  return { proc, pid: proc.pid, tail: () => lines.join('\n'), exited };
}

/** SIGTERM, then SIGKILL if the child has not gone after graceMs. Resolves when it has exited. */
export async function stopChild(child: Child, graceMs = 15_000): Promise<number | string> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return child.exited;
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), graceMs);
  try {
    return await child.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Last resort, synchronous (usable from an 'exit' handler): SIGKILL whatever still runs. */
export function killAllChildren(): void {
  for (const proc of running) {
    try {
      proc.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
      killAllChildren();
      process.exit(130);
    });
  }
}
