/** The dashboard's words for durations, latencies, uptime and recent moments (public/dashboard/core/format.js). */
type Format = {
  duration(ms: number | null | undefined): string;
  ago(t: string | number, now?: number): string;
  ms(v: number | null | undefined): string;
  pct(v: number | null | undefined): string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ago, duration, ms, pct } = require('../../public/dashboard/core/format.js') as Format;

describe('duration', () => {
  it.each([
    [null, ''],
    [-1, ''],
    [0, '0 s'],
    [44_400, '44 s'],
    [59_499, '59 s'],
    [60_000, '1 min'],
    [118_000, '1 min 58 s'],
    [9 * 60_000 + 5_000, '9 min 5 s'],
    // From ten minutes on, the seconds no longer matter.
    [10 * 60_000 + 5_000, '10 min'],
    [3_600_000, '1 h'],
    [3 * 3_600_000 + 4 * 60_000, '3 h 4 min'],
    [47 * 3_600_000 + 59 * 60_000, '47 h 59 min'],
    [48 * 3_600_000, '2 d'],
    [51 * 3_600_000, '2 d 3 h'],
  ])('%p ms is "%s"', (v, words) => {
    expect(duration(v)).toBe(words);
  });
});

describe('ago', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it.each([
    ['2026-11-28T11:59:30Z', 'just now'],
    ['2026-11-28T11:59:00Z', '1 min ago'],
    ['2026-11-28T11:55:00Z', '5 min ago'],
    ['2026-11-27T12:00:00Z', '24 h ago'],
    ['not a moment', ''],
  ])('%s is "%s" at noon', (t, words) => {
    expect(ago(t, now)).toBe(words);
  });

  it('gives the date for a moment more than two days ago', () => {
    expect(ago('2026-11-20T12:00:00Z', now)).not.toMatch(/ago$/);
  });
});

describe('ms', () => {
  it.each([
    [null, '–'],
    [undefined, '–'],
    [0, '0 ms'],
    [12.6, '13 ms'],
    [9_999, '9999 ms'],
    [10_000, '10.0 s'],
    [12_345, '12.3 s'],
  ])('%p is "%s"', (v, words) => {
    expect(ms(v)).toBe(words);
  });
});

describe('pct', () => {
  it.each([
    [null, '–'],
    [100, '100%'],
    // Never rounded up to 100 % while some check failed.
    [99.999, '99.99%'],
    [99.95, '99.95%'],
    [99.9, '99.90%'],
    [99.89, '99.8%'],
    [50, '50.0%'],
    [0, '0.0%'],
  ])('%p is "%s"', (v, words) => {
    expect(pct(v)).toBe(words);
  });
});
