/**
 * A sparse latency histogram with logarithmic buckets 4 % wide, so hourly and daily percentiles
 * can be merged and read later without the raw rows (docs/storage.md). Pure.
 */
const GROWTH = 1.04;
const LOG_GROWTH = Math.log(GROWTH);

export type Histogram = Record<number, number>;

export function bucketOf(ms: number): number {
  return ms <= 1 ? 0 : Math.ceil(Math.log(ms) / LOG_GROWTH);
}

/** The upper edge of a bucket: percentiles read from buckets are at most 4 % high. */
export function bucketValue(bucket: number): number {
  return bucket === 0 ? 1 : Math.round(Math.pow(GROWTH, bucket));
}

export function addTo(h: Histogram, ms: number): void {
  const b = bucketOf(ms);
  h[b] = (h[b] ?? 0) + 1;
}

export function mergeInto(into: Histogram, from: Histogram): void {
  for (const [b, n] of Object.entries(from)) into[Number(b)] = (into[Number(b)] ?? 0) + n;
}

/** The q-quantile (0..1) by nearest rank, or null for an empty histogram. */
export function quantile(h: Histogram, q: number): number | null {
  const entries = Object.entries(h)
    .map(([b, n]) => [Number(b), n] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [b, n] of entries) {
    seen += n;
    if (seen >= rank) return bucketValue(b);
  }
  return bucketValue(entries[entries.length - 1][0]);
}

/** Exact q-quantile by nearest rank over raw values (the same rule as quantile()). */
export function exactQuantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
}

/**
 * Stored form: pairs of (bucket delta, count) as unsigned LEB128 varints, buckets ascending.
 * About 2 bytes a bucket instead of ~8 as JSON: hourly rows are the bulk of the rollups.
 */
export function encodeHistogram(h: Histogram): Buffer | null {
  const entries = Object.entries(h)
    .map(([b, n]) => [Number(b), n] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => a[0] - b[0]);
  if (entries.length === 0) return null;
  const bytes: number[] = [];
  const put = (v: number) => {
    let x = v;
    while (x >= 0x80) {
      bytes.push((x % 0x80) | 0x80);
      x = Math.floor(x / 0x80);
    }
    bytes.push(x);
  };
  let prev = 0;
  for (const [b, n] of entries) {
    put(b - prev);
    put(n);
    prev = b;
  }
  return Buffer.from(bytes);
}

export function decodeHistogram(buf: Buffer | Uint8Array | null): Histogram {
  const h: Histogram = {};
  if (!buf) return h;
  let i = 0;
  const get = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (i >= buf.length) throw new Error('truncated histogram');
      const byte = buf[i++];
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 0x80;
    }
  };
  let bucket = 0;
  while (i < buf.length) {
    bucket += get();
    h[bucket] = get();
  }
  return h;
}

/**
 * A stored histogram with `add` merged in, stored again: the same bytes as
 * encodeHistogram(decode + merge), without building the stored one as an object. Rows are
 * written far more often than they are read (an agent's batch adds a result or two to a row of a
 * hundred buckets), so the write walks the bytes once.
 */
export function mergeEncoded(stored: Uint8Array | null, add: Histogram): Buffer | null {
  const extra: [number, number][] = [];
  // Integer keys enumerate in ascending order (ordinary objects, ECMAScript OwnPropertyKeys).
  for (const key in add) if (add[key] > 0) extra.push([Number(key), add[key]]);
  if (!stored || stored.length === 0) return encodeHistogram(add);
  if (extra.length === 0) return Buffer.from(stored);
  const out: number[] = [];
  const put = (v: number) => {
    let x = v;
    while (x >= 0x80) {
      out.push((x % 0x80) | 0x80);
      x = Math.floor(x / 0x80);
    }
    out.push(x);
  };
  let i = 0;
  const get = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (i >= stored.length) throw new Error('truncated histogram');
      const byte = stored[i++];
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 0x80;
    }
  };
  let prev = 0;
  const emit = (bucket: number, n: number) => {
    put(bucket - prev);
    put(n);
    prev = bucket;
  };
  let bucket = 0;
  let j = 0;
  while (i < stored.length) {
    bucket += get();
    let n = get();
    while (j < extra.length && extra[j][0] < bucket) emit(extra[j][0], extra[j++][1]);
    if (j < extra.length && extra[j][0] === bucket) n += extra[j++][1];
    emit(bucket, n);
  }
  while (j < extra.length) emit(extra[j][0], extra[j++][1]);
  return Buffer.from(out);
}
