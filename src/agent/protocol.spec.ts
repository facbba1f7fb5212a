import { parseAck, parseAssignment, parseMonitor, ProtocolError } from './protocol';

const MONITOR = {
  id: 7,
  slug: 'nas',
  name: 'NAS',
  kind: 'tcp',
  interval_s: 60,
  timeout_s: 10,
  retry_interval_s: 20,
  config: { host: '10.0.0.5', port: 445, send: null, expect_banner: null, ip_version: 'auto' },
};

const ANSWER = {
  revision: 'r12',
  location: { id: 3, name: 'office' },
  server_time: '2026-11-28T22:00:00.000Z',
  monitors: [MONITOR],
};

describe('parseAssignment', () => {
  it('reads a config answer into the monitors the agent checks', () => {
    const a = parseAssignment(ANSWER);
    expect(a).toMatchObject({
      revision: 'r12',
      location: { id: 3, name: 'office' },
      serverTime: Date.parse('2026-11-28T22:00:00.000Z'),
      skipped: [],
    });
    expect(a.monitors).toEqual([
      {
        id: 7,
        slug: 'nas',
        name: 'NAS',
        kind: 'tcp',
        settings: MONITOR.config,
        interval_s: 60,
        retry_interval_s: 20,
        timeout_ms: 10_000,
        slow_ms: null,
        allow_private_targets: true,
      },
    ]);
  });

  it("takes the service's allow_private_targets for every monitor", () => {
    expect(parseAssignment({ ...ANSWER, allow_private_targets: false }).monitors[0].allow_private_targets).toBe(false);
  });

  it('takes a numeric revision as text, to send it back as it came', () => {
    expect(parseAssignment({ ...ANSWER, revision: 41 }).revision).toBe('41');
  });

  it.each([
    [null, 'not a JSON object'],
    [[], 'not a JSON object'],
    [{ ...ANSWER, revision: '' }, 'no revision'],
    [{ ...ANSWER, revision: { a: 1 } }, 'no revision'],
    [{ ...ANSWER, revision: 'r'.repeat(65) }, 'no revision'],
    [{ ...ANSWER, allow_private_targets: 'yes' }, 'a bad allow_private_targets'],
    [{ ...ANSWER, location: { id: 'x', name: 'a' } }, 'no location'],
    [{ ...ANSWER, location: null }, 'no location'],
    [{ ...ANSWER, monitors: 'all' }, 'monitors is not a list'],
    [{ ...ANSWER, monitors: new Array(100_001).fill(MONITOR) }, 'monitors is not a list'],
  ])('refuses %j whole: %s', (body, message) => {
    expect(() => parseAssignment(body)).toThrow(ProtocolError);
    expect(() => parseAssignment(body)).toThrow(message);
  });

  it('leaves out an entry that does not fit and keeps the others, naming why without values', () => {
    const a = parseAssignment({
      ...ANSWER,
      monitors: [MONITOR, { ...MONITOR, id: 8, kind: 'quantum' }, { ...MONITOR }, { ...MONITOR, id: 9, config: 'x' }],
    });
    expect(a.monitors.map((m) => m.id)).toEqual([7]);
    expect(a.skipped).toEqual([
      { id: 8, reason: 'a kind this agent does not know (update the agent to the service version)' },
      { id: 7, reason: 'listed twice' },
      { id: 9, reason: 'no config object' },
    ]);
  });
});

describe('parseMonitor', () => {
  it.each([
    [{ timeout_ms: 2_500 }, 'timeout_ms', 2_500],
    [{ slow_ms: 800 }, 'slow_ms', 800],
    [{ slow_ms: 0 }, 'slow_ms', null],
    [{ allow_private_targets: false }, 'allow_private_targets', false],
    [{ timeout_s: 0.5 }, 'timeout_ms', 500],
  ])('with %j has %s %j', (extra, key, value) => {
    const m = parseMonitor({ ...MONITOR, ...extra });
    expect(typeof m).toBe('object');
    expect((m as unknown as Record<string, unknown>)[key]).toEqual(value);
  });

  it.each([
    ['x', 'not an object'],
    [{ ...MONITOR, id: 0 }, 'no id'],
    [{ ...MONITOR, id: 1.5 }, 'no id'],
    [{ ...MONITOR, slug: 3 }, 'no slug or name'],
    [{ ...MONITOR, kind: 'heartbeat' }, 'heartbeat monitors are received by the service, not checked'],
    [{ ...MONITOR, interval_s: 0 }, 'no interval_s or retry_interval_s'],
    [{ ...MONITOR, retry_interval_s: '20' }, 'no interval_s or retry_interval_s'],
    [{ ...MONITOR, interval_s: 1e9 }, 'no interval_s or retry_interval_s'],
    [{ ...MONITOR, timeout_s: -1 }, 'no timeout_s'],
    [{ ...MONITOR, timeout_s: undefined }, 'no timeout_s'],
    [{ ...MONITOR, slow_ms: 'fast' }, 'a bad slow_ms'],
    [{ ...MONITOR, allow_private_targets: 'yes' }, 'a bad allow_private_targets'],
    [{ ...MONITOR, config: [1] }, 'no config object'],
  ])('leaves out %j: %s', (entry, reason) => {
    expect(parseMonitor(entry)).toBe(reason);
  });
});

describe('parseAck', () => {
  it.each([
    [{ acked_seq: 0 }, 0],
    [{ acked_seq: 1_764_000_000_000_123 }, 1_764_000_000_000_123],
  ])('%j acknowledges %d', (body, seq) => {
    expect(parseAck(body)).toEqual({ ackedSeq: seq, ignored: [] });
  });

  it('reads the items ignored with their reason, and skips what does not fit', () => {
    expect(
      parseAck({ acked_seq: 9, stored: 1, ignored: [{ seq: 8, reason: 'not assigned' }, { seq: 'x' }, null] }),
    ).toEqual({ ackedSeq: 9, ignored: [{ seq: 8, reason: 'not assigned' }] });
  });

  it.each([[null], [{}], [{ acked_seq: -1 }], [{ acked_seq: '5' }], [{ acked_seq: 1.5 }], [{ acked_seq: 2 ** 60 }]])(
    'refuses %j',
    (body) => {
      expect(() => parseAck(body)).toThrow(ProtocolError);
    },
  );
});
