/**
 * `farsight agent` as an operator runs it: the built dist/main.js with FARSIGHT_AGENT_* in its
 * environment, a spool directory of its own, every line kept so a test or the benchmark can wait
 * for one. The tests of test/agent/ and the benchmark's locations scenario start agents this way.
 */
import { Child, startChild, stopChild } from './children';
import { SERVICE_ENTRY } from './paths';

export interface AgentOptions {
  server: string;
  token: string;
  spoolDir: string;
  /** More FARSIGHT_* variables (spool bounds, canaries, log level). */
  env?: Record<string, string>;
  /** Run the agent through this command first (e.g. `ip netns exec ns`), before node. */
  prefix?: string[];
  /** Another build of the command (default the bundle, SERVICE_ENTRY), and options for node. */
  entry?: string;
  nodeArgs?: string[];
}

export class AgentProcess {
  readonly lines: string[] = [];
  readonly child: Child;
  private waiters: { re: RegExp; resolve: (line: string) => void }[] = [];

  constructor(o: AgentOptions) {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      FARSIGHT_AGENT_SERVER: o.server,
      FARSIGHT_AGENT_TOKEN: o.token,
      FARSIGHT_AGENT_SPOOL_DIR: o.spoolDir,
      FARSIGHT_CANARIES: 'off',
      ...o.env,
    };
    const [command, ...args] = [
      ...(o.prefix ?? []),
      process.execPath,
      ...(o.nodeArgs ?? []),
      o.entry ?? SERVICE_ENTRY,
      'agent',
    ];
    this.child = startChild(command, args, { env }, (line) => {
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => {
        if (!w.re.test(line)) return true;
        w.resolve(line);
        return false;
      });
    });
  }

  get pid(): number {
    return this.child.pid;
  }

  /** The first line (already written or to come) that matches, or an error naming the last lines. */
  waitForLine(re: RegExp, timeoutMs = 15_000): Promise<string> {
    const seen = this.lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`agent: no line matching ${re} within ${timeoutMs} ms; last lines:\n${this.child.tail()}`));
      }, timeoutMs);
      const done = (line: string) => {
        clearTimeout(timer);
        resolve(line);
      };
      this.waiters.push({ re, resolve: done });
    });
  }

  /** SIGTERM, and the exit code. */
  stop(graceMs = 15_000): Promise<number | string> {
    return stopChild(this.child, graceMs);
  }

  /** SIGKILL at once, as a power cut would: nothing is flushed. */
  async kill9(): Promise<void> {
    this.child.proc.kill('SIGKILL');
    await this.child.exited;
  }
}
