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
  readonly raw: Buffer;

  /** `max`: assets compressed once for good (slowest, smallest); `fast`: pages rebuilt every 30 s. */
  constructor(
    body: string | Buffer,
    private readonly effort: 'max' | 'fast' = 'fast',
  ) {
    this.raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  }

  body(encoding: Encoding): Buffer {
    if (encoding === 'br') return (this.br ??= brotliCompressSync(this.raw, this.brotliOptions()));
    if (encoding === 'gzip') return (this.gz ??= gzipSync(this.raw, this.gzipOptions()));
    return this.raw;
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
        [constants.BROTLI_PARAM_SIZE_HINT]: this.raw.length,
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
