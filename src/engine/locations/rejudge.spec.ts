import type { MonitorStatus } from '../../probes/status';
import { initialMachineState, MachineState, Policy } from '../state-machine';
import { judgeQuorum, LocationStatus, LocationTrack, NEW_TRACK, Vote } from './quorum';
import { rejudged } from './rejudge';

const NOW = 1_000_000;
const CHECKED = 990_000;
const policy: Policy = { confirm_after: 3, recover_after: 3, slow_after: 1, slow_ms: null, paused: false };

/** A monitor's state: its status, the time of its last check and its note. */
function stateOf(status: MonitorStatus, note: string | null = null): MachineState {
  return { ...initialMachineState(0, false), status, since: 0, last_check_at: CHECKED, last_ok_at: 900_000, note };
}

const v = (spec: string): Vote[] =>
  // "up", "down", "unknown", with a trailing "-" for offline: "down up- up-"
  spec.split(' ').map((w, i) => ({
    name: `l${i}`,
    online: !w.endsWith('-'),
    status: w.replace('-', '') as LocationStatus,
  }));

const witness: LocationTrack = {
  ...NEW_TRACK,
  status: 'down',
  at: 995_000,
  latency_ms: 12,
  error: { code: 'timeout', message: 'no answer in 5 s' },
};
const upWitness: LocationTrack = { ...NEW_TRACK, status: 'up', at: 996_000, latency_ms: 30 };

describe('a monitor judged again when a location goes offline or comes back', () => {
  it.each<[string, MachineState, string, number | null, MonitorStatus | null, string[], string | null]>([
    // [what, state before, votes, quorum, status after (null: no step), transition kinds, note after]
    [
      '3 locations, quorum 2: one Down vote left with two offline keeps Down and says why',
      stateOf('down'),
      'down up- up-',
      2,
      'down',
      [],
      'kept: only 1 of 3 locations online (offline: l1, l2), and 2 must agree',
    ],
    [
      'majority: the one Down vote left online makes an Up monitor Down at once',
      stateOf('up'),
      'down up- up-',
      null,
      'down',
      ['failing', 'down'],
      null,
    ],
    [
      'majority: the two Up votes back online make a Down monitor Up at once',
      stateOf('down'),
      'down up up',
      null,
      'up',
      ['up'],
      null,
    ],
    [
      'back online but disagreeing: Down is kept and the note says they do not agree yet',
      stateOf('down'),
      'down up up-',
      null,
      'down',
      [],
      'kept: the locations online do not agree yet (2 must agree)',
    ],
    [
      'a verdict the state already says clears the quorum note',
      stateOf('down', 'kept: only 1 of 3 locations online (offline: l1, l2), and 2 must agree'),
      'down down up-',
      null,
      'down',
      [],
      null,
    ],
    [
      'a verdict the state already says, without a note: nothing to do',
      stateOf('up'),
      'up up down-',
      null,
      null,
      [],
      null,
    ],
    ['slow is Up for the verdict', stateOf('slow'), 'up up- up', null, null, [], null],
    [
      'the same kept note again: nothing to do',
      stateOf('down', 'kept: only 1 of 3 locations online (offline: l1, l2), and 2 must agree'),
      'down up- up-',
      2,
      null,
      [],
      null,
    ],
    ['a paused monitor is left alone', stateOf('paused'), 'down up- up-', null, null, [], null],
    [
      'a note that is not the quorum stays (a blind local check)',
      stateOf('up', 'not counted: the service was blind'),
      'up up- up',
      null,
      null,
      [],
      null,
    ],
    [
      'no location online keeps the state',
      stateOf('up'),
      'down- up-',
      null,
      'up',
      [],
      'kept: only 0 of 2 locations online (offline: l0, l1), and 1 must agree',
    ],
  ])('%s', (_, before, votes, quorum, status, kinds, note) => {
    const verdict = judgeQuorum(v(votes), quorum);
    const s = rejudged(before, verdict, verdict.status === 'down' ? witness : upWitness, NOW, policy);
    if (status === null) {
      expect(s).toBeNull();
      return;
    }
    expect(s).not.toBeNull();
    expect(s!.state.status).toBe(status);
    expect(s!.transitions.map((x) => x.kind)).toEqual(kinds);
    expect(s!.state.note).toBe(note);
    // No check was made: the time of the last one stays.
    expect(s!.state.last_check_at).toBe(CHECKED);
  });

  it('a Down at once carries the time of the re-judgement and the error of a location that says it', () => {
    const verdict = judgeQuorum(v('down up- up-'), null);
    const s = rejudged(stateOf('up'), verdict, witness, NOW, policy)!;
    expect(s.transitions.find((x) => x.kind === 'down')).toMatchObject({ at: NOW, fails: 1 });
    expect(s.state).toMatchObject({
      since: NOW,
      error_code: 'timeout',
      error_message: 'no answer in 5 s',
      latency_ms: 12,
    });
  });

  it("an Up at once keeps the time of the witness's good check as the last good one", () => {
    const verdict = judgeQuorum(v('down up up'), null);
    const s = rejudged(stateOf('down'), verdict, upWitness, NOW, policy)!;
    expect(s.transitions[0]).toMatchObject({ kind: 'up', at: NOW, recovered: true });
    expect(s.state).toMatchObject({ since: NOW, last_ok_at: 996_000, error_code: null, latency_ms: 30 });
  });
});
