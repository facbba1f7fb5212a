/**
 * The newest stream events, kept so a client that reconnects with Last-Event-ID gets what it
 * missed. Every event gets the next sequence number (1, 2, 3 ... in this process); the ring holds
 * at most `capacity` events and `maxBytes` of frames, dropping the oldest first. Frames are kept
 * exactly as they were sent, so a replay is byte for byte what live clients saw. Pure.
 */
export class EventRing {
  private readonly frames: (Buffer | undefined)[];
  /** Index of the oldest held frame in `frames`. */
  private head = 0;
  private count = 0;
  private bytes = 0;
  private lastSeq = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes: number,
  ) {
    if (!(capacity >= 1)) throw new Error('an event ring holds at least one event');
    this.frames = new Array<Buffer | undefined>(capacity);
  }

  /** The newest event's number; 0 before the first. */
  get last(): number {
    return this.lastSeq;
  }

  /** The number the next event gets. */
  get next(): number {
    return this.lastSeq + 1;
  }

  /** The oldest event still held (last + 1 when the ring is empty). */
  get first(): number {
    return this.lastSeq - this.count + 1;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the frame of event `next` and returns its number. */
  push(frame: Buffer): number {
    if (this.count === this.capacity) this.dropOldest();
    this.frames[(this.head + this.count) % this.capacity] = frame;
    this.count += 1;
    this.bytes += frame.length;
    while (this.bytes > this.maxBytes && this.count > 1) this.dropOldest();
    this.lastSeq += 1;
    return this.lastSeq;
  }

  /**
   * The frames of every event after `seq`, oldest first; null when some of them are no longer held
   * (or `seq` is not an event of this ring: negative, or after the newest).
   */
  after(seq: number): Buffer[] | null {
    if (!Number.isSafeInteger(seq) || seq < this.first - 1 || seq > this.lastSeq) return null;
    const out: Buffer[] = [];
    for (let s = seq + 1; s <= this.lastSeq; s++)
      out.push(this.frames[(this.head + s - this.first) % this.capacity] as Buffer);
    return out;
  }

  private dropOldest(): void {
    this.bytes -= (this.frames[this.head] as Buffer).length;
    this.frames[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count -= 1;
  }
}
