/**
 * A lean closed-loop GET load generator for the hottest small route (heartbeat pings): each worker
 * holds one keep-alive connection, writes a prebuilt request and reads the answer by its
 * Content-Length, as wrk or hey do. node:http's client (http-client.ts) costs about 0.19 ms of
 * CPU per request: on this 2-core machine 70-77 % of a core at 4,000 pings/s, taken from the
 * service it measures. This one costs a fraction of that, so the figure is the service's.
 *
 * It reads HTTP/1.1 answers with a Content-Length (every answer of the service has one) and
 * refuses anything else (chunked, malformed) as a failed request; an answer with
 * `Connection: close` is counted and the worker connects again.
 */
import * as net from 'node:net';
import { LoadResult, LoadTally } from '../harness/http-client';

const HEAD_END = Buffer.from('\r\n\r\n');
/** An answer's head past this is not one of ours: refused. */
const HEAD_MAX = 16 * 1024;

export interface RawAnswer {
  status: number;
  /** The answer asked to close the connection. */
  close: boolean;
  body: Buffer;
}

/**
 * Reads HTTP/1.1 answers from a byte stream, however it is cut into chunks. Throws on what is not
 * an answer with a Content-Length; the connection is then useless and is closed by the caller.
 */
export class AnswerReader {
  private pending: Buffer = Buffer.alloc(0);
  private head: { status: number; close: boolean; length: number } | null = null;

  /** The answers completed by this chunk, in order. */
  feed(chunk: Buffer): RawAnswer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const done: RawAnswer[] = [];
    for (;;) {
      if (!this.head) {
        const end = this.pending.indexOf(HEAD_END);
        if (end < 0) {
          if (this.pending.length > HEAD_MAX) throw new Error(`an answer's head is over ${HEAD_MAX} bytes`);
          return done;
        }
        this.head = parseHead(this.pending.toString('latin1', 0, end));
        this.pending = this.pending.subarray(end + HEAD_END.length);
      }
      if (this.pending.length < this.head.length) return done;
      done.push({ status: this.head.status, close: this.head.close, body: this.pending.subarray(0, this.head.length) });
      this.pending = this.pending.subarray(this.head.length);
      this.head = null;
    }
  }
}

/** Status, Content-Length and Connection of an answer's head (status line and headers, no blank line). */
export function parseHead(text: string): { status: number; close: boolean; length: number } {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0]);
  if (!m) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(lines[0].slice(0, 80))}`);
  let length: number | null = null;
  let close = lines[0].startsWith('HTTP/1.0');
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    if (colon <= 0) throw new Error(`not a header line: ${JSON.stringify(lines[i].slice(0, 80))}`);
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,9}$/.test(value) || (length !== null && length !== Number(value)))
        throw new Error(`a bad Content-Length: ${JSON.stringify(value)}`);
      length = Number(value);
    } else if (name === 'transfer-encoding') {
      throw new Error(`Transfer-Encoding ${value} is not read by this client`);
    } else if (name === 'connection') {
      close = value.toLowerCase() === 'close';
    }
  }
  if (length === null) throw new Error('an answer without Content-Length');
  return { status: Number(m[1]), close, length };
}

export interface RawGetLoadOptions {
  host: string;
  port: number;
  /** The path (with query) of the i-th request. */
  path: (i: number) => string;
  concurrency: number;
  /** Stop after this many requests in total... */
  requests?: number;
  /** ...or after this long, whichever comes first (at least one must be given). */
  durationMs?: number;
  /** A request without its whole answer after this long fails and its connection is closed. */
  timeoutMs?: number;
}

/** Like runLoad with getTask (http-client.ts), over raw sockets: latencies, answers by status (0 = failed). */
export function runRawGetLoad(o: RawGetLoadOptions): Promise<LoadResult> {
  const tally = new LoadTally(o);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const hostHeader = `Host: ${o.host}:${o.port}\r\n\r\n`;

  const worker = () =>
    new Promise<void>((finish) => {
      let socket: net.Socket | null = null;
      let reader = new AnswerReader();
      let sentAt = 0;
      let inFlight = false;
      const next = () => {
        const i = tally.next();
        if (i === null) {
          const s = socket;
          socket = null;
          s?.destroy();
          finish();
          return;
        }
        if (!socket) connect();
        sentAt = performance.now();
        inFlight = true;
        socket!.write(`GET ${o.path(i)} HTTP/1.1\r\n${hostHeader}`, 'latin1');
      };
      const drop = (message: string) => {
        const s = socket;
        socket = null;
        s?.destroy();
        if (inFlight) {
          inFlight = false;
          tally.failed(message);
          next();
        }
      };
      const connect = () => {
        const s = net.connect({ host: o.host, port: o.port, noDelay: true });
        socket = s;
        reader = new AnswerReader();
        s.setTimeout(timeoutMs, () => {
          if (socket === s) drop(`no answer in ${timeoutMs} ms`);
        });
        s.on('data', (chunk: Buffer) => {
          if (socket !== s) return;
          let answers: RawAnswer[];
          try {
            answers = reader.feed(chunk);
          } catch (err) {
            drop(err instanceof Error ? err.message : String(err));
            return;
          }
          for (const a of answers) {
            if (!inFlight) {
              drop('an answer nobody asked for');
              return;
            }
            inFlight = false;
            tally.answered(a.status, performance.now() - sentAt, () => a.body.toString('utf8', 0, 200));
            if (a.close) {
              socket = null;
              s.destroy();
            }
          }
          if (answers.length > 0) next();
        });
        s.on('error', (err) => {
          if (socket === s) drop(err.message);
        });
        s.on('close', () => {
          if (socket === s) drop('the connection closed before the answer');
        });
      };
      next();
    });

  return Promise.all(Array.from({ length: o.concurrency }, worker)).then(() => tally.result());
}
