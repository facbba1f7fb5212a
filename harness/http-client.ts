/**
 * A minimal HTTP/1.1 client over node:http with keep-alive (what a browser or a load tool does),
 * and a closed-loop load generator: `concurrency` workers, each sending its next request as soon
 * as the previous answer has been read. Every request has a timeout so a hung service cannot hang
 * the harness.
 */
import * as http from 'node:http';
import * as zlib from 'node:zlib';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The whole body, or its last bytes with `tail` (a bad UTF-8 sequence where it was cut). */
  body: string;
  /** Bytes of the body as received (compressed, when it came compressed). */
  bytes: number;
  ms: number;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: unknown;
  agent?: http.Agent | false;
  timeoutMs?: number;
  /**
   * Keep only the body's last `tail` bytes. For megabyte answers read in a loop: holding and
   * decoding each whole body made the harness run a full collection every 110 ms, 5-13 ms each,
   * inside the latencies it measures.
   */
  tail?: number;
}

/** A body sent with Content-Encoding br or gzip, decoded (after the answer's time is taken). */
function decoded(all: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(all);
  if (encoding === 'gzip') return zlib.gunzipSync(all);
  return all;
}

const DEFAULT_TIMEOUT_MS = 60_000;

export function request(method: string, url: string, options: RequestOptions = {}): Promise<Answer> {
  return send(method, url, options, true);
}

function send(method: string, url: string, options: RequestOptions, mayResend: boolean): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let payload: Buffer | null = null;
  if (options.body !== undefined) {
    payload = Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(payload.length);
  }
  const started = performance.now();
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let kept = 0;
      // A compressed body is kept whole to be decoded (it is small: a 1 MB page is about 30 KB).
      const tail = res.headers['content-encoding'] ? undefined : options.tail;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        kept += c.length;
        chunks.push(c);
        // Chunks wholly before the last `tail` bytes are dropped as they come.
        while (tail !== undefined && chunks.length > 1 && kept - chunks[0].length >= tail)
          kept -= chunks.shift()!.length;
      });
      res.on('end', () => {
        // Time to the answer's last byte: joining and decoding the body is the harness's work,
        // 1-2 ms for a megabyte page, and not the service's.
        const ms = performance.now() - started;
        const all = decoded(Buffer.concat(chunks), res.headers['content-encoding']);
        const body = (options.tail === undefined ? all : all.subarray(Math.max(0, all.length - options.tail))).toString(
          'utf8',
        );
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bytes, ms });
      });
      res.on('error', reject);
    });
    req.setTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, () =>
      req.destroy(new Error(`${method} ${url}: no answer in time`)),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive connection that the server closed as idle just as this request went out on
      // it: the request never reached the service. Sent once more on a new connection, as
      // browsers do (node's docs, request.reusedSocket); any other failure is the answer.
      if (mayResend && req.reusedSocket && err.code === 'ECONNRESET')
        resolve(send(method, url, { ...options, agent: false }, false));
      else reject(err);
    });
    req.end(payload ?? undefined);
  });
}

/** Sends a request and parses a JSON answer; any status outside `ok` is an error with the body in its message. */
export async function requestJson<T>(
  method: string,
  url: string,
  options: RequestOptions = {},
  ok: number[] = [200, 201],
): Promise<T> {
  const a = await request(method, url, options);
  if (!ok.includes(a.status))
    throw new Error(`${method} ${new URL(url).pathname}: HTTP ${a.status} ${a.body.slice(0, 300)}`);
  return JSON.parse(a.body) as T;
}

export function keepAliveAgent(maxSockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

/** One unit of work in a load loop: usually one request, sometimes a few in a row (both pages of a list). */
export type LoadTask = (
  i: number,
  agent: http.Agent,
) => Promise<{ status: number; ms: number; body?: string; bytes?: number }>;

export interface LoadOptions {
  concurrency: number;
  /** Stop after this many tasks in total... */
  requests?: number;
  /** ...or after this long, whichever comes first (at least one must be given). */
  durationMs?: number;
  task: LoadTask;
}

export interface LoadResult {
  /** Latency of every answered task, ms. */
  latencies: number[];
  /** Answers per HTTP status (0 = transport error). */
  statuses: Record<number, number>;
  elapsedMs: number;
  /** A sample error message, when some tasks failed. */
  firstError: string | null;
}

/**
 * The bookkeeping of a closed-loop load run, whatever sends the requests (runLoad here,
 * runRawGetLoad in raw-load.ts): how many were sent, when to stop, answers by status.
 */
export class LoadTally {
  private readonly latencies: number[] = [];
  private readonly statuses: Record<number, number> = {};
  private firstError: string | null = null;
  private issued = 0;
  private readonly started = performance.now();
  private readonly deadline: number;
  private readonly limit: number;

  constructor(o: { requests?: number; durationMs?: number }) {
    if (o.requests === undefined && o.durationMs === undefined)
      throw new Error('a load run needs requests or durationMs');
    this.deadline = o.durationMs === undefined ? Infinity : this.started + o.durationMs;
    this.limit = o.requests ?? Infinity;
  }

  /** The index of the next request, or null when the run is over. */
  next(): number | null {
    return this.issued < this.limit && performance.now() < this.deadline ? this.issued++ : null;
  }

  answered(status: number, ms: number, body: () => string): void {
    this.latencies.push(ms);
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (status >= 400 && this.firstError === null) this.firstError = `HTTP ${status} ${body().slice(0, 200)}`;
  }

  failed(message: string): void {
    this.statuses[0] = (this.statuses[0] ?? 0) + 1;
    this.firstError ??= message;
  }

  result(): LoadResult {
    return {
      latencies: this.latencies,
      statuses: this.statuses,
      elapsedMs: performance.now() - this.started,
      firstError: this.firstError,
    };
  }
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const tally = new LoadTally(o);
  const agent = keepAliveAgent(o.concurrency);
  const worker = async (): Promise<void> => {
    for (let i = tally.next(); i !== null; i = tally.next()) {
      try {
        const a = await o.task(i, agent);
        tally.answered(a.status, a.ms, () => a.body ?? '');
      } catch (err) {
        tally.failed(err instanceof Error ? err.message : String(err));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return tally.result();
}

/** A task that sends one GET with the given headers. */
export function getTask(
  url: (i: number) => string,
  headers: (i: number) => Record<string, string> = () => ({}),
): LoadTask {
  return (i, agent) => request('GET', url(i), { headers: headers(i), agent, timeoutMs: 10_000 });
}

/** Requests answered with 2xx. */
export function okCount(r: LoadResult): number {
  return Object.entries(r.statuses).reduce(
    (n, [status, count]) => (Number(status) >= 200 && Number(status) < 300 ? n + count : n),
    0,
  );
}
