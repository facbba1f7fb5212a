/**
 * The agent's spool: every result is on disk, with its seq, before it is sent, and stays there until
 * the service acknowledges it. Append-only segment files (`seg-<first seq>.jsonl`, one result a
 * line) of which the newest is kept open, one write and one fsync per appended batch, and `acked`
 * (the highest seq the service stored, one write in place, see ack()). So after kill -9: results
 * the service acknowledged are never sent again (they are at or below `acked`, or in a segment
 * already deleted), and every unacknowledged one that reached the disk is sent again, in order,
 * with its seq.
 *
 * Bounded (FARSIGHT_AGENT_SPOOL_MAX_RESULTS, _MAX_BYTES): segments hold about a twentieth of the
 * bound each, and when a batch would pass it the oldest segment goes whole, its unacknowledged
 * results counted as dropped. The oldest are dropped, not the newest: when the service is back,
 * what it most needs is the present.
 *
 * seq never goes back, across restarts and a lost spool too: it continues from the newest on disk
 * and from `acked`, and starts no lower than the clock in microseconds (a spool deleted by hand
 * restarts above every seq it ever sent, so the service does not take its results for repeats).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

// Descriptors, not FileHandles: they stay open between batches (a FileHandle left open by a spool
// nobody closed would be closed by the garbage collector, with a warning).
const open = promisify(fs.open);
const write = promisify(fs.write);
const fsync = promisify(fs.fsync);
const fdatasync = promisify(fs.fdatasync);
const close = promisify(fs.close);

export interface SpoolBounds {
  maxResults: number;
  maxBytes: number;
}

export interface SpoolEntry {
  seq: number;
  monitorId: number;
  /** The line as stored and sent: a ResultItem's JSON. */
  line: string;
  bytes: number;
}

interface Segment {
  file: string;
  firstSeq: number;
  lastSeq: number;
  count: number;
  bytes: number;
}

const SEGMENT = /^seg-(\d{16})\.jsonl$/;
const ACKED_FILE = 'acked';
/** Segments per bound: how coarse a drop is (a twentieth of the spool at most). */
const SEGMENTS_PER_BOUND = 20;
/** `acked` holds the seq in a fixed width (2^53 has 16 digits), so each write overwrites it whole in place. */
const ACKED_WIDTH = 16;

export class Spool {
  private readonly segments: Segment[] = [];
  /** Unacknowledged entries in seq order: what the sender reads. */
  private readonly entries: SpoolEntry[] = [];
  private acked = 0;
  private nextSeq = 1;
  private droppedTotal = 0;
  /** One file operation at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The newest segment, kept open between batches: a batch is one write and one fsync. */
  private tail: { seg: Segment; fd: number } | null = null;
  /** `acked`, kept open: an acknowledgement is one write in place. */
  private ackedFd: number | null = null;

  private constructor(
    readonly dir: string,
    private readonly bounds: SpoolBounds,
  ) {}

  /** Opens (or creates, 0700) the spool in `dir` and reads back what a previous run left. */
  static open(dir: string, bounds: SpoolBounds, nowMs: number): Spool {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const spool = new Spool(dir, bounds);
    spool.load(nowMs);
    return spool;
  }

  /** Results not yet acknowledged, oldest first. */
  pending(): readonly SpoolEntry[] {
    return this.entries;
  }

  get ackedSeq(): number {
    return this.acked;
  }

  /** Results dropped to keep the bound, since this process started. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** What the segment files hold now (acknowledged results not yet deleted included): the bound applies to it. */
  diskUsage(): { results: number; bytes: number } {
    let results = 0;
    let bytes = 0;
    for (const s of this.segments) {
      results += s.count;
      bytes += s.bytes;
    }
    return { results, bytes };
  }

  /**
   * Appends a batch: each item gets the next seq, the lines reach the disk with one fsync, and
   * only then are they pending (sendable). Answers the entries made and how many old ones it dropped.
   */
  append(
    items: readonly { monitorId: number; body: (seq: number) => string }[],
  ): Promise<{ added: SpoolEntry[]; dropped: number }> {
    return this.serial(async () => {
      let made = items.map((item) => {
        const seq = this.nextSeq++;
        const line = item.body(seq);
        return { seq, monitorId: item.monitorId, line, bytes: Buffer.byteLength(line) + 1 };
      });
      let dropped = 0;
      // A batch bigger than the whole bound keeps its newest part.
      while (made.length > 0 && (made.length > this.bounds.maxResults || sumBytes(made) > this.bounds.maxBytes)) {
        made = made.slice(1);
        dropped += 1;
      }
      dropped += await this.makeRoom(made.length, sumBytes(made));
      await this.write(made);
      this.entries.push(...made);
      this.droppedTotal += dropped;
      return { added: made, dropped };
    });
  }

