import type { Schedule } from './schedule';
import { nextBoundary, startedByHand, stoppedByHand, viewOf, WindowTimes } from './window-state';

const at = (iso: string) => Date.parse(iso);
const weekly: Schedule = {
  kind: 'weekly',
  days: ['mon'],
  start_time: '09:00',
  duration_min: 60,
  tz: 'UTC',
  from: null,
  until: null,
};
const once: Schedule = { kind: 'once', start: at('2026-06-01T09:00:00Z'), end: at('2026-06-01T10:00:00Z') };
function makeWindow(schedule: Schedule, extra: Partial<WindowTimes> = {}): WindowTimes {
  return { schedule, manual_start: null, manual_end: null, stopped_until: null, ended_at: null, ...extra };
}

describe('viewOf', () => {
  it.each<[string, WindowTimes, string, string, string | null]>([
    ['weekly, between occurrences', makeWindow(weekly), '2026-06-01T08:00:00Z', 'scheduled', null],
    ['weekly, inside one', makeWindow(weekly), '2026-06-01T09:30:00Z', 'active', '2026-06-01T10:00:00.000Z'],
    ['once, before', makeWindow(once), '2026-06-01T08:00:00Z', 'scheduled', null],
    ['once, after', makeWindow(once), '2026-06-01T10:00:00Z', 'ended', null],
    ['manual, never started', makeWindow({ kind: 'manual' }), '2026-06-01T10:00:00Z', 'scheduled', null],
    [
      'manual, started without an end',
      makeWindow({ kind: 'manual' }, { manual_start: at('2026-06-01T09:00:00Z') }),
      '2026-06-01T10:00:00Z',
      'active',
      null,
    ],
    [
      'started by hand, past its end',
      makeWindow({ kind: 'manual' }, { manual_start: 1, manual_end: at('2026-06-01T09:00:00Z'), ended_at: 5 }),
      '2026-06-01T10:00:00Z',
      'ended',
      null,
    ],
    [
      'a stopped occurrence stays over',
      makeWindow(weekly, { stopped_until: at('2026-06-01T10:00:00Z') }),
      '2026-06-01T09:30:00Z',
      'scheduled',
      null,
    ],
  ])('%s', (_why, w, now, state, endsAt) => {
    const v = viewOf(w, at(now));
    expect(v.state).toBe(state);
    if (state === 'active')
      expect(v.current!.end === null ? null : new Date(v.current!.end).toISOString()).toBe(endsAt);
  });
});

describe('nextBoundary: when the engine wakes', () => {
  it.each<[string, WindowTimes, string, string | null]>([
    ['the next start', makeWindow(weekly), '2026-06-01T08:00:00Z', '2026-06-01T09:00:00.000Z'],
    ['the running end', makeWindow(weekly), '2026-06-01T09:10:00Z', '2026-06-01T10:00:00.000Z'],
    ['none once a once window ended', makeWindow(once), '2026-06-01T11:00:00Z', null],
    [
      'none while started by hand without an end',
      makeWindow({ kind: 'manual' }, { manual_start: 0 }),
      '2026-06-01T11:00:00Z',
      null,
    ],
  ])('%s', (_why, w, now, boundary) => {
    const b = nextBoundary(w, at(now));
    expect(b === null ? null : new Date(b).toISOString()).toBe(boundary);
  });
});

describe('by hand', () => {
  it('start then stop: active, then ended, and the scheduled occurrence running now stays over', () => {
    const now = at('2026-06-01T09:10:00Z');
    const started = startedByHand(makeWindow(weekly), now, at('2026-06-01T12:00:00Z'));
    expect(viewOf(started, at('2026-06-01T11:00:00Z')).current).toEqual({
      start: now,
      end: at('2026-06-01T12:00:00Z'),
    });
    const stopped = stoppedByHand(started, at('2026-06-01T09:20:00Z'));
    expect(viewOf(stopped, at('2026-06-01T09:30:00Z')).state).toBe('scheduled');
    expect(viewOf(stopped, at('2026-06-08T09:30:00Z')).state).toBe('active');
  });
});
