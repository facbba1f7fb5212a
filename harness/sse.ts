/**
 * Real Server-Sent Events clients, the one pair the tests and the benchmark share.
 * - SseClient (node:http) parses ids, event names, data, `retry:` and comments as a browser's
 *   EventSource does (WHATWG HTML, "Server-sent events"), sends Last-Event-ID, and lets a test wait
 *   for what it expects (a condition, never a sleep). Listeners (`onEvent`) hear each event with
 *   the moment its bytes arrived; `{ keep: false }` keeps no events and no text, for the
 *   benchmark's readers, which count and time hours of events and must not hold them all.
 * - StalledClient (node:net) stops reading right after the response head: its socket is paused, so
 *   what the server writes piles up in the kernel and then in the server.
 */
import * as http from 'node:http';
import * as net from 'node:net';

export interface SseEvent {
  /** The client's last event id once this event arrived (as EventSource's `lastEventId`). */
  id: string;
  event: string;
  data: string;
}

export interface SseOptions {
  /** Keep every event, comment and the raw text (default); false for long runs that only listen. */
  keep?: boolean;
}

/** Hears one event; `receivedAt` is when the chunk that completed it arrived (ms since the epoch, sub-ms). */
export type SseListener = (event: SseEvent, receivedAt: number) => void;

const WAIT_MS = 10_000;

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry: number | null = null;
  lastEventId = '';
  /** Everything received, as text (for asserting what never appears in it); empty with `keep: false`. */
  raw = '';
  /** Characters of the stream received so far (counted with `keep: false` too). */
  received = 0;
  /** The body of an answer that is not a stream (an error envelope). */
  body = '';
  ended = false;
  /** Resolves when the server ends the stream or the connection closes. */
  readonly closed: Promise<void>;
  private readonly keep: boolean;
  private pending = '';
  private type = '';
  private data: string[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly listeners: SseListener[] = [];

  private constructor(
    private readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
    options: SseOptions,
  ) {
    this.keep = options.keep ?? true;
    res.setEncoding('utf8');
    const stream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
    res.on('data', (chunk: string) => {
      if (stream) this.feed(chunk, performance.timeOrigin + performance.now());
      else this.body += chunk;
    });
    this.closed = new Promise<void>((resolve) => {
      const done = () => {
        this.ended = true;
        this.wake();
        resolve();
      };
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
  }

  /** Opens a stream (or reads the error answer that comes instead). */
  static open(url: string, headers: Record<string, string> = {}, options: SseOptions = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) =>
        resolve(new SseClient(req, res, options)),
      );
      req.on('error', reject);
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** Calls `listener` for every event from now on. */
  onEvent(listener: SseListener): void {
    this.listeners.push(listener);
  }

  /** Events of one type, with their data parsed as JSON. */
  of<T = Record<string, unknown>>(event: string): { id: string; data: T }[] {
    return this.events.filter((e) => e.event === event).map((e) => ({ id: e.id, data: JSON.parse(e.data) as T }));
  }

  /** Resolves once `ready()` holds; rejects when the stream ends first or after `timeoutMs`. */
  until(ready: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (ready()) finish(null);
        else if (this.ended) finish(new Error(`the stream ended before ${what}`));
      };
      const timer = setTimeout(
        () => finish(new Error(`timed out waiting for ${what} (${this.events.length} events so far)`)),
        timeoutMs,
      );
      const finish = (err: Error | null) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (err) reject(err);
        else resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Waits for the next event of a type (after those already received) and returns its data. */
  async next<T = Record<string, unknown>>(event: string, timeoutMs = WAIT_MS): Promise<{ id: string; data: T }> {
    const seen = this.of(event).length;
    await this.until(() => this.of(event).length > seen, `a ${event} event`, timeoutMs);
    return this.of<T>(event)[seen];
  }

  close(): void {
    this.req.destroy();
  }

  /** Splits the text into lines without cutting the buffered rest once per line (a reader may get MBs). */
  private feed(chunk: string, receivedAt: number): void {
    this.received += chunk.length;
    if (this.keep) this.raw += chunk;
    const text = this.pending + chunk;
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      // A CR right before the LF belongs to the line ending, not to the line.
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.line(text.slice(start, end), receivedAt);
      start = nl + 1;
    }
    this.pending = text.slice(start);
    this.wake();
  }

  private line(line: string, receivedAt: number): void {
    if (line === '') {
      if (this.data.length)
        this.dispatch({ id: this.lastEventId, event: this.type || 'message', data: this.data.join('\n') }, receivedAt);
      this.type = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) {
      if (this.keep) this.comments.push(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.type = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }

  private dispatch(event: SseEvent, receivedAt: number): void {
    if (this.keep) this.events.push(event);
    for (const l of this.listeners) l(event, receivedAt);
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** A client that sends the stream's request and stops reading after the first bytes of the answer. */
export class StalledClient {
  private received = 0;
  private readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (c: Buffer) => (this.received += c.length));
    socket.on('error', () => undefined);
  }

  static open(url: string, headers: Record<string, string>): Promise<StalledClient> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(u.port), u.hostname, () => {
        const head = Object.entries({ Host: u.host, Accept: 'text/event-stream', ...headers })
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        socket.write(`GET ${u.pathname} HTTP/1.1\r\n${head}\r\n`);
      });
      socket.once('data', (first: Buffer) => {
        socket.pause();
        if (!first.toString('latin1').startsWith('HTTP/1.1 200')) {
          socket.destroy();
          reject(new Error(`the stalled client was refused: ${first.toString('latin1').split('\r\n')[0]}`));
          return;
        }
        const r = new StalledClient(socket);
        r.received = first.length;
        resolve(r);
      });
      socket.on('error', reject);
    });
  }

  /**
   * Reads again: when the service had cut the connection off, it closes once the bytes still in
   * the kernel are read (true, with their count); a connection still open after `timeoutMs` was not cut.
   */
  async resume(timeoutMs: number): Promise<{ cut: boolean; bytes: number }> {
    this.socket.resume();
    let timer: NodeJS.Timeout | undefined;
    const cut = await Promise.race([
      this.closed.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.socket.destroy();
    return { cut, bytes: this.received };
  }
}