  /**
   * The service stored everything up to `seq`: recorded in `acked` first, then whole segments at
   * or below it are deleted. The record is one write in place, made durable (fdatasync) only
   * before a segment is deleted: a kill -9 keeps it (the kernel has it), and a power cut that
   * loses the last few only makes the next start send those results again with their seqs, which
   * the service takes as repeats (agent protocol: a seq at or below the acked one is skipped).
   * So at most a segment's worth is sent twice, and none is ever sent as new.
   */
  ack(seq: number): Promise<void> {
    return this.serial(async () => {
      // An answer above every seq this spool made: the spool was lost or is older than the
      // service's memory of this location. New results must go above it, or they would be taken
      // for repeats and ignored.
      if (seq >= this.nextSeq) this.nextSeq = seq + 1;
      if (seq <= this.acked) return;
      this.acked = seq;
      const fd = await this.ackedDescriptor();
      await write(fd, `${String(seq).padStart(ACKED_WIDTH, '0')}\n`, 0);
      let drop = 0;
      while (drop < this.entries.length && this.entries[drop].seq <= seq) drop += 1;
      this.entries.splice(0, drop);
      // The newest segment stays while it has room, all of it acknowledged or not: appending to it
      // is one write and one fsync, where a new file after every POST cost a create, a directory
      // fsync and a delete each second (the agent's profile: a tenth of its main thread).
      const done = (i: number) =>
        this.segments[i].lastSeq <= seq && (i < this.segments.length - 1 || this.full(this.segments[i]));
      if (this.segments.length > 0 && done(0)) await fdatasync(fd);
      while (this.segments.length > 0 && done(0)) await this.removeOldest();
    });
  }

  /** Closes the files kept open (at stop); the spool may be opened again by a later start. */
  close(): Promise<void> {
    return this.serial(async () => {
      if (this.tail !== null) await close(this.tail.fd);
      if (this.ackedFd !== null) await close(this.ackedFd);
      this.tail = null;
      this.ackedFd = null;
    });
  }

