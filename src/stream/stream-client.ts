/**
 * One open stream: the response it writes to and the caller whose access it lives on. Writes
 * never wait for the client: what its socket has not taken yet waits in Node's buffer
 * (`writableLength`). A client that still holds more than `maxQueued` unread bytes when the next
 * events are written is cut off instead of being buffered without bound.
 *
 * The queue is judged before a write, not after it: one burst (the events of one turn of the
 * event loop, say a mass outage announced at once) is always handed over whole, so a burst alone
 * never cuts off a client that reads. A stalled client thus holds at most `maxQueued` bytes plus
 * one burst (plus the kernel's socket buffer), and never slows anyone else down. A burst is one
 * Buffer shared by every client, so it is not copied per client either.
 */
import type { ServerResponse } from 'node:http';
import type { Caller } from '../common/caller';

export class StreamClient {
  private open = true;

  constructor(
    private readonly res: ServerResponse,
    readonly caller: Caller,
    private readonly maxQueued: number,
    private readonly onOverflow: (client: StreamClient, queued: number) => void,
  ) {
    // A client gone mid-write (reset, broken pipe) is noticed by 'close'; the error itself says nothing more.
    res.on('error', () => this.cut());
    res.on('close', () => {
      this.open = false;
    });
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Bytes written but not yet taken by the client's socket. */
  get queued(): number {
    return this.res.writableLength;
  }

  /** Who the stream belongs to, for log lines (never a secret). */
  get label(): string {
    const c = this.caller;
    return `${c.kind === 'key' ? `key ${c.keyId} "${c.name}"` : `session ${c.sessionId}`} from ${c.ip}`;
  }

  write(chunk: Buffer): void {
    if (!this.open || this.res.destroyed) return;
    const queued = this.res.writableLength;
    if (queued > this.maxQueued) {
      this.cut();
      this.onOverflow(this, queued);
      return;
    }
    this.res.write(chunk);
  }

  /** Ends the stream; what is still queued is dropped when the client is not reading it anyway. */
  close(): void {
    if (!this.open) return;
    if (this.res.writableLength > 0) {
      this.cut();
      return;
    }
    this.open = false;
    this.res.end();
  }

  private cut(): void {
    this.open = false;
    this.res.destroy();
  }
}
