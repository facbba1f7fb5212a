import type { CheckResult } from '../probes/check-result';
import { NO_PHASES } from '../probes/check-result';
import {
  configChanged,
  initialMachineState,
  MachineInput,
  MachineState,
  pause,
  Policy,
  resume,
  step,
  Step,
} from './state-machine';
import type { Transition } from '../probes/status';

// Check i (1-based) starts at at(i); at(0) is when the monitor was created.
const T0 = 1_767_225_600_000;
const at = (i: number) => T0 + i * 1000;

// Step tables read better as policies over these defaults: confirm 3, recover 2, slow 3 of > 500 ms.
const BASE: Policy = { confirm_after: 3, recover_after: 2, slow_after: 3, slow_ms: 500, paused: false };

const TIMEOUT = { code: 'timeout', message: 'timed out after 10000 ms waiting for the response' } as const;
const CERT = { not_after: T0 + 90 * 86_400_000, issuer: 'R11', subject: 'example.org' };

/**
 * One letter per check: u up (100 ms), s slow (900 ms), d down (timeout), b a failure not counted
 * (the service was blind), B a good check not counted, ? an `unknown` outcome.
 */
function check(letter: string, i: number): MachineInput {
  const base: CheckResult = {
    at_ms: at(i),
    outcome: 'up',
    latency_ms: 100,
    phases: NO_PHASES,
    status: 200,
    error: null,
    cert: null,
    detail: null,
  };
  switch (letter) {
    case 'u':
      return { ...base, counted: true };
    case 's':
      return { ...base, outcome: 'slow', latency_ms: 900, counted: true };
    case 'd':
      return { ...base, outcome: 'down', latency_ms: 10000, error: TIMEOUT, counted: true };
    case 'b':
      return {
        ...base,
        outcome: 'down',
        latency_ms: null,
        error: TIMEOUT,
        counted: false,
        note: 'the service was offline',
      };
    case 'B':
      return { ...base, counted: false, note: 'network path problem' };
    case '?':
      return { ...base, outcome: 'unknown', latency_ms: null, counted: true };
    default:
      throw new Error(`no check letter ${letter}`);
  }
}

/** Feeds the checks in order (numbered from `first`) and gathers every transition. */
function run(checks: string, policy: Partial<Policy> = {}, start?: MachineState, first = 1): Step {
  let state = start ?? initialMachineState(at(0), false);
  const transitions: Transition[] = [];
  [...checks].forEach((letter, n) => {
    const out = step(state, check(letter, first + n), { ...BASE, ...policy });
    state = out.state;
    transitions.push(...out.transitions);
  });
  return { state, transitions };
}

function label(t: Transition): string {
  if (t.kind === 'up' && !t.recovered) return 'up:new';
  if (t.kind === 'flapping') return t.on ? 'flapping:on' : 'flapping:off';
  if (t.kind === 'closed' || t.kind === 'unknown') return `${t.kind}:${t.reason}`;
  return t.kind;
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v as object);
  return Object.freeze(o);
}

interface StepCase {
  name: string;
  policy?: Partial<Policy>;
  checks: string;
  status: MachineState['status'];
  failing: number;
  /** Number of the check that began the final status; 0 = creation. */
  since: number;
  transitions: string[];
}

