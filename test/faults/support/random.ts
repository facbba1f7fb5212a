/**
 * A seeded pseudo-random source (mulberry32), so a fault run can be repeated exactly: every test
 * prints its seed, and FAULTS_SEED=<n> replays it.
 */
export class Random {
  private s: number;

  constructor(readonly seed: number) {
    this.s = seed >>> 0;
  }

  /** The seed from FAULTS_SEED, or a new one. */
  static fromEnv(): Random {
    const given = Number(process.env.FAULTS_SEED);
    return new Random(Number.isInteger(given) && given > 0 ? given : 1 + Math.floor(Math.random() * 0x7fffffff));
  }

  /** In [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A number from the environment, or the default (long modes set these). */
export function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
