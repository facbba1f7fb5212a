import { Backoff, BACKOFF_CAP_MS, backoffMs, retryAfterOf } from './backoff';

describe('backoffMs', () => {
  it.each([
    [1, 0, 500],
    [1, 0.999999, 1_000],
    [2, 0, 1_000],
    [3, 0.5, 3_000],
    [6, 1, 32_000],
    [7, 0, 30_000],
    [7, 1, 60_000],
    [50, 1, 60_000],
    [1_000, 0.5, 45_000],
  ])('after %d failures with draw %d waits %d ms', (failures, draw, ms) => {
    expect(backoffMs(failures, draw)).toBe(ms);
  });

  it('never waits less than half the ceiling nor more than the cap, whatever the draw', () => {
    for (let f = 1; f < 40; f += 1)
      for (const r of [-1, 0, 0.3, 0.99, 2]) {
        const ms = backoffMs(f, r);
        expect(ms).toBeGreaterThanOrEqual(500);
        expect(ms).toBeLessThanOrEqual(BACKOFF_CAP_MS);
      }
  });
});

describe('Backoff', () => {
  it('grows with failures in a row and starts over after a success', () => {
    const b = new Backoff(() => 1);
    expect([b.fail(), b.fail(), b.fail()]).toEqual([1_000, 2_000, 4_000]);
    b.succeed();
    expect(b.inARow).toBe(0);
    expect(b.fail()).toBe(1_000);
  });
});

describe('retryAfterOf', () => {
  it.each([
    [{ retryAfterMs: 30_000 }, 30_000],
    [{ retryAfterMs: null }, 0],
    [new Error('x'), 0],
    [null, 0],
  ])('%j waits at least %d ms', (err, ms) => {
    expect(retryAfterOf(err)).toBe(ms);
  });
});
