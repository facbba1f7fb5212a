/**
 * Text answers of the status page (HTML, JSON, CSS, JS) are sent compressed when the client
 * accepts it: brotli first, then gzip. A body is compressed once per encoding and kept with it
 * (pages for as long as they are cached, assets for the life of the process).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to send for an Accept-Encoding header (q=0 refuses one; `*` stands for the others). Pure. */
export function pickEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (e: string) => q.get(e) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gz = Math.max(weight('gzip'), q.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

export class Packed {
  private br: Buffer | null = null;
  private gz: Buffer | null = null;
  readonly raw: Buffer;

  /** `max`: assets compressed once for good (slowest, smallest); `fast`: pages rebuilt every 30 s. */
  constructor(body: string | Buffer, private readonly effort: 'max' | 'fast' = 'fast') {
    this.raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  }

  body(encoding: Encoding): Buffer {
    if (encoding === 'br') {
      this.br ??= brotliCompressSync(this.raw, {
        params: {
          // Quality 4 and up switch to a slower matcher: 3 compresses a 1 MB page several times faster for a few % more bytes.
          [constants.BROTLI_PARAM_QUALITY]: this.effort === 'max' ? 11 : 3,
          [constants.BROTLI_PARAM_SIZE_HINT]: this.raw.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      });
      return this.br;
    }
    if (encoding === 'gzip') {
      this.gz ??= gzipSync(this.raw, { level: this.effort === 'max' ? 9 : 3 });
      return this.gz;
    }
    return this.raw;
  }
}