describe('step', () => {
  it.each<StepCase>([
    // unknown (a new monitor)
    {
      name: 'becomes up on the first good check of a new monitor, without recovery',
      checks: 'u',
      status: 'up',
      failing: 0,
      since: 1,
      transitions: ['up:new'],
    },
    {
      name: 'stays unknown while the first failures are unconfirmed',
      checks: 'dd',
      status: 'unknown',
      failing: 2,
      since: 0,
      transitions: ['failing'],
    },
    {
      name: 'opens down from unknown after 3 failed checks in a row',
      checks: 'ddd',
      status: 'down',
      failing: 3,
      since: 3,
      transitions: ['failing', 'down'],
    },
    {
      name: 'becomes up from unknown when a good check breaks the failure run',
      checks: 'ddu',
      status: 'up',
      failing: 0,
      since: 3,
      transitions: ['failing', 'up:new'],
    },
    {
      name: 'becomes up, not slow, from unknown on one slow check with slow_after 3',
      checks: 's',
      status: 'up',
      failing: 0,
      since: 1,
      transitions: ['up:new'],
    },
    {
      name: 'lands on slow from unknown when slow_after is 1 and the first check is slow',
      policy: { slow_after: 1 },
      checks: 's',
      status: 'slow',
      failing: 0,
      since: 1,
      transitions: ['up:new', 'slow'],
    },
    // up -> down
    {
      name: 'stays up after 2 failed checks with confirm_after 3',
      checks: 'udd',
      status: 'up',
      failing: 2,
      since: 1,
      transitions: ['up:new', 'failing'],
    },
    {
      name: 'opens down after 3 failed checks in a row',
      checks: 'uddd',
      status: 'down',
      failing: 3,
      since: 4,
      transitions: ['up:new', 'failing', 'down'],
    },
    {
      name: 'opens down on the first failed check with confirm_after 1',
      policy: { confirm_after: 1 },
      checks: 'ud',
      status: 'down',
      failing: 1,
      since: 2,
      transitions: ['up:new', 'failing', 'down'],
    },
    {
      name: 'starts the failure count again after a good check',
      checks: 'uddudd',
      status: 'up',
      failing: 2,
      since: 1,
      transitions: ['up:new', 'failing', 'failing'],
    },
    {
      name: 'opens down once the restarted run reaches 3',
      checks: 'udduddd',
      status: 'down',
      failing: 3,
      since: 7,
      transitions: ['up:new', 'failing', 'failing', 'down'],
    },
    {
      name: 'skips not-counted failures between failed checks',
      checks: 'udbdbd',
      status: 'down',
      failing: 3,
      since: 6,
      transitions: ['up:new', 'failing', 'down'],
    },
    {
      name: 'does not let a not-counted good check break a failure run',
      checks: 'uddBd',
      status: 'down',
      failing: 3,
      since: 5,
      transitions: ['up:new', 'failing', 'down'],
    },
    {
      name: 'treats an unknown outcome like a not-counted check',
      checks: 'udd?d',
      status: 'down',
      failing: 3,
      since: 5,
      transitions: ['up:new', 'failing', 'down'],
    },
    {
      name: 'keeps counting the failed checks of the incident while down',
      checks: 'udddddd',
      status: 'down',
      failing: 6,
      since: 4,
      transitions: ['up:new', 'failing', 'down'],
    },
    // down -> up
    {
      name: 'stays down after 1 good check with recover_after 2',
      checks: 'udddu',
      status: 'down',
      failing: 3,
      since: 4,
      transitions: ['up:new', 'failing', 'down'],
    },
    {
      name: 'recovers after 2 good checks in a row',
      checks: 'uddduu',
      status: 'up',
      failing: 0,
      since: 6,
      transitions: ['up:new', 'failing', 'down', 'up'],
    },
    {
      name: 'needs 2 good checks in a row again after a failure while recovering',
      checks: 'uddduduu',
      status: 'up',
      failing: 0,
      since: 8,
      transitions: ['up:new', 'failing', 'down', 'up'],
    },
    {
      name: 'counts a failure while recovering toward the incident',
      checks: 'udddud',
      status: 'down',
      failing: 4,
      since: 4,
      transitions: ['up:new', 'failing', 'down'],
    },
    {
      name: 'recovers on the first good check with recover_after 1',
      policy: { recover_after: 1 },
      checks: 'udddu',
      status: 'up',
      failing: 0,
      since: 5,
      transitions: ['up:new', 'failing', 'down', 'up'],
    },
    {
      name: 'counts slow checks as good for recovery and lands on up',
      checks: 'udddss',
      status: 'up',
      failing: 0,
      since: 6,
      transitions: ['up:new', 'failing', 'down', 'up'],
    },
    {
      name: 'lands on slow when the recovering checks already reach slow_after',
      policy: { slow_after: 2 },
      checks: 'udddss',
      status: 'slow',
      failing: 0,
      since: 6,
      transitions: ['up:new', 'failing', 'down', 'up', 'slow'],
    },
    {
      name: 'counts slow recovering checks toward slow_after after landing on up',
      checks: 'udddsss',
      status: 'slow',
      failing: 0,
      since: 7,
      transitions: ['up:new', 'failing', 'down', 'up', 'slow'],
    },
    {
      name: 'reopens down after a recovery',
      policy: { recover_after: 1 },
      checks: 'uddduddd',
      status: 'down',
      failing: 3,
      since: 8,
      transitions: ['up:new', 'failing', 'down', 'up', 'failing', 'down'],
    },
    // up <-> slow
    {
      name: 'stays up after 2 slow checks with slow_after 3',
      checks: 'uss',
      status: 'up',
      failing: 0,
      since: 1,
      transitions: ['up:new'],
    },
    {
      name: 'becomes slow after 3 slow checks in a row',
      checks: 'usss',
      status: 'slow',
      failing: 0,
      since: 4,
      transitions: ['up:new', 'slow'],
    },
    {
      name: 'starts the slow run again after a fast check',
      checks: 'ussuss',
      status: 'up',
      failing: 0,
      since: 1,
      transitions: ['up:new'],
    },
    {
      name: 'starts the slow run again after a failed check',
      checks: 'ussdss',
      status: 'up',
      failing: 0,
      since: 1,
      transitions: ['up:new', 'failing'],
    },
    {
      name: 'keeps counting a slow run across not-counted checks',
      checks: 'ussBbs',
      status: 'slow',
      failing: 0,
      since: 6,
      transitions: ['up:new', 'slow'],
    },
    {
      name: 'stays slow while checks stay slow',
      checks: 'ussssss',
      status: 'slow',
      failing: 0,
      since: 4,
      transitions: ['up:new', 'slow'],
    },
    {
      name: 'returns from slow to up on the first check not slower than slow_ms',
      checks: 'usssu',
      status: 'up',
      failing: 0,
      since: 5,
      transitions: ['up:new', 'slow', 'slow_end'],
    },
    {
      name: 'stays slow through an unconfirmed failure followed by a slow check',
      checks: 'usssds',
      status: 'slow',
      failing: 0,
      since: 4,
      transitions: ['up:new', 'slow', 'failing'],
    },
    {
      name: 'ends slow on a fast check after an unconfirmed failure',
      checks: 'usssddu',
      status: 'up',
      failing: 0,
      since: 7,
      transitions: ['up:new', 'slow', 'failing', 'slow_end'],
    },
    {
      name: 'opens down from slow without a slow_end',
      checks: 'usssddd',
      status: 'down',
      failing: 3,
      since: 7,
      transitions: ['up:new', 'slow', 'failing', 'down'],
    },
    {
      name: 'never becomes slow when slow_ms is null',
      policy: { slow_ms: null },
      checks: 'ussssss',
      status: 'up',
      failing: 0,
      since: 1,
      transitions: ['up:new'],
    },
    {
      name: 'never becomes slow when slow_ms is 0',
      policy: { slow_ms: 0 },
      checks: 'ussssss',
      status: 'up',
      failing: 0,
      since: 1,
      transitions: ['up:new'],
    },
    // paused
    {
      name: 'ignores every result while the policy says paused',
      policy: { paused: true },
      checks: 'dddduus',
      status: 'unknown',
      failing: 0,
      since: 0,
      transitions: [],
    },
  ])('$name', ({ checks, policy, status, failing, since, transitions }) => {
    const out = run(checks, policy);
    expect(out.transitions.map(label)).toEqual(transitions);
    expect(out.state.status).toBe(status);
    expect(out.state.failing).toBe(failing);
    expect(out.state.since).toBe(at(since));
  });

  it('carries the first failure time, the count and the confirming error on down', () => {
    const { transitions } = run('uddd');
    expect(transitions).toEqual([
      { kind: 'up', at: at(1), recovered: false },
      { kind: 'failing', at: at(2), error: TIMEOUT },
      { kind: 'down', at: at(4), error: TIMEOUT, fails: 3, failingSince: at(2) },
    ]);
  });

  it('carries when the down status began on recovery', () => {
    const { transitions } = run('uddduu');
    expect(transitions[transitions.length - 1]).toEqual({ kind: 'up', at: at(6), recovered: true, downSince: at(4) });
  });

  it('leaves state and result untouched and answers a new state', () => {
    const state = deepFreeze(run('udd').state);
    const result = deepFreeze(check('d', 4));
    const out = step(state, result, BASE);
    expect(out.state).not.toBe(state);
    expect(out.state.status).toBe('down');
  });

  it('returns the very same state when the policy says paused', () => {
    const state = run('udd').state;
    expect(step(state, check('d', 4), { ...BASE, paused: true })).toEqual({ state, transitions: [] });
    expect(step(state, check('d', 4), { ...BASE, paused: true }).state).toBe(state);
  });

  it('ignores a late result for a paused monitor even if the policy is not yet paused', () => {
    const paused = pause(run('u').state, at(2)).state;
    expect(step(paused, check('d', 3), BASE)).toEqual({ state: paused, transitions: [] });
  });

  it('confirms down on the next failure when confirm_after is lowered below a run under way', () => {
    const failing = run('udd').state;
    const out = step(failing, check('d', 4), { ...BASE, confirm_after: 2 });
    expect(out.transitions.map(label)).toEqual(['down']);
    expect(out.state.failing).toBe(3);
  });

  it('returns from slow to up on the next good check once slow_ms is turned off', () => {
    const slow = run('usss').state;
    const out = step(slow, check('s', 5), { ...BASE, slow_ms: null });
    expect(out.transitions.map(label)).toEqual(['slow_end']);
    expect(out.state.status).toBe('up');
  });
});

