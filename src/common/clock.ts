/**
 * Every "now" in domain code comes from a Clock so tests can drive time without sleeping.
 * Read it once per operation and pass the value down to pure functions.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const CLOCK = Symbol('Clock');

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: for tests. */
export class FakeClock implements Clock {
  constructor(private t: number = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.t;
  }
  set(ms: number): void {
    this.t = ms;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