  /** Resolves once every file operation asked for so far is done. */
  settled(): Promise<void> {
    return this.serial(async () => undefined);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Deletes the oldest segments until `count` more results of `bytes` fit; answers how many unacknowledged ones went. */
  private async makeRoom(count: number, bytes: number): Promise<number> {
    let dropped = 0;
    let usage = this.diskUsage();
    while (
      this.segments.length > 0 &&
      (usage.results + count > this.bounds.maxResults || usage.bytes + bytes > this.bounds.maxBytes)
    ) {
      const gone = await this.removeOldest();
      let n = 0;
      while (n < this.entries.length && this.entries[n].seq <= gone.lastSeq) n += 1;
      dropped += n;
      this.entries.splice(0, n);
      usage = this.diskUsage();
    }
    return dropped;
  }

  /** Deletes the oldest segment (closing it first when it is the one kept open); answers it. */
  private async removeOldest(): Promise<Segment> {
    const gone = this.segments.shift() as Segment;
    if (this.tail?.seg === gone) {
      await close(this.tail.fd);
      this.tail = null;
    }
    await fs.promises.rm(path.join(this.dir, gone.file), { force: true });
    return gone;
  }

  private async ackedDescriptor(): Promise<number> {
    if (this.ackedFd !== null) return this.ackedFd;
    const file = path.join(this.dir, ACKED_FILE);
    const existed = fs.existsSync(file);
    // Every write after this one is the whole record at offset 0, of one length.
    this.ackedFd = await open(file, 'w', 0o600);
    // A new file's name must be durable too, or a power cut could keep its data and lose the file.
    if (!existed) await syncDir(this.dir);
    return this.ackedFd;
  }

  /** The newest segment's descriptor, opened (and the last one closed) when a segment starts. */
  private async tailDescriptor(seg: Segment, created: boolean): Promise<number> {
    if (this.tail?.seg === seg) return this.tail.fd;
    if (this.tail !== null) await close(this.tail.fd);
    this.tail = null;
    const fd = await open(path.join(this.dir, seg.file), 'a', 0o600);
    this.tail = { seg, fd };
    // A new file's name must be durable too, or a crash could keep its data and lose the file.
    if (created) await syncDir(this.dir);
    return fd;
  }

  /** What one segment holds at most: a twentieth of the bound. */
  private get segResults(): number {
    return Math.max(1, Math.floor(this.bounds.maxResults / SEGMENTS_PER_BOUND));
  }

  private get segBytes(): number {
    return Math.max(4096, Math.floor(this.bounds.maxBytes / SEGMENTS_PER_BOUND));
  }

  private full(seg: Segment): boolean {
    return seg.count >= this.segResults || seg.bytes >= this.segBytes;
  }

  private async write(made: SpoolEntry[]): Promise<void> {
    const { segResults, segBytes } = this;
    let i = 0;
    while (i < made.length) {
      let seg = this.segments[this.segments.length - 1];
      const created = !seg || this.full(seg);
      if (created) {
        seg = { file: segmentName(made[i].seq), firstSeq: made[i].seq, lastSeq: made[i].seq, count: 0, bytes: 0 };
        this.segments.push(seg);
      }
      let count = 0;
      let bytes = 0;
      let text = '';
      while (i < made.length && (count === 0 || (seg.count + count < segResults && seg.bytes + bytes < segBytes))) {
        const e = made[i++];
        text += `${e.line}\n`;
        count += 1;
        bytes += e.bytes;
      }
      const fd = await this.tailDescriptor(seg, created);
      const data = Buffer.from(text);
      for (let at = 0; at < data.length;) at += (await write(fd, data, at, data.length - at)).bytesWritten;
      await fsync(fd);
      seg.count += count;
      seg.bytes += bytes;
      seg.lastSeq = made[i - 1].seq;
    }
  }

  /** Reads back the segments and `acked` a previous run left; a line torn by a crash is cut off. */
  private load(nowMs: number): void {
    this.acked = readAcked(path.join(this.dir, ACKED_FILE));
    let lastSeq = this.acked;
    const files = fs
      .readdirSync(this.dir)
      .filter((f) => SEGMENT.test(f))
      .sort();
    for (const file of files) {
      const full = path.join(this.dir, file);
      const text = fs.readFileSync(full, 'utf8');
      // Only complete lines count: a write cut by kill -9 or a power loss leaves a partial last line.
      const end = text.lastIndexOf('\n') + 1;
      if (end < text.length) fs.truncateSync(full, Buffer.byteLength(text.slice(0, end)));
      const seg: Segment = { file, firstSeq: Infinity, lastSeq: 0, count: 0, bytes: 0 };
      for (const line of text.slice(0, end).split('\n')) {
        if (line === '') continue;
        const parsed = parseLine(line);
        seg.bytes += Buffer.byteLength(line) + 1;
        seg.count += 1;
        if (!parsed || parsed.seq <= lastSeq) continue;
        seg.firstSeq = Math.min(seg.firstSeq, parsed.seq);
        seg.lastSeq = parsed.seq;
        lastSeq = parsed.seq;
        if (parsed.seq > this.acked)
          this.entries.push({ seq: parsed.seq, monitorId: parsed.monitorId, line, bytes: Buffer.byteLength(line) + 1 });
      }
      if (seg.count === 0 || seg.lastSeq <= this.acked) fs.rmSync(full, { force: true });
      else this.segments.push(seg);
    }
    this.nextSeq = Math.max(lastSeq + 1, this.acked + 1, Math.floor(nowMs) * 1000);
  }
}

function segmentName(firstSeq: number): string {
  return `seg-${String(firstSeq).padStart(16, '0')}.jsonl`;
}

function sumBytes(entries: readonly SpoolEntry[]): number {
  let n = 0;
  for (const e of entries) n += e.bytes;
  return n;
}

function parseLine(line: string): { seq: number; monitorId: number } | null {
  try {
    const v = JSON.parse(line) as { seq?: unknown; monitor_id?: unknown };
    if (Number.isSafeInteger(v.seq) && Number.isSafeInteger(v.monitor_id))
      return { seq: v.seq as number, monitorId: v.monitor_id as number };
  } catch {
    // A damaged line is skipped: the lines around it are still good.
  }
  return null;
}

function readAcked(file: string): number {
  try {
    const n = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  } catch {
    return 0;
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
