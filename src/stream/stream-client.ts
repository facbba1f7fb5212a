/**
 * One open stream: the connection it writes to and the caller whose access it lives on.
 *
 * The response body ends with the connection (`Connection: close`, no chunked framing), so the
 * bytes of an event are the same for every client and go straight to each socket: one write call
 * per client and batch. Through `res.write` every chunk would be framed and the socket corked and
 * uncorked on the next tick, per client and per event: about half the stream's CPU with 500
 * clients (bench/, docs/performance.md).
 *
 * Writes never wait for the client: what its socket has not taken yet waits in Node's buffer
 * (`writableLength`). A client that still holds more than `maxQueued` unread bytes when the next
 * events are written is cut off instead of being buffered without bound. The queue is judged
 * before a write, not after it: one burst (the events of one turn of the event loop, say a mass
 * outage announced at once) is always handed over whole, so a burst alone never cuts off a client
 * that reads. A stalled client thus holds at most `maxQueued` bytes plus one burst (plus the
 * kernel's socket buffer), and never slows anyone else down. A burst is one Buffer shared by every
 * client, so it is not copied per client either.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Caller } from '../common/access/caller';

export class StreamClient {
  private open = true;

  private constructor(
    private readonly res: ServerResponse,
    private readonly socket: Socket,
    readonly caller: Caller,
    private readonly maxQueued: number,
    private readonly onOverflow: (client: StreamClient, queued: number) => void,
  ) {
    // A client gone mid-write (reset, broken pipe) is noticed by 'close'; the error itself says nothing more.
    socket.on('error', () => this.cut());
    res.on('error', () => this.cut());
    res.on('close', () => {
      this.open = false;
    });
  }

  /**
   * Sends the response head and returns the stream, or null when there is nothing to stream to
   * (a HEAD request: the head alone is the answer).
   */
  static start(
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string>,
    caller: Caller,
    maxQueued: number,
    onOverflow: (client: StreamClient, queued: number) => void,
  ): StreamClient | null {
    const socket = req.socket;
    // No timeouts or Nagle delay on a connection that is meant to stay open and carry small frames.
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    res.useChunkedEncodingByDefault = false;
    res.shouldKeepAlive = false;
    res.writeHead(200, { ...headers, Connection: 'close' });
    if (req.method === 'HEAD') {
      res.end();
      return null;
    }
    // The head goes out now; from here on the socket carries the body as it is.
    res.flushHeaders();
    return new StreamClient(res, socket, caller, maxQueued, onOverflow);
  }

  /** Who the stream belongs to, for log lines (never a secret). */
  get label(): string {
    const c = this.caller;
    return `${c.kind === 'key' ? `key ${c.keyId} "${c.name}"` : `session ${c.sessionId}`} from ${c.ip}`;
  }

  write(chunk: Buffer): void {
    if (!this.open || this.socket.destroyed) return;
    const queued = this.socket.writableLength;
    if (queued > this.maxQueued) {
      this.cut();
      this.onOverflow(this, queued);
      return;
    }
    this.socket.write(chunk);
  }

  /** Ends the stream; what is still queued is dropped when the client is not reading it anyway. */
  close(): void {
    if (!this.open) return;
    if (this.socket.writableLength > 0) {
      this.cut();
      return;
    }
    this.open = false;
    this.res.end();
  }

  private cut(): void {
    this.open = false;
    this.socket.destroy();
  }
}