describe('step bookkeeping', () => {
  it('records the time of a not-counted check and why, and nothing else', () => {
    const before = run('ud').state;
    const after = step(before, check('b', 3), BASE).state;
    expect(after).toEqual({ ...before, last_check_at: at(3), note: 'the service was offline' });
  });

  it('clears the note on the next counted check', () => {
    expect(run('ubu').state.note).toBeNull();
  });

  it.each<[string, number | null]>([
    ['u', 1],
    ['us', 2],
    ['usd', 2],
    ['usdB', 2],
    ['d', null],
  ])('after %j the last good check is check %p', (checks, lastOk) => {
    expect(run(checks).state.last_ok_at).toBe(lastOk === null ? null : at(lastOk));
  });

  it.each<[string, number | null]>([
    ['u', 100],
    ['us', 900],
    ['usd', 10000],
    ['usdb', 10000],
    ['usd?', 10000],
  ])('after %j the latest latency is %p', (checks, latency) => {
    expect(run(checks).state.latency_ms).toBe(latency);
  });

  it.each<[string, string | null]>([
    ['ud', 'timeout'],
    ['udb', 'timeout'],
    ['udu', null],
    // A good check clears the error even while down and not yet recovered.
    ['udddu', null],
    ['udddud', 'timeout'],
  ])('after %j the error code is %p', (checks, code) => {
    const { state } = run(checks);
    expect(state.error_code).toBe(code);
    expect(state.error_message).toBe(code ? TIMEOUT.message : null);
  });

  it('takes the certificate expiry from a result and keeps it when a later result has none', () => {
    const withCert = step(initialMachineState(at(0), false), { ...check('u', 1), cert: CERT }, BASE).state;
    expect(withCert.cert_expires_at).toBe(CERT.not_after);
    expect(step(withCert, check('d', 2), BASE).state.cert_expires_at).toBe(CERT.not_after);
  });

  it('stamps every counted check as the last check', () => {
    expect(run('uds').state.last_check_at).toBe(at(3));
  });
});

