/**
 * Real Server-Sent Events clients for tests.
 * - SseClient (node:http) parses ids, event names, data, `retry:` and comments as a browser's
 *   EventSource does (WHATWG HTML, "Server-sent events"), sends Last-Event-ID, and lets a test wait
 *   for what it expects (a condition, never a sleep).
 * - StalledClient (node:net) stops reading right after the response head: its socket is paused, so
 *   what the server writes piles up in the kernel and then in the server.
 */
import * as http from 'node:http';

export interface SseEvent {
  /** The client's last event id once this event arrived (as EventSource's `lastEventId`). */
  id: string;
  event: string;
  data: string;
}

const WAIT_MS = 10_000;

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry: number | null = null;
  lastEventId = '';
  /** Everything received, as text (for asserting what never appears in it). */
  raw = '';
  /** The body of an answer that is not a stream (an error envelope). */
  body = '';
  ended = false;
  /** Resolves when the server ends the stream or the connection closes. */
  readonly closed: Promise<void>;
  private pending = '';
  private type = '';
  private data: string[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
  ) {
    res.setEncoding('utf8');
    const stream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
    res.on('data', (chunk: string) => {
      if (stream) this.feed(chunk);
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
  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) => resolve(new SseClient(req, res)));
      req.on('error', reject);
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
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
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what} (${this.events.length} events so far)`)), timeoutMs);
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

  private feed(chunk: string): void {
    this.raw += chunk;
    this.pending += chunk;
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl).replace(/\r$/, '');
      this.pending = this.pending.slice(nl + 1);
      this.line(line);
    }
    this.wake();
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length) this.events.push({ id: this.lastEventId, event: this.type || 'message', data: this.data.join('\n') });
      this.type = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) {
      this.comments.push(line.slice(1).trimStart());
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

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** A client that stops reading after its first bytes: the bench's, so both stall the same way. */
export { StalledReader as StalledClient } from '../../bench/sse-client';
