/**
 * Live stream clients for the stream scenario. A StreamReader reads GET /api/v1/stream over
 * node:http as a dashboard would, keeps the sequence number of the newest event (ids are
 * `<boot>-<seq>`, one number after another), counts gaps (an event lost on the way leaves one),
 * and, while `measuring`, times each `check` event: received − (at_ms + latency_ms), the moment the
 * check's result existed (at_ms is when the check started, latency_ms how long it took).
 * A StalledReader sends the same request and stops reading after the first bytes.
 */
import * as http from 'node:http';
import * as net from 'node:net';

export class StreamReader {
  /** Sequence number of the newest event (hello's tells where the stream starts). */
  lastSeq = -1;
  events = 0;
  checks = 0;
  /** Events missing between two received ones. */
  gaps = 0;
  bytes = 0;
  ended = false;
  measuring = false;
  readonly delays: number[] = [];
  private pending = '';
  private readonly done: Promise<void>;

  private constructor(private readonly req: http.ClientRequest, res: http.IncomingMessage) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.feed(chunk, performance.timeOrigin + performance.now()));
    this.done = new Promise((resolve) => {
      const end = () => {
        this.ended = true;
        resolve();
      };
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
    });
  }

  static open(url: string, headers: Record<string, string>): Promise<StreamReader> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET ${url}: HTTP ${res.statusCode}`));
          return;
        }
        resolve(new StreamReader(req, res));
      });
      req.on('error', reject);
    });
  }

  close(): Promise<void> {
    this.req.destroy();
    return this.done;
  }

  private feed(chunk: string, receivedAt: number): void {
    this.bytes += chunk.length;
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf('\n\n')) >= 0) {
      const frame = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      if (!frame.startsWith(':')) this.frame(frame, receivedAt);
    }
  }

  private frame(frame: string, receivedAt: number): void {
    let seq = -1;
    let event = '';
    let data = '';
    for (const line of frame.split('\n')) {
      if (line.startsWith('id: ')) seq = Number(line.slice(line.lastIndexOf('-') + 1));
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data = line.slice(6);
    }
    if (event === 'hello' || event === 'reset') {
      this.lastSeq = seq;
      return;
    }
    if (this.lastSeq >= 0 && seq !== this.lastSeq + 1) this.gaps += 1;
    this.lastSeq = seq;
    this.events += 1;
    if (event !== 'check') return;
    this.checks += 1;
    if (!this.measuring) return;
    const c = JSON.parse(data) as { at_ms: number; latency_ms: number | null };
    this.delays.push(receivedAt - (c.at_ms + (c.latency_ms ?? 0)));
  }
}

export class StalledReader {
  private received = 0;
  private readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (c: Buffer) => (this.received += c.length));
    socket.on('error', () => undefined);
  }

  static open(url: string, headers: Record<string, string>): Promise<StalledReader> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(u.port), u.hostname, () => {
        const head = Object.entries({ Host: u.host, Accept: 'text/event-stream', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
        socket.write(`GET ${u.pathname} HTTP/1.1\r\n${head}\r\n`);
      });
      socket.once('data', (first: Buffer) => {
        socket.pause();
        if (!first.toString('latin1').startsWith('HTTP/1.1 200')) {
          socket.destroy();
          reject(new Error(`the stalled client was refused: ${first.toString('latin1').split('\r\n')[0]}`));
          return;
        }
        const r = new StalledReader(socket);
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
