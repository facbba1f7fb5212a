import { duration, OFFLINE_AFTER_MS, offlinePeriod, offlineText } from './offline-period';

const T = Date.UTC(2026, 10, 1, 12);

describe('offlinePeriod', () => {
  it.each<[string, { at: number; clean: boolean } | null, number, ReturnType<typeof offlinePeriod>]>([
    ['first start: no mark, no period', null, T, null],
    ['a restart within twice the mark interval is no period', { at: T, clean: false }, T + OFFLINE_AFTER_MS, null],
    ['a quick clean restart is no period either', { at: T, clean: true }, T + 5_000, null],
    ['an hour after an unclean stop', { at: T, clean: false }, T + 3_600_000, { from: T, to: T + 3_600_000, clean: false }],
    ['an hour after a clean stop: a planned stop is still offline time', { at: T, clean: true }, T + 3_600_000, { from: T, to: T + 3_600_000, clean: true }],
    ['just past the threshold', { at: T, clean: false }, T + OFFLINE_AFTER_MS + 1, { from: T, to: T + OFFLINE_AFTER_MS + 1, clean: false }],
    ['a clock that went backwards is no period', { at: T, clean: false }, T - 3_600_000, null],
  ])('%s', (_, mark, now, want) => {
    expect(offlinePeriod(mark, now)).toEqual(want);
  });
});

describe('offlineText', () => {
  it('gives both ends, the length and how the service stopped', () => {
    expect(offlineText({ from: T, to: T + 3_900_000, clean: true })).toBe(
      'Farsight was offline from 2026-11-01T12:00:00.000Z to 2026-11-01T13:05:00.000Z (1 h 5 min, stopped cleanly): nothing was checked',
    );
    expect(offlineText({ from: T, to: T + 90_000, clean: false })).toMatch(/\(1 min, stopped without warning: a crash, a kill or a power cut\)/);
  });
});

describe('duration', () => {
  it.each([[0, '0 s'], [59_400, '59 s'], [60_000, '1 min'], [3_599_000, '59 min'], [3_600_000, '1 h 0 min'], [90_000_000, '1 d 1 h']])(
    '%d ms reads %s',
    (ms, text) => expect(duration(ms)).toBe(text),
  );
});
