/** Small statistics helpers for the harness (no dependencies). */

/** p50, p99 and max (nearest rank), and how many values there were. */
export interface Spread {
  n: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { n: 0, p50: null, p99: null, max: null };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

export function median(values: readonly number[]): number | null {
  return spread(values).p50;
}

/** Rounds for display and JSON: 3 decimals below 10, 1 below 100, none above. */
export function round(value: number | null, digits?: number): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const d = digits ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 3);
  const f = 10 ** d;
  return Math.round(value * f) / f;
}
