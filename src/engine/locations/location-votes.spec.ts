import type { MonitorConfig } from '../../probes/monitor-config';
import type { TrackResultRow } from '../../catalog/location-results.table';
import { OUTCOME_CODE } from '../../history/check-row';
import { CHECK_ERROR_CODES } from '../../probes/check-result';
import type { LiveMonitor } from '../live/live-monitor';
import { initialMachineState, machineInput, Policy } from '../state-machine';
import { LocationVotes } from './location-votes';

const config = (over: Partial<MonitorConfig> = {}) =>
  ({ locations: ['local', 'vps', 'edge'], quorum: null, confirm_after: 2, recover_after: 2, ...over }) as MonitorConfig;

/** Stored results of one location, oldest first: "up down down" (an `n` marks one stored as history only, filtered by the read). */
const rows = (monitorId: number, name: string, outcomes: string): TrackResultRow[] =>
  outcomes.split(' ').map((o, i) => ({
    monitor_id: monitorId,
    name,
    at: 1000 + i * 10,
    outcome: OUTCOME_CODE[o as 'up' | 'down' | 'unknown'],
    latency: 10 + i,
    error: o === 'down' ? 2 : null,
    info: o === 'down' ? JSON.stringify({ m: `failed at ${i}` }) : null,
  }));

describe("a location's track rebuilt at start from its stored results", () => {
  it.each<[string, string, 'up' | 'down' | 'unknown']>([
    ['a good last result is up', 'down down up up', 'up'],
    ['confirm_after failures in a row are down', 'up down down', 'down'],
    ['one failure is not down yet', 'up up down', 'up'],
    ['down with a recovery under way is still down', 'down down up', 'down'],
    ['an unknown outcome moves nothing', 'down down unknown', 'down'],
  ])('%s', (_, outcomes, status) => {
    const votes = new LocationVotes();
    votes.setOnlineCheck(() => true);
    // Handed unordered: the read has no ORDER BY.
    votes.restore(rows(1, 'vps', outcomes).reverse(), () => config());
    const vps = votes.answer(1, config())!.find((l) => l.name === 'vps')!;
    expect(vps.status).toBe(status);
    // Latency and error are the last counted result's (an unknown one keeps them).
    const list = outcomes.split(' ');
    const last = list.lastIndexOf(list.filter((o) => o !== 'unknown').pop()!);
    expect(vps.latency_ms).toBe(10 + last);
    expect(vps.error).toEqual(
      list[last] === 'down' ? { code: CHECK_ERROR_CODES[1], message: `failed at ${last}` } : null,
    );
  });

  it('counts a result read twice once, and one stored as history only not at all', () => {
    const votes = new LocationVotes();
    votes.setOnlineCheck(() => true);
    const [first] = rows(1, 'local', 'down');
    const noted = { ...first, at: 2000, info: JSON.stringify({ m: 'x', n: 'not counted: the service was blind' }) };
    // confirm_after 2: two failures would make it Down; the copy and the blind one are not failures.
    votes.restore([first, { ...first }, noted], () => config());
    const local = votes.answer(1, config())!.find((l) => l.name === 'local')!;
    expect(local.status).toBe('unknown');
    expect(local.at).toBe(new Date(first.at).toISOString());
  });

  it('skips a monitor gone or checked from local alone now, and a location the monitor no longer lists', () => {
    const votes = new LocationVotes();
    votes.setOnlineCheck(() => true);
    const configs = new Map<number, MonitorConfig>([
      [1, config({ locations: ['local'] })],
      [2, config({ locations: ['local', 'edge'] })],
    ]);
    votes.restore([...rows(1, 'vps', 'down down'), ...rows(2, 'vps', 'down down'), ...rows(3, 'vps', 'up')], (id) =>
      configs.get(id),
    );
    expect(votes.answer(1, configs.get(1)!)).toBeNull();
    expect(votes.answer(2, configs.get(2)!)!.map((l) => l.status)).toEqual(['unknown', 'unknown']);
  });

  it('a rebuilt quorum is met again without fresh results: the next local result is judged with it', () => {
    const votes = new LocationVotes();
    votes.setOnlineCheck(() => true);
    const c = config({ locations: ['local', 'vps'], confirm_after: 1, recover_after: 1 });
    votes.restore(rows(7, 'vps', 'down'), () => c);
    const m: LiveMonitor = {
      id: 7,
      config: c,
      state: { ...initialMachineState(0, false), status: 'up' },
      certWarned: null,
      downAlerted: null,
      incidentId: null,
      cause: null,
      heldDown: false,
    };
    const policy: Policy = { confirm_after: 1, recover_after: 1, slow_after: 1, slow_ms: null, paused: false };
    const failed = {
      at_ms: 2000,
      outcome: 'down' as const,
      latency_ms: 5,
      phases: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null },
      status: null,
      error: { code: 'refused' as const, message: 'refused' },
      cert: null,
      detail: null,
    };
    const s = votes.local(m, machineInput(failed, 2000, true, null), policy);
    expect(s.state.status).toBe('down');
  });
});

describe('what a result changes of its location’s row', () => {
  const c = config({ locations: ['local', 'vps'], confirm_after: 1, recover_after: 1 });
  const m: LiveMonitor = {
    id: 9,
    config: c,
    state: initialMachineState(0, false),
    certWarned: null,
    downAlerted: null,
    incidentId: null,
    cause: null,
    heldDown: false,
  };
  const policy: Policy = { confirm_after: 1, recover_after: 1, slow_after: 1, slow_ms: null, paused: false };
  const input = (at: number, outcome: 'up' | 'down', latency: number, counted = true) => ({
    at_ms: at,
    outcome,
    latency_ms: latency,
    error: outcome === 'down' ? { code: 'timeout' as const, message: 't' } : null,
    cert: null,
    counted,
  });

  it.each<[string, ReturnType<typeof input>[], boolean]>([
    ['a first view is shown', [input(1, 'up', 40)], true],
    ['the same status and latency again: nothing shown changed', [input(1, 'up', 40), input(2, 'up', 40)], false],
    ['another latency is shown', [input(1, 'up', 40), input(2, 'up', 41)], true],
    ['a new status is shown', [input(1, 'up', 40), input(2, 'down', 40)], true],
    ['a result that does not count changes nothing shown', [input(1, 'up', 40), input(2, 'down', 90, false)], false],
    ['an out-of-order result changes nothing shown', [input(5, 'up', 40), input(2, 'down', 90)], false],
  ])('%s', (_, inputs, shown) => {
    const votes = new LocationVotes();
    votes.setOnlineCheck(() => true);
    const last = inputs.map((i) => votes.step({ ...m, state: initialMachineState(0, false) }, 'vps', i, policy)).pop()!;
    expect(last.shown).toBe(shown);
  });

  it('a monitor checked from local alone says nothing of rows (its answer is its own state)', () => {
    const votes = new LocationVotes();
    const alone = { ...m, config: config({ locations: ['local'] }) };
    expect(votes.local(alone, input(1, 'up', 40), policy).shown).toBeUndefined();
  });
});