interface OpCase {
  name: string;
  /** Checks that bring the monitor to the starting status; 'P' pauses instead of checking. */
  before: string;
  op: 'pause' | 'resume' | 'configChanged';
  status: MachineState['status'];
  changed: boolean;
  transitions: string[];
}

// confirm 1 and recover 1 make every check of the other kind a status change.
const TWITCHY: Partial<Policy> = { confirm_after: 1, recover_after: 1, slow_ms: null };
const d = (n: number) => 'd'.repeat(n);
const u = (n: number) => 'u'.repeat(n);

const OPS = { pause, resume, configChanged };
const NOW = at(100);

function prepare(before: string): MachineState {
  const [checks, paused] = before.endsWith('P') ? [before.slice(0, -1), true] : [before, false];
  const state = run(checks).state;
  return paused ? pause(state, at(50)).state : state;
}

describe('pause, resume and configuration change', () => {
  it.each<OpCase>([
    {
      name: 'pauses an unknown monitor',
      before: '',
      op: 'pause',
      status: 'paused',
      changed: true,
      transitions: ['paused'],
    },
    {
      name: 'pauses an up monitor',
      before: 'u',
      op: 'pause',
      status: 'paused',
      changed: true,
      transitions: ['paused'],
    },
    {
      name: 'pauses a slow monitor without a slow_end',
      before: 'usss',
      op: 'pause',
      status: 'paused',
      changed: true,
      transitions: ['paused'],
    },
    {
      name: 'pauses a failing monitor and drops its failure run',
      before: 'udd',
      op: 'pause',
      status: 'paused',
      changed: true,
      transitions: ['paused'],
    },
    {
      name: 'pauses a down monitor and closes its incident as paused',
      before: 'uddd',
      op: 'pause',
      status: 'paused',
      changed: true,
      transitions: ['paused', 'closed:paused'],
    },
    {
      name: 'changes nothing when pausing a paused monitor',
      before: 'uP',
      op: 'pause',
      status: 'paused',
      changed: false,
      transitions: [],
    },
    {
      name: 'resumes a paused monitor to unknown',
      before: 'udddP',
      op: 'resume',
      status: 'unknown',
      changed: true,
      transitions: ['unknown:resumed'],
    },
    {
      name: 'changes nothing when resuming a running monitor',
      before: 'u',
      op: 'resume',
      status: 'up',
      changed: false,
      transitions: [],
    },
    {
      name: 'changes nothing when resuming a down monitor',
      before: 'uddd',
      op: 'resume',
      status: 'down',
      changed: false,
      transitions: [],
    },
    {
      name: 'starts an unknown monitor again on a target change',
      before: 'dd',
      op: 'configChanged',
      status: 'unknown',
      changed: true,
      transitions: ['unknown:config_changed'],
    },
    {
      name: 'makes an up monitor unknown on a target change',
      before: 'u',
      op: 'configChanged',
      status: 'unknown',
      changed: true,
      transitions: ['unknown:config_changed'],
    },
    {
      name: 'makes a slow monitor unknown on a target change',
      before: 'usss',
      op: 'configChanged',
      status: 'unknown',
      changed: true,
      transitions: ['unknown:config_changed'],
    },
    {
      name: 'makes a failing monitor unknown and drops its run on a target change',
      before: 'udd',
      op: 'configChanged',
      status: 'unknown',
      changed: true,
      transitions: ['unknown:config_changed'],
    },
    {
      name: 'closes the incident as config_changed when a down monitor changes target',
      before: 'uddd',
      op: 'configChanged',
      status: 'unknown',
      changed: true,
      transitions: ['unknown:config_changed', 'closed:config_changed'],
    },
    {
      name: 'keeps a paused monitor paused on a target change',
      before: 'uP',
      op: 'configChanged',
      status: 'paused',
      changed: false,
      transitions: [],
    },
  ])('$name', ({ before, op, status, changed, transitions }) => {
    const start = prepare(before);
    const out = OPS[op](start, NOW);
    expect(out.transitions.map(label)).toEqual(transitions);
    expect(out.state.status).toBe(status);
    if (!changed) {
      expect(out.state).toBe(start);
      return;
    }
    expect(out.transitions.every((t) => t.at === NOW)).toBe(true);
    expect(out.state).toMatchObject({ since: NOW, failing: 0, good: 0, slowRun: 0, history: '', failingSince: null });
  });

  it('keeps what was observed (last check, last good check, latency, error, certificate)', () => {
    const down = run('uddd').state;
    const paused = pause(down, NOW).state;
    const { last_check_at, last_ok_at, latency_ms, error_code, error_message, cert_expires_at } = down;
    expect(paused).toMatchObject({ last_check_at, last_ok_at, latency_ms, error_code, error_message, cert_expires_at });
  });

  it.each<[string, 'pause' | 'configChanged', string[]]>([
    ['clears flapping when paused', 'pause', ['paused', 'closed:paused', 'flapping:off']],
    [
      'clears flapping on a target change',
      'configChanged',
      ['unknown:config_changed', 'closed:config_changed', 'flapping:off'],
    ],
  ])('%s, after closing the incident', (_name, op, transitions) => {
    const flappingDown = run('ududud', TWITCHY).state;
    expect(flappingDown).toMatchObject({ status: 'down', flapping: 1 });
    const out = OPS[op](flappingDown, NOW);
    expect(out.transitions.map(label)).toEqual(transitions);
    expect(out.state.flapping).toBe(0);
  });

  it.each<[string, string, string[]]>([
    ['a resumed monitor becomes up on its first good check without an up alert', 'u', ['up:new']],
    ['failures from before a pause do not count after resuming', 'dd', ['failing']],
  ])('%s', (_name, checks, transitions) => {
    const resumed = resume(prepare('uddP'), at(60)).state;
    expect(run(checks, {}, resumed, 61).transitions.map(label)).toEqual(transitions);
  });

  it('does not recover (no second close) on the first good check after a down monitor changed target', () => {
    const changed = configChanged(run('uddd').state, at(10)).state;
    expect(run('u', {}, changed, 11).transitions).toEqual([{ kind: 'up', at: at(11), recovered: false }]);
  });

  it('starts a new monitor unknown, or paused when created paused', () => {
    expect(initialMachineState(T0, false)).toMatchObject({ status: 'unknown', since: T0, flapping: 0, history: '' });
    expect(initialMachineState(T0, true).status).toBe('paused');
  });
});

