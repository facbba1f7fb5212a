import { DAY_MS, HOUR_MS, retryAt, SOON_MS, waitAfter } from './backoff';

describe('back-off after failed orders', () => {
  it.each([
    [1, SOON_MS],
    [2, SOON_MS],
    [3, 1 * HOUR_MS],
    [4, 2 * HOUR_MS],
    [5, 4 * HOUR_MS],
    [6, 8 * HOUR_MS],
    [7, 16 * HOUR_MS],
    [8, DAY_MS],
    [9, DAY_MS],
    [40, DAY_MS],
  ])('waits after failure %i in a row: %i ms', (failures, ms) => {
    expect(waitAfter(failures)).toBe(ms);
  });

  it.each([
    ['no Retry-After', 3, null, 1 * HOUR_MS],
    ['a shorter Retry-After changes nothing', 3, 60_000, 1 * HOUR_MS],
    ['a longer Retry-After is waited out', 3, 3 * HOUR_MS, 3 * HOUR_MS],
    ['Retry-After on an early failure', 1, 2 * HOUR_MS, 2 * HOUR_MS],
  ])('%s', (_name, failures, retryAfter, wait) => {
    expect(retryAt(failures, 1_000_000, retryAfter)).toBe(1_000_000 + wait);
  });
});
