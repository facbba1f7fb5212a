import type { MonitorStatus, Transition } from '../../probes/status';
import { assumedDownAlerted, holdAlerts, HoldOutcome } from './alert-hold';

const AT = 1_000;
const down: Transition = { kind: 'down', at: AT, error: null, fails: 1, failingSince: AT };
const up: Transition = { kind: 'up', at: AT, recovered: true, downSince: 0 };
const firstUp: Transition = { kind: 'up', at: AT, recovered: false };
const flapOn: Transition = { kind: 'flapping', at: AT, on: true };
const flapOff: Transition = { kind: 'flapping', at: AT, on: false };
const closed: Transition = { kind: 'closed', at: AT, reason: 'paused' };
const paused: Transition = { kind: 'paused', at: AT };
const unknown: Transition = { kind: 'unknown', at: AT, reason: 'config_changed' };
const slow: Transition = { kind: 'slow', at: AT };

const send = (cause: 'down' | 'up', incidentId: number, settled = false) => ({
  cause,
  incidentId,
  held: false,
  settled,
});
const held = (cause: 'down' | 'up', incidentId: number) => ({ cause, incidentId, held: true, settled: false });

describe('holdAlerts', () => {
  // [name, downAlerted, transition, incidentId, openIncident, flapping after, status after, want]
  it.each<[string, number | null, Transition, number | null, number | null, boolean, MonitorStatus, HoldOutcome]>([
    [
      'a down while steady goes, and is remembered',
      null,
      down,
      7,
      7,
      false,
      'down',
      { alerts: [send('down', 7)], downAlerted: 7 },
    ],
    [
      'an up while steady goes, and clears the memory',
      7,
      up,
      7,
      null,
      false,
      'up',
      { alerts: [send('up', 7)], downAlerted: null },
    ],
    ['a down while flapping is held', null, down, 7, 7, true, 'down', { alerts: [held('down', 7)], downAlerted: null }],
    [
      'the down that turns flapping on is held',
      3,
      down,
      7,
      7,
      true,
      'down',
      { alerts: [held('down', 7)], downAlerted: 3 },
    ],
    [
      'an up while flapping is held (the channels still think down)',
      7,
      up,
      7,
      null,
      true,
      'up',
      { alerts: [held('up', 7)], downAlerted: 7 },
    ],
    [
      'flapping ends Down with a held down: it goes now',
      null,
      flapOff,
      null,
      9,
      false,
      'down',
      { alerts: [send('down', 9, true)], downAlerted: 9 },
    ],
    [
      'flapping ends Down on a new incident after an unsent up: its down goes',
      7,
      flapOff,
      null,
      9,
      false,
      'down',
      { alerts: [send('down', 9, true)], downAlerted: 9 },
    ],
    [
      'flapping ends Down on the incident already alerted: nothing more',
      9,
      flapOff,
      null,
      9,
      false,
      'down',
      { alerts: [], downAlerted: 9 },
    ],
    [
      'flapping ends Up after a down went out: the up goes, for that incident',
      7,
      flapOff,
      null,
      null,
      false,
      'up',
      { alerts: [send('up', 7, true)], downAlerted: null },
    ],
    [
      'flapping ends Slow after a down went out: the up goes',
      7,
      flapOff,
      null,
      null,
      false,
      'slow',
      { alerts: [send('up', 7, true)], downAlerted: null },
    ],
    [
      'flapping ends Up and the channels heard up last: nothing',
      null,
      flapOff,
      null,
      null,
      false,
      'up',
      { alerts: [], downAlerted: null },
    ],
    [
      'flapping ends by a pause: nothing, and the memory starts again',
      7,
      flapOff,
      null,
      null,
      false,
      'paused',
      { alerts: [], downAlerted: 7 },
    ],
    ['a pause forgets', 7, paused, null, null, false, 'paused', { alerts: [], downAlerted: null }],
    [
      'an incident closed without recovery forgets',
      7,
      closed,
      7,
      null,
      false,
      'paused',
      { alerts: [], downAlerted: null },
    ],
    ['a new target forgets', 7, unknown, null, null, false, 'unknown', { alerts: [], downAlerted: null }],
    ['flapping starting says nothing of up or down', 7, flapOn, 7, 7, true, 'down', { alerts: [], downAlerted: 7 }],
    ['a first up is no alert', null, firstUp, null, null, false, 'up', { alerts: [], downAlerted: null }],
    ['slowness is no up or down', 7, slow, 7, 7, false, 'slow', { alerts: [], downAlerted: 7 }],
  ])('%s', (_, mem, t, incidentId, open, flapping, status, want) => {
    expect(holdAlerts(mem, t, incidentId, open, flapping, status)).toEqual(want);
  });
});

describe('assumedDownAlerted (a blob stored before the memory existed)', () => {
  it.each([
    [7, false, 7],
    [7, true, null],
    [null, false, null],
    [null, true, null],
  ])('open incident %s, flapping %s: %s', (open, flapping, want) =>
    expect(assumedDownAlerted(open, flapping)).toBe(want),
  );
});
