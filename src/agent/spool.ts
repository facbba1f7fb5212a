/**
 * The agent's spool: every result is on disk, with its seq, before it is sent, and stays there until
 * the service acknowledges it. Append-only segment files (`seg-<first seq>.jsonl`, one result a
 * line), one fsync per appended batch, and `acked` (the highest seq the service stored, written
 * whole and renamed into place). So after kill -9: results the service acknowledged are never sent
 * as new (they are at or below `acked`, or in a segment already deleted), and every unacknowledged
 * one that reached the disk is sent again, in order, with its seq.
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

export class Spool {
  private readonly segments: Segment[] = [];
  /** Unacknowledged entries in seq order: what the sender reads. */
  private readonly entries: SpoolEntry[] = [];
  private acked = 0;
  private nextSeq = 1;
  private droppedTotal = 0;
  /** One file operation at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();

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
   * The service stored everything up to `seq`: recorded on disk first (so a crash right after
   * never resends them as new), then whole segments at or below it are deleted.
   */
  ack(seq: number): Promise<void> {
    return this.serial(async () => {
      // An answer above every seq this spool made: the spool was lost or is older than the
      // service's memory of this location. New results must go above it, or they would be taken
      // for repeats and ignored.
      if (seq >= this.nextSeq) this.nextSeq = seq + 1;
      if (seq <= this.acked) return;
      this.acked = seq;
      await writeWhole(path.join(this.dir, ACKED_FILE), `${seq}\n`);
      let drop = 0;
      while (drop < this.entries.length && this.entries[drop].seq <= seq) drop += 1;
      this.entries.splice(0, drop);
      while (this.segments.length > 0 && this.segments[0].lastSeq <= seq) {
        const gone = this.segments.shift() as Segment;
        await fs.promises.rm(path.join(this.dir, gone.file), { force: true });
      }
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
      const gone = this.segments.shift() as Segment;
      await fs.promises.rm(path.join(this.dir, gone.file), { force: true });
      let n = 0;
      while (n < this.entries.length && this.entries[n].seq <= gone.lastSeq) n += 1;
      dropped += n;
      this.entries.splice(0, n);
      usage = this.diskUsage();
    }
    return dropped;
  }

  private async write(made: SpoolEntry[]): Promise<void> {
    const segResults = Math.max(1, Math.floor(this.bounds.maxResults / SEGMENTS_PER_BOUND));
    const segBytes = Math.max(4096, Math.floor(this.bounds.maxBytes / SEGMENTS_PER_BOUND));
    let i = 0;
    while (i < made.length) {
      let seg = this.segments[this.segments.length - 1];
      const created = !seg || seg.count >= segResults || seg.bytes >= segBytes;
      if (created) {
        seg = { file: segmentName(made[i].seq), firstSeq: made[i].seq, lastSeq: made[i].seq, count: 0, bytes: 0 };
        this.segments.push(seg);
      }
      const chunk: SpoolEntry[] = [];
      while (i < made.length && seg.count + chunk.length < segResults && seg.bytes + sumBytes(chunk) < segBytes)
        chunk.push(made[i++]);
      if (chunk.length === 0) chunk.push(made[i++]);
      const handle = await fs.promises.open(path.join(this.dir, seg.file), 'a', 0o600);
      try {
        await handle.write(chunk.map((e) => `${e.line}\n`).join(''));
        await handle.sync();
      } finally {
        await handle.close();
      }
      // A new file's name must be durable too, or a crash could keep its data and lose the file.
      if (created) await syncDir(this.dir);
      seg.count += chunk.length;
      seg.bytes += sumBytes(chunk);
      seg.lastSeq = chunk[chunk.length - 1].seq;
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

/** Writes a small file whole: a temporary file, fsync, rename over, fsync of the directory. */
async function writeWhole(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp`;
  const handle = await fs.promises.open(tmp, 'w', 0o600);
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(tmp, file);
  await syncDir(path.dirname(file));
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