interface FlapCase {
  name: string;
  policy?: Partial<Policy>;
  checks: string;
  flapping: boolean;
  /** Only the flapping transitions, in order. */
  flips: string[];
}

describe('flapping', () => {
  it.each<FlapCase>([
    { name: 'is not set by 5 status changes', checks: 'ududu', flapping: false, flips: [] },
    {
      name: 'is set by the 6th status change among 20 counted checks',
      checks: 'ududud',
      flapping: true,
      flips: ['flapping:on'],
    },
    {
      name: 'counts up/slow changes as status changes',
      policy: { ...TWITCHY, slow_ms: 500, slow_after: 1 },
      checks: 'ususus',
      flapping: true,
      flips: ['flapping:on'],
    },
    {
      name: 'does not count failures that never confirm',
      policy: { ...TWITCHY, confirm_after: 2 },
      checks: 'dudududududu',
      flapping: false,
      flips: [],
    },
    {
      name: 'is set when the 6 changes just fit in 20 checks',
      checks: `ududu${u(14)}d`,
      flapping: true,
      flips: ['flapping:on'],
    },
    {
      name: 'forgets changes older than the last 20 counted checks',
      checks: `ududu${u(15)}d`,
      flapping: false,
      flips: [],
    },
    {
      name: 'ignores not-counted checks in the window',
      checks: `ududu${'B'.repeat(15)}d`,
      flapping: true,
      flips: ['flapping:on'],
    },
    {
      name: 'stays set after 19 counted checks without a change',
      checks: `ududud${d(19)}`,
      flapping: true,
      flips: ['flapping:on'],
    },
    {
      name: 'clears after 20 counted checks without a change',
      checks: `ududud${d(20)}`,
      flapping: false,
      flips: ['flapping:on', 'flapping:off'],
    },
    {
      name: 'does not clear on not-counted checks',
      checks: `ududud${d(19)}${'b'.repeat(5)}`,
      flapping: true,
      flips: ['flapping:on'],
    },
    {
      name: 'restarts the quiet count on a change while flapping',
      checks: `ududud${d(10)}u${u(19)}`,
      flapping: true,
      flips: ['flapping:on'],
    },
    {
      name: 'is set again by 6 new changes after clearing',
      checks: `ududud${d(20)}ududud`,
      flapping: true,
      flips: ['flapping:on', 'flapping:off', 'flapping:on'],
    },
  ])('$name', ({ policy, checks, flapping, flips }) => {
    const out = run(checks, policy ?? TWITCHY);
    expect(out.state.flapping).toBe(flapping ? 1 : 0);
    expect(out.transitions.filter((t) => t.kind === 'flapping').map(label)).toEqual(flips);
  });

  it('reports flapping after the status transition of the same check', () => {
    const out = run('ududud', TWITCHY);
    expect(out.transitions.slice(-2)).toEqual([
      { kind: 'down', at: at(6), error: TIMEOUT, fails: 1, failingSince: at(6) },
      { kind: 'flapping', at: at(6), on: true },
    ]);
  });

  it('keeps opening and closing incidents while flapping (alerts collapse elsewhere)', () => {
    const out = run('ududud' + 'ud', TWITCHY);
    expect(out.state.flapping).toBe(1);
    expect(out.transitions.slice(-3).map(label)).toEqual(['up', 'failing', 'down']);
  });
});
