import { admit, Admission, GateCounts, GateFull, GateLimits, nextToStart, WorkGate } from './work-gate';

const LIMITS: GateLimits = { perKey: 1, total: 2, queuedPerKey: 2, queued: 4 };
const counts = (over: Partial<GateCounts>): GateCounts => ({
  running: 0,
  runningOfKey: 0,
  waiting: 0,
  waitingOfKey: 0,
  ...over,
});

describe('admit', () => {
  it.each<[string, Partial<GateCounts>, Admission]>([
    ['an idle gate runs it', {}, 'run'],
    ['another key running: runs beside it', { running: 1 }, 'run'],
    ['its key running: waits', { running: 1, runningOfKey: 1 }, 'wait'],
    ['the total running: waits', { running: 2 }, 'wait'],
    ["another key's work waiting (held by its key): runs while the total allows", { running: 1, waiting: 2 }, 'run'],
    ['its key with one waiting: waits second', { running: 1, runningOfKey: 1, waiting: 1, waitingOfKey: 1 }, 'wait'],
    [
      'its key with as many waiting as it may: refused for the key',
      { running: 1, runningOfKey: 1, waiting: 2, waitingOfKey: 2 },
      'refuse_key',
    ],
    ['the queue full of others: refused for the total', { running: 2, waiting: 4 }, 'refuse_total'],
    [
      'the queue full and its key full: the key is named',
      { running: 2, runningOfKey: 1, waiting: 4, waitingOfKey: 2 },
      'refuse_key',
    ],
  ])('%s', (_, c, want) => expect(admit(counts(c), LIMITS)).toBe(want));
});

describe('nextToStart', () => {
  it.each<[string, string[], [string, number][], number, number]>([
    ['nothing waits', [], [], 0, -1],
    ['the first in line', ['a', 'b'], [], 0, 0],
    [
      'the total is reached',
      ['a', 'b'],
      [
        ['c', 1],
        ['d', 1],
      ],
      2,
      -1,
    ],
    ['a key at its limit is passed over', ['a', 'a', 'b'], [['a', 1]], 1, 2],
    [
      'every waiting key at its limit',
      ['a', 'b'],
      [
        ['a', 1],
        ['b', 1],
      ],
      1,
      -1,
    ],
  ])('%s', (_, waiting, running, total, want) =>
    expect(nextToStart(waiting, new Map(running), total, { ...LIMITS, total: 2 })).toBe(want),
  );
});

describe('WorkGate', () => {
  /** Work that ends when the test says, and records when it started. */
  function harness() {
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const work = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        finish.set(name, () => resolve(name));
      });
    const settle = () => new Promise((r) => setImmediate(r));
    return {
      started,
      finish: async (name: string) => {
        finish.get(name)?.();
        await settle();
      },
      work,
      settle,
    };
  }

  it('runs one piece per key and two in all, then starts waiting work first come first served', async () => {
    const gate = new WorkGate(LIMITS);
    const h = harness();
    const results = [
      gate.run('a', h.work('a1')),
      gate.run('a', h.work('a2')),
      gate.run('b', h.work('b1')),
      gate.run('c', h.work('c1')),
    ];
    await h.settle();
    expect(h.started).toEqual(['a1', 'b1']);
    expect(gate.load()).toEqual({ running: 2, waiting: 2 });
    await h.finish('b1');
    // a2 is first in line but its key is busy: c1 goes.
    expect(h.started).toEqual(['a1', 'b1', 'c1']);
    await h.finish('a1');
    expect(h.started).toEqual(['a1', 'b1', 'c1', 'a2']);
    await h.finish('c1');
    await h.finish('a2');
    await expect(Promise.all(results)).resolves.toEqual(['a1', 'a2', 'b1', 'c1']);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once, without running it, what is past the queue of its key or of all', async () => {
    const gate = new WorkGate(LIMITS);
    const h = harness();
    const kept = [gate.run('a', h.work('a1')), gate.run('a', h.work('a2')), gate.run('a', h.work('a3'))];
    await expect(gate.run('a', h.work('a4'))).rejects.toEqual(new GateFull('key'));
    kept.push(gate.run('b', h.work('b1')), gate.run('b', h.work('b2')), gate.run('c', h.work('c1')));
    await expect(gate.run('d', h.work('d1'))).rejects.toEqual(new GateFull('total'));
    await h.settle();
    expect(h.started).toEqual(['a1', 'b1']);
    for (const name of ['a1', 'b1', 'a2', 'b2', 'c1', 'a3']) await h.finish(name);
    await expect(Promise.all(kept)).resolves.toHaveLength(6);
    expect(h.started).not.toContain('a4');
    expect(h.started).not.toContain('d1');
  });

  it('passes a failure through and frees the slot', async () => {
    const gate = new WorkGate(LIMITS);
    await expect(gate.run('a', () => Promise.reject(new Error('bad hash')))).rejects.toThrow('bad hash');
    await expect(
      gate.run('a', () => {
        throw new Error('thrown');
      }),
    ).rejects.toThrow('thrown');
    await expect(gate.run('a', async () => 'ok')).resolves.toBe('ok');
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });
});
