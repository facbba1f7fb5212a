import { StartFix, startFix, StartView } from './reconcile';

describe('startFix: what a start does with a monitor whose state and incident disagree', () => {
  const v = (over: Partial<StartView>): StartView => ({
    paused: false,
    status: 'up',
    hasOpenIncident: false,
    heldNow: false,
    affected: false,
    heldDown: false,
    ...over,
  });
  it.each<[string, Partial<StartView>, StartFix]>([
    ['up, no incident: nothing', {}, 'none'],
    ['paused in its configuration but not in its state: paused now', { paused: true, status: 'down' }, 'pause'],
    [
      'down with its incident: nothing (alerted before the stop, never again)',
      { status: 'down', hasOpenIncident: true },
      'none',
    ],
    ['down, held by a window now: nothing until it ends', { status: 'down', heldNow: true, heldDown: true }, 'none'],
    ['down, in its cause’s open outage: nothing', { status: 'down', affected: true }, 'none'],
    ['down, its window ended while stopped: incident and down alert', { status: 'down', heldDown: true }, 'release'],
    ['down without a window behind it (an old database): incident only', { status: 'down' }, 'open'],
    ['up with an open incident: it ends', { hasOpenIncident: true }, 'end'],
    ['paused with an open incident: it ends', { paused: true, status: 'paused', hasOpenIncident: true }, 'end'],
  ])('%s', (_name, over, fix) => {
    expect(startFix(v(over))).toBe(fix);
  });
});
