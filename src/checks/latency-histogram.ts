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
  const entries = Object.entries(h).map(([b, n]) => [Number(b), n] as const).sort((a, b) => a[0] - b[0]);
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
