/**
 * Text answers of the status page (HTML, JSON, CSS, JS) are sent compressed when the client
 * accepts it: brotli first, then gzip. A body is compressed once per encoding and kept with it
 * (pages for as long as they are cached, assets for the life of the process).
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, BrotliOptions, constants, gzip, gzipSync, ZlibOptions } from 'node:zlib';
import type { Encoding } from './accept-encoding';

const brotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliCompress);
const gzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gzip);

export class Packed {
  private br: Buffer | null = null;
  private gz: Buffer | null = null;
  /** The body as one buffer, once something needed it so (a compression, `raw`). */
  private whole: Buffer | null;
  /** The body as the pieces it was made of, until it is joined. */
  private parts: readonly Buffer[] | null;
  /** The pieces were sent once: a second time, they are joined (chunks()). */
  private sentInPieces = false;
  /** Bytes of the uncompressed body. */
  readonly length: number;

  /**
   * `body`: the text, or its bytes, or its bytes in pieces. A page written from kept pieces
   * (fragments.ts, home-html.ts) is sent as those pieces and joined only when a compression needs
   * it whole: joining a 1.2 MB answer on each build made a new buffer outside V8's heap, which V8
   * counts against the old generation's limit, so every few builds started a full collection
   * (docs/performance.md, "Sixteenth round").
   * `max`: assets compressed once for good (slowest, smallest); `fast`: pages rebuilt every 30 s.
   */
  constructor(
    body: string | Buffer | readonly Buffer[],
    private readonly effort: 'max' | 'fast' = 'fast',
  ) {
    if (typeof body === 'string') body = Buffer.from(body, 'utf8');
    if (Buffer.isBuffer(body)) {
      this.whole = body;
      this.parts = null;
      this.length = body.length;
    } else {
      this.whole = body.length === 1 ? body[0] : null;
      this.parts = this.whole ? null : body;
      this.length = body.reduce((n, b) => n + b.length, 0);
    }
  }

  /** The uncompressed body as one buffer (pieces are joined once, here). */
  get raw(): Buffer {
    if (this.whole === null) {
      this.whole = Buffer.concat(this.parts!, this.length);
      this.parts = null;
    }
    return this.whole;
  }

  body(encoding: Encoding): Buffer {
    if (encoding === 'br') return (this.br ??= brotliCompressSync(this.raw, this.brotliOptions()));
    if (encoding === 'gzip') return (this.gz ??= gzipSync(this.raw, this.gzipOptions()));
    return this.raw;
  }

  /**
   * The body for this encoding as the buffers to write, in order. Uncompressed, a body made in
   * pieces is sent as those pieces the first time; asked for again, it is joined once and sent
   * whole from then on: a copy pays off only for an answer sent more than once (a page's pieces
   * are hundreds of writes a request), and most answers built after a change or after their 30 s
   * are read once on a page with few visitors.
   */
  chunks(encoding: Encoding): readonly Buffer[] {
    if (encoding !== 'identity' || this.parts === null || this.sentInPieces) return [this.body(encoding)];
    this.sentInPieces = true;
    return this.parts;
  }

  /**
   * Compresses both encodings on libuv's threads, so that neither the first request for a file
   * nor the checks running meanwhile wait behind a slow brotli pass on the event loop.
   */
  async prepare(): Promise<void> {
    // A request may have compressed one on the spot meanwhile: its bytes are kept (they are the same).
    if (!this.br) {
      const br = await brotliAsync(this.raw, this.brotliOptions());
      this.br ??= br;
    }
    if (!this.gz) {
      const gz = await gzipAsync(this.raw, this.gzipOptions());
      this.gz ??= gz;
    }
  }

  private brotliOptions(): BrotliOptions {
    return {
      params: {
        // Quality 4 and up switch to a slower matcher: 3 compresses a 1 MB page several times faster for a few % more bytes.
        [constants.BROTLI_PARAM_QUALITY]: this.effort === 'max' ? 11 : 3,
        [constants.BROTLI_PARAM_SIZE_HINT]: this.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    };
  }

  private gzipOptions(): ZlibOptions {
    return { level: this.effort === 'max' ? 9 : 3 };
  }
}

/** How long after start shipped files are compressed in the background: past the start's own work. */
export const PRECOMPRESS_AFTER_MS = 3_000;

/**
 * Compresses a set of shipped files in the background, one at a time, some seconds after start,
 * so that the first visitor after a restart is not the one who waits for it (brotli's best
 * quality takes about 100 ms for a 20 KB module on a small board). Returns a cancel for shutdown.
 */
export function precompressLater(files: () => Iterable<Packed>): () => void {
  let cancelled = false;
  const timer = setTimeout(() => {
    void (async () => {
      for (const f of files()) {
        if (cancelled) return;
        await f.prepare();
      }
    })().catch(() => undefined); // a file left out is compressed at its first request, as before
  }, PRECOMPRESS_AFTER_MS);
  timer.unref();
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}
