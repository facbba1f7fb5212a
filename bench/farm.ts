/** The harness's side of the target farm: starts it as its own process and reads its counters. */
import { startChild, stopChild, Child } from '../harness/children';
import { requestJson } from '../harness/http-client';
import { BENCH_CLI } from './paths';
import type { Spread } from '../harness/stats';

export interface FarmCounts {
  total: number;
  endpoints: Record<string, number>;
}

export interface FarmLateness extends Spread {
  /** Endpoints that contributed at least one gap. */
  endpoints: number;
}

export class Farm {
  private constructor(
    private readonly child: Child,
    readonly port: number,
    readonly tcpPorts: number[],
  ) {}

  get pid(): number {
    return this.child.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `host:port` of the farm's DNS server, the shape of a dns monitor's resolver. */
  get resolver(): string {
    return `127.0.0.1:${this.port}`;
  }

  static async start(endpoints: number, tcpPorts: number): Promise<Farm> {
    const child = startChild(process.execPath, [
      BENCH_CLI,
      'farm',
      '--port',
      '0',
      '--endpoints',
      String(endpoints),
      '--tcp-ports',
      String(tcpPorts),
    ]);
    const ready = await new Promise<{ port: number; tcp: number[] }>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`the farm did not start:\n${child.tail()}`)), 30_000);
      child.proc.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const line = text.split('\n').find((l) => l.includes('"farm":"ready"'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as { port: number; tcp: number[] });
        }
      });
      void child.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the farm exited:\n${child.tail()}`));
      });
    });
    return new Farm(child, ready.port, ready.tcp);
  }

  counts(): Promise<FarmCounts> {
    return requestJson<FarmCounts>('GET', `${this.url}/__counts`);
  }

  lateness(intervalS: number, from: number, to: number): Promise<FarmLateness> {
    return requestJson<FarmLateness>('GET', `${this.url}/__lateness?interval_s=${intervalS}&from=${from}&to=${to}`);
  }

  async reset(): Promise<void> {
    await requestJson('POST', `${this.url}/__reset`);
  }

  async stop(): Promise<void> {
    await stopChild(this.child, 5000);
  }
}
