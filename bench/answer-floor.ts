/**
 * The floor under a cached answer's time: a bare node:http server, in a process of its own, that
 * sends one fixed answer (the service's own bytes and headers, captured once) to every request.
 * Timed with the same client, request count and machine as the service's route, its p99 is what
 * this machine and harness allow any server (the scheduler, the client's own event loop): on a
 * 2-core machine a bare server's p99 for an 8 KB answer read 2.0-2.4 ms while its p50 was 0.14.
 *
 *   node dist/tsc/bench/answer-floor.js DIR   serves DIR/body with the headers of DIR/head.json;
 *                                             prints {"port":P} once it listens.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { startChild, stopChild } from '../harness/children';
import { tempDir, removeDir } from '../harness/paths';

/** An answer as it came off the wire: status, headers (as sent) and the body's bytes (not decoded). */
export interface CapturedAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** Not repeated per answer: the floor server's own node:http writes these. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding']);

/** One GET, its body kept as the bytes sent (compressed when it came compressed). */
export function captureAnswer(url: string, headers: Record<string, string> = {}): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const list: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!HOP_HEADERS.has(res.rawHeaders[i].toLowerCase())) list.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        }
        resolve({ status: res.statusCode ?? 0, headers: list, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export interface AnswerFloor {
  url: string;
  stop(): Promise<void>;
}

/** Starts a bare server that sends `answer` to every request. */
export async function startAnswerFloor(answer: CapturedAnswer): Promise<AnswerFloor> {
  const dir = tempDir('answer-floor');
  fs.writeFileSync(path.join(dir, 'body'), answer.body);
  fs.writeFileSync(path.join(dir, 'head.json'), JSON.stringify({ status: answer.status, headers: answer.headers }));
  let port = 0;
  const child = startChild(process.execPath, [__filename, dir], {}, (line) => {
    const m = /^\{"port":(\d+)\}$/.exec(line.trim());
    if (m) port = Number(m[1]);
  });
  const deadline = performance.now() + 10_000;
  while (port === 0) {
    if (child.proc.exitCode !== null || performance.now() > deadline) {
      removeDir(dir);
      throw new Error(`the answer floor did not start:\n${child.tail()}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await stopChild(child, 2_000);
      removeDir(dir);
    },
  };
}

function serve(dir: string): void {
  const body = fs.readFileSync(path.join(dir, 'body'));
  const head = JSON.parse(fs.readFileSync(path.join(dir, 'head.json'), 'utf8')) as {
    status: number;
    headers: [string, string][];
  };
  // One flat list, written in one writeHead as the service's fast routes do.
  const flat = head.headers.flat();
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    res.writeHead(head.status, flat);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  server.listen(0, '127.0.0.1', () => {
    const a = server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0 })}\n`);
  });
}

if (require.main === module) serve(process.argv[2]);
