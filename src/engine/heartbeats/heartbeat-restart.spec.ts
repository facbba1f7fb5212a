import { heartbeatStart, HeartbeatStartInput, START_SLACK_MS } from './heartbeat-restart';

const MIN = 60_000;
const T = Date.UTC(2026, 10, 1, 12);
// A job that pings every 5 min with 1 min of grace, last ping at T.
const base: HeartbeatStartInput = {
  lastPing: T,
  intervalMs: 5 * MIN,
  graceMs: MIN,
  status: 'up',
  stoppedAt: T + MIN,
  now: T + 2 * MIN,
};
const NOTE = /^waiting for a ping: the service was offline from /;

describe('heartbeatStart', () => {
  it.each<[string, Partial<HeartbeatStartInput>, number, RegExp | null]>([
    ['a quick restart before the next ping is due keeps the deadline', {}, T + 6 * MIN, null],
    [
      'a restart shortly before the next ping is due leaves grace and a minute',
      { stoppedAt: T + 3 * MIN, now: T + 4.5 * MIN },
      T + 4.5 * MIN + MIN + START_SLACK_MS,
      null,
    ],
    [
      'a late job whose late ping could have come while the service was down gets a fresh window',
      { stoppedAt: T + 5.4 * MIN, now: T + 5.5 * MIN },
      T + 11.5 * MIN,
      NOTE,
    ],
    ['an hour offline over a due ping: a fresh window from the start', { now: T + 60 * MIN }, T + 66 * MIN, NOTE],
    [
      'a ping due during a short restart also gets a fresh window',
      { stoppedAt: T + 4.9 * MIN, now: T + 5.1 * MIN },
      T + 11.1 * MIN,
      NOTE,
    ],
    [
      'a late job whose deadline fell in the offline time gets one too',
      { stoppedAt: T + 5.5 * MIN, now: T + 60 * MIN },
      T + 66 * MIN,
      NOTE,
    ],
    [
      'the deadline passed before the stop: no fresh window',
      { stoppedAt: T + 7 * MIN, now: T + 60 * MIN },
      T + 61 * MIN + START_SLACK_MS,
      null,
    ],
    [
      'already down: no fresh window, no note',
      { status: 'down', now: T + 60 * MIN },
      T + 61 * MIN + START_SLACK_MS,
      null,
    ],
    [
      'unknown stop time (no mark yet): grace and a minute',
      { stoppedAt: null, now: T + 60 * MIN },
      T + 61 * MIN + START_SLACK_MS,
      null,
    ],
    [
      'never pinged yet (waiting since creation) behaves the same',
      { status: 'unknown', now: T + 60 * MIN },
      T + 66 * MIN,
      NOTE,
    ],
  ])('%s', (_, over, due, note) => {
    const r = heartbeatStart({ ...base, ...over });
    expect(r.due).toBe(due);
    if (note) expect(r.note).toMatch(note);
    else expect(r.note).toBeNull();
  });

  it('names the offline period in the note', () => {
    expect(heartbeatStart({ ...base, now: T + 60 * MIN }).note).toBe(
      'waiting for a ping: the service was offline from 2026-11-01 12:01 UTC to 2026-11-01 13:00 UTC',
    );
  });

  it('after a restore, names the backup the data comes from instead', () => {
    expect(heartbeatStart({ ...base, now: T + 60 * MIN, restored: true }).note).toBe(
      'waiting for a ping: the database was restored from a backup taken at 2026-11-01 12:01 UTC',
    );
  });
});
