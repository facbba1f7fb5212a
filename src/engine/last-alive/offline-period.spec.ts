import {
  duration,
  OFFLINE_AFTER_MS,
  offlinePeriod,
  offlineText,
  RestoreRecord,
  restoredText,
  startFacts,
} from './offline-period';

const T = Date.UTC(2026, 10, 1, 12);

describe('offlinePeriod', () => {
  it.each<[string, { at: number; clean: boolean } | null, number, ReturnType<typeof offlinePeriod>]>([
    ['first start: no mark, no period', null, T, null],
    ['a restart within twice the mark interval is no period', { at: T, clean: false }, T + OFFLINE_AFTER_MS, null],
    ['a quick clean restart is no period either', { at: T, clean: true }, T + 5_000, null],
    [
      'an hour after an unclean stop',
      { at: T, clean: false },
      T + 3_600_000,
      { from: T, to: T + 3_600_000, clean: false },
    ],
    [
      'an hour after a clean stop: a planned stop is still offline time',
      { at: T, clean: true },
      T + 3_600_000,
      { from: T, to: T + 3_600_000, clean: true },
    ],
    [
      'just past the threshold',
      { at: T, clean: false },
      T + OFFLINE_AFTER_MS + 1,
      { from: T, to: T + OFFLINE_AFTER_MS + 1, clean: false },
    ],
    ['a clock that went backwards is no period', { at: T, clean: false }, T - 3_600_000, null],
  ])('%s', (_, mark, now, want) => {
    expect(offlinePeriod(mark, now)).toEqual(want);
  });
});

describe('offlineText', () => {
  it('gives both ends, the length and how the service stopped', () => {
    expect(offlineText({ from: T, to: T + 3_900_000, clean: true })).toBe(
      'Farsight was offline from 2026-11-01 12:00 UTC to 2026-11-01 13:05 UTC (1 h 5 min, stopped cleanly): nothing was checked',
    );
    expect(offlineText({ from: T, to: T + 90_000, clean: false })).toMatch(
      /\(1 min, stopped without warning: a crash, a kill or a power cut\)/,
    );
  });
});

describe('startFacts', () => {
  const HOUR = 3_600_000;
  const restore = (replaced: RestoreRecord['replaced']): RestoreRecord => ({ backup_at: T - 5 * HOUR, replaced });
  it.each<[string, { at: number; clean: boolean } | null, RestoreRecord | null, ReturnType<typeof startFacts>]>([
    ['first start ever', null, null, { stoppedAt: null, offline: null, restored: null }],
    [
      'a start after a run: the mark decides',
      { at: T, clean: false },
      null,
      { stoppedAt: T, offline: { from: T, to: T + HOUR, clean: false }, restored: null },
    ],
    [
      'a mark wins over an old restore record (only the first start after a restore reads it)',
      { at: T, clean: true },
      restore(null),
      { stoppedAt: T, offline: { from: T, to: T + HOUR, clean: true }, restored: null },
    ],
    [
      'restored over a cleanly stopped service: the real stop, clean; heartbeats judged from the backup',
      null,
      restore({ at: T, clean: true }),
      {
        stoppedAt: T - 5 * HOUR,
        offline: { from: T, to: T + HOUR, clean: true },
        restored: restore({ at: T, clean: true }),
      },
    ],
    [
      'restored over a crashed one: still a crash, which is what happened',
      null,
      restore({ at: T, clean: false }),
      {
        stoppedAt: T - 5 * HOUR,
        offline: { from: T, to: T + HOUR, clean: false },
        restored: restore({ at: T, clean: false }),
      },
    ],
    [
      'restored into an empty data dir: no stop is known, so no offline period',
      null,
      restore(null),
      { stoppedAt: T - 5 * HOUR, offline: null, restored: restore(null) },
    ],
    [
      'restored right after a quick stop: no period',
      null,
      restore({ at: T + HOUR - 5_000, clean: true }),
      { stoppedAt: T - 5 * HOUR, offline: null, restored: restore({ at: T + HOUR - 5_000, clean: true }) },
    ],
  ])('%s', (_, mark, restored, want) => {
    expect(startFacts(mark, restored, T + HOUR)).toEqual(want);
  });
});

describe('restoredText', () => {
  it.each<[RestoreRecord, string]>([
    [
      { backup_at: T + 42_000, replaced: null },
      'The database was restored from a backup taken at 2026-11-01 12:00 UTC (farsight restore): what happened after that time is not in it',
    ],
    [
      { backup_at: null, replaced: { at: T, clean: true } },
      'The database was restored from a backup (farsight restore)',
    ],
  ])('%j', (r, text) => expect(restoredText(r)).toBe(text));
});

describe('duration', () => {
  it.each([
    [0, '0 s'],
    [59_400, '59 s'],
    [60_000, '1 min'],
    [3_599_000, '59 min'],
    [3_600_000, '1 h 0 min'],
    [90_000_000, '1 d 1 h'],
  ])('%d ms reads %s', (ms, text) => expect(duration(ms)).toBe(text));
});
