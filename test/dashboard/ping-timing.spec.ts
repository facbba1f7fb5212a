/** A heartbeat monitor's results as pings on time, late or missed (public/dashboard/monitor/ping-timing.js). */
type Result = { at_ms: number; outcome: string; error?: { code: string; message: string } | null };
type Timing = { kind: string; gapMs: number | null; lateMs: number | null };
type PingTiming = {
  pingKind(c: Result): string;
  pingTimings(items: Result[], intervalS: number, graceS: number): Timing[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pingKind, pingTimings } = require('../../public/dashboard/monitor/ping-timing.js') as PingTiming;

const MIN = 60_000;
const ping = (min: number): Result => ({ at_ms: min * MIN, outcome: 'up', error: null });
const missed = (min: number): Result => ({
  at_ms: min * MIN,
  outcome: 'down',
  error: { code: 'heartbeat', message: 'no ping within 360 s (interval 300 s + grace 60 s)' },
});
const failed = (min: number): Result => ({
  at_ms: min * MIN,
  outcome: 'down',
  error: { code: 'heartbeat', message: 'failure reported: exit 2' },
});

describe('pingKind', () => {
  it.each<[string, Result, string]>([
    ['a ping', ping(0), 'ping'],
    ['a missed deadline', missed(0), 'missed'],
    ['a failure the job reported', failed(0), 'failed'],
    ['a result not counted', { at_ms: 0, outcome: 'unknown', error: { code: 'protocol', message: 'x' } }, 'unknown'],
  ])('%s is %s', (_what, c, kind) => {
    expect(pingKind(c)).toBe(kind);
  });
});

describe('pingTimings, every 5 min with 1 min of grace', () => {
  it.each<[string, Result[], [string, number | null, number | null][]]>([
    [
      'pings on the interval are on time',
      [ping(10), ping(5), ping(0)],
      [
        ['ping', 5 * MIN, 0],
        ['ping', 5 * MIN, 0],
        ['ping', null, null],
      ],
    ],
    // Within the grace is still on time: the monitor did not go down.
    [
      'a ping within the grace is on time',
      [ping(6), ping(0)],
      [
        ['ping', 6 * MIN, 0],
        ['ping', null, null],
      ],
    ],
    [
      'a ping after the deadline is late by how far past it',
      [ping(9), missed(6), ping(0)],
      [
        ['ping', 9 * MIN, 3 * MIN],
        ['missed', null, null],
        ['ping', null, null],
      ],
    ],
    // The engine measures from the last ping: a failure report in between does not move it.
    [
      'a failure report does not count as a ping',
      [ping(8), failed(4), ping(0)],
      [
        ['ping', 8 * MIN, 2 * MIN],
        ['failed', null, null],
        ['ping', null, null],
      ],
    ],
    [
      'without the ping before it, a ping has no timing',
      [ping(5), missed(1)],
      [
        ['ping', null, null],
        ['missed', null, null],
      ],
    ],
    ['no results', [], []],
  ])('%s', (_what, items, expected) => {
    expect(pingTimings(items, 300, 60).map((t) => [t.kind, t.gapMs, t.lateMs])).toEqual(expected);
  });
});
