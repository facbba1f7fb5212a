import type { CheckRow } from '../../history/check-row';
import type { StoredStateRow } from '../../catalog/monitor-state.table';
import { catchUp, durableChange, engineBlob, fromStoredState, LiveMonitor, toMonitorState } from './live-monitor';
import { initialMachineState, MachineState, Policy } from '../state-machine';

const T0 = Date.UTC(2026, 10, 1);
const up: MachineState = {
  ...initialMachineState(T0, false),
  status: 'up',
  last_check_at: T0,
  last_ok_at: T0,
  latency_ms: 20,
  history: '0000',
};
const row = (at: number, outcome: number, latency: number | null, info: string | null = null): CheckRow => ({
  monitor_id: 1,
  at,
  outcome,
  latency,
  dns: null,
  conn: null,
  tls: null,
  ttfb: null,
  status: null,
  error: null,
  info,
});

describe('durableChange', () => {
  it.each<[string, Partial<MachineState>, boolean]>([
    [
      'only the last check moved',
      { last_check_at: T0 + 60_000, last_ok_at: T0 + 60_000, latency_ms: 25, history: '00000' },
      false,
    ],
    ['a slow run or a recovery count grew', { slowRun: 2, good: 1 }, false],
    ['the status', { status: 'down' }, true],
    ['since', { since: T0 + 1 }, true],
    ['the failing count', { failing: 1 }, true],
    ['the start of a failure run', { failingSince: T0 }, true],
    ['flapping', { flapping: 1 }, true],
    ['the error', { error_code: 'timeout', error_message: 'timed out' }, true],
    ['the certificate expiry', { cert_expires_at: T0 + 86_400_000 }, true],
    ['the note', { note: 'not counted: the service was blind' }, true],
  ])('%s: %s', (_name, change, expected) => {
    expect(durableChange(up, { ...up, ...change })).toBe(expected);
  });
});

describe('catchUp', () => {
  const policy: Policy = { confirm_after: 3, recover_after: 2, slow_after: 3, slow_ms: 500, paused: false };
  it.each<[string, CheckRow[], Partial<MachineState>]>([
    ['no rows', [], { last_check_at: T0, last_ok_at: T0, latency_ms: 20, history: '0000' }],
    [
      'good rows move the last check, the last good check, the latency and the flapping window',
      [row(T0 + 60_000, 0, 30), row(T0 + 120_000, 0, 40)],
      { last_check_at: T0 + 120_000, last_ok_at: T0 + 120_000, latency_ms: 40, history: '000000' },
    ],
    [
      'a slow answer counts toward slow_after',
      [row(T0 + 60_000, 1, 900)],
      { slowRun: 1, status: 'up', latency_ms: 900 },
    ],
    [
      'rows the state already saw are skipped',
      [row(T0 - 60_000, 0, 99), row(T0, 0, 98)],
      { last_check_at: T0, last_ok_at: T0, latency_ms: 20, history: '0000' },
    ],
    // A failure changes the failing count, which was written with it: a row that would change it
    // again was never the row the state was written after (the configuration changed): stop there.
    [
      'it stops before a step that changes what is written at once',
      [row(T0 + 60_000, 0, 30), row(T0 + 120_000, 2, 5), row(T0 + 180_000, 0, 31)],
      { last_check_at: T0 + 60_000, latency_ms: 30, failing: 0, history: '00000' },
    ],
  ])('%s', (_name, rows, expected) => {
    expect(catchUp(up, rows, policy)).toMatchObject(expected);
  });

  it('moves only the last check for a row that was not counted, like the one the state was written with', () => {
    const blind: MachineState = { ...up, note: 'not counted: blind' };
    expect(catchUp(blind, [row(T0 + 60_000, 2, null, '{"n":"not counted: blind"}')], policy)).toMatchObject({
      last_check_at: T0 + 60_000,
      last_ok_at: T0,
      latency_ms: 20,
      history: '0000',
      note: 'not counted: blind',
    });
  });

  it('leaves a paused monitor alone', () => {
    const paused: MachineState = { ...up, status: 'paused' };
    expect(catchUp(paused, [row(T0 + 60_000, 0, 1)], policy)).toBe(paused);
  });
});

describe('the engine blob', () => {
  const stored = (m: LiveMonitor): StoredStateRow => ({ ...toMonitorState(m), engine: engineBlob(m) });
  const live = (downAlerted: number | null): LiveMonitor => ({
    id: 1,
    config: {} as LiveMonitor['config'],
    state: up,
    incidentId: 7,
    certWarned: null,
    downAlerted,
  });

  it.each([[7], [null]])('keeps which incident’s down alert went out (%s) across a restart', (downAlerted) => {
    expect(fromStoredState(stored(live(downAlerted))).downAlerted).toBe(downAlerted);
  });

  it('says it does not know for a blob stored before it was kept', () => {
    expect(
      fromStoredState({ ...toMonitorState(live(7)), engine: '{"good":0,"slowRun":0,"history":"","failingSince":null}' })
        .downAlerted,
    ).toBeUndefined();
  });
});
