import type { WindowRow } from '../engine/maintenance/windows.table';
import { publicWindowsAt } from './public-windows';

const NOW = Date.UTC(2026, 10, 1, 12);
const H = 3_600_000;

function makeWindow(over: Partial<WindowRow>): WindowRow {
  return {
    id: 1,
    title: 'W',
    description: null,
    monitors: null,
    schedule: { kind: 'once', start: NOW + 5 * H, end: NOW + 6 * H },
    public: true,
    announce_h: 24,
    manual_start: null,
    manual_end: null,
    stopped_until: null,
    ended_at: null,
    created_at: 0,
    updated_at: 0,
    ...over,
  };
}

describe('publicWindowsAt', () => {
  it.each<[string, Partial<WindowRow>, string | null]>([
    ['announced: starts within announce_h', {}, 'scheduled'],
    ['not yet announced', { announce_h: 4 }, null],
    ['announce_h 0: only while it runs', { announce_h: 0 }, null],
    ['active', { schedule: { kind: 'once', start: NOW - H, end: NOW + H } }, 'active'],
    ['ended', { schedule: { kind: 'once', start: NOW - 2 * H, end: NOW - H } }, null],
    ['private', { public: false, schedule: { kind: 'once', start: NOW - H, end: NOW + H } }, null],
    ['manual, started by hand', { schedule: { kind: 'manual' }, manual_start: NOW - H }, 'active'],
    ['manual, never started', { schedule: { kind: 'manual' } }, null],
  ])('%s', (_why, over, state) => {
    expect(publicWindowsAt([makeWindow(over)], NOW).map((w) => w.state)).toEqual(state === null ? [] : [state]);
  });

  it('lists those in progress first, then by start', () => {
    const rows = [
      makeWindow({ id: 1, title: 'Later', schedule: { kind: 'once', start: NOW + 3 * H, end: NOW + 4 * H } }),
      makeWindow({ id: 2, title: 'Sooner', schedule: { kind: 'once', start: NOW + H, end: NOW + 2 * H } }),
      makeWindow({ id: 3, title: 'Now', schedule: { kind: 'manual' }, manual_start: NOW }),
    ];
    expect(publicWindowsAt(rows, NOW).map((w) => [w.title, w.ends_at])).toEqual([
      ['Now', null],
      ['Sooner', NOW + 2 * H],
      ['Later', NOW + 4 * H],
    ]);
  });
});
