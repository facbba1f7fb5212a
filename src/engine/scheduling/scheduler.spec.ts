/** The scheduler as a service, on jest's fake timers and clock: nothing sleeps. */
import type { Clock } from '../../common/clock';
import { BurstGauge, phaseDelay, realTimers, Scheduler, spreadOffset } from './scheduler';

const T0 = Date.UTC(2026, 10, 1);
const clock: Clock = { now: () => Date.now() };

/** A run() whose calls the test can see and finish. */
function jobs(intervalMs = 60_000) {
  const calls: { id: number; at: number }[] = [];
  const open = new Map<number, () => void>();
  return {
    calls,
    open,
    run: (id: number) =>
      new Promise<number | null>((resolve) => {
        calls.push({ id, at: Date.now() });
        open.set(id, () => {
          open.delete(id);
          resolve(intervalMs);
        });
      }),
    finish(id: number) {
      open.get(id)?.();
    },
  };
}

describe('Scheduler', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  it('runs each monitor when due, then again after the interval it answers, with one timer for all', async () => {
    const q: { id: number; at: number }[] = [];
    const s2 = new Scheduler({
      clock,
      timers: realTimers,
      concurrency: 256,
      run: async (id) => (q.push({ id, at: Date.now() }), 60_000),
    });
    for (let id = 1; id <= 100; id++) s2.at(id, T0 + id * 100);
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(q).toHaveLength(100);
    expect(q[0]).toEqual({ id: 1, at: T0 + 100 });
    expect(s2.dueOf(1)).toBe(T0 + 100 + 60_000);
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(q).toHaveLength(200);
    await s2.stop();
  });

  it('starts nothing while held, then each check as much later as it was held', async () => {
    const q: { id: number; at: number }[] = [];
    const s = new Scheduler({
      clock,
      timers: realTimers,
      concurrency: 256,
      run: async (id) => (q.push({ id, at: Date.now() }), 60_000),
    });
    s.hold();
    for (let id = 1; id <= 10; id++) s.at(id, T0 + id * 100);
    expect(jest.getTimerCount()).toBe(0);
    s.tick();
    await jest.advanceTimersByTimeAsync(500);
    expect(q).toEqual([]);
    s.release();
    expect(s.dueOf(1)).toBe(T0 + 600);
    await jest.advanceTimersByTimeAsync(99);
    expect(q).toEqual([]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(q).toEqual(Array.from({ length: 10 }, (_, i) => ({ id: i + 1, at: T0 + 500 + (i + 1) * 100 })));
    s.release();
    expect(jest.getTimerCount()).toBe(1);
    await s.stop();
  });

  it('never runs more than the concurrency limit at once, and starts a waiting check as soon as a slot frees', async () => {
    const j = jobs();
    const s = new Scheduler({ clock, timers: realTimers, concurrency: 2, run: (id) => j.run(id) });
    for (const id of [1, 2, 3, 4, 5]) s.at(id, T0 + id);
    await jest.advanceTimersByTimeAsync(5);
    expect(j.calls.map((c) => c.id)).toEqual([1, 2]);
    expect(s.inFlight).toBe(2);
    await jest.advanceTimersByTimeAsync(1_000);
    j.finish(1);
    await jest.advanceTimersByTimeAsync(0);
    expect(j.calls.map((c) => c.id)).toEqual([1, 2, 3]);
    // Monitor 3 was due at T0 + 3 and started at T0 + 1005: the lateness is recorded.
    expect(s.latenessStats().max).toBe(1_002);
    for (const id of [2, 3, 4, 5]) {
      j.finish(id);
      await jest.advanceTimersByTimeAsync(0);
    }
    expect(j.calls.map((c) => c.id)).toEqual([1, 2, 3, 4, 5]);
    await s.stop();
  });

  it('takes a new due time given while the check runs, and forgets a monitor removed meanwhile', async () => {
    const j = jobs(60_000);
    const s = new Scheduler({ clock, timers: realTimers, concurrency: 8, run: (id) => j.run(id) });
    s.at(1, T0);
    s.at(2, T0);
    await jest.advanceTimersByTimeAsync(0);
    s.at(1, T0 + 5_000);
    s.remove(2);
    j.finish(1);
    j.finish(2);
    await jest.advanceTimersByTimeAsync(0);
    expect(s.dueOf(1)).toBe(T0 + 5_000);
    expect(s.dueOf(2)).toBeUndefined();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(j.calls.map((c) => c.id)).toEqual([1, 2, 1]);
    j.finish(1);
    await s.stop();
  });

  it('reports a check that throws and tries that monitor again a minute later', async () => {
    const errors: number[] = [];
    const s = new Scheduler({
      clock,
      timers: realTimers,
      concurrency: 8,
      run: () => Promise.reject(new Error('bug')),
      onError: (id) => errors.push(id),
    });
    s.at(7, T0);
    await jest.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([7]);
    expect(s.dueOf(7)).toBe(T0 + 60_000);
    await s.stop();
  });

  it('stops: waits for running checks and starts none after', async () => {
    const j = jobs();
    const s = new Scheduler({ clock, timers: realTimers, concurrency: 8, run: (id) => j.run(id) });
    s.at(1, T0);
    s.at(2, T0 + 1_000);
    await jest.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    j.finish(1);
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(j.calls.map((c) => c.id)).toEqual([1]);
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('spreadOffset', () => {
  it.each([
    [1, 60_000],
    [2, 60_000],
    [999, 10_000],
    [123_456, 86_400_000],
  ])('puts monitor %i inside its interval of %i ms', (id, interval) => {
    const offset = spreadOffset(id, interval);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(interval);
  });

  it('spreads 1,000 monitors over the whole interval: no second of a minute holds more than three times its share', () => {
    const perSecond = new Map<number, number>();
    for (let id = 1; id <= 1000; id++) {
      const second = Math.floor(spreadOffset(id, 60_000) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(perSecond.size).toBe(60);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(3 * (1000 / 60));
  });
});

describe('phaseDelay', () => {
  const T = Date.UTC(2026, 10, 28, 12, 0, 0, 250);
  it.each([
    [1, 20_000, T],
    [2, 20_000, T + 7],
    [2_000, 60_000, T],
    [77, 10_000, T + 9_999],
    [123_456, 86_400_000, T],
  ])('monitor %i every %i ms: between half and one and a half intervals, on its own phase', (id, interval, now) => {
    const delay = phaseDelay(id, interval, now);
    expect(delay).toBeGreaterThanOrEqual(interval / 2);
    expect(delay).toBeLessThan(1.5 * interval);
    expect((now + delay) % interval).toBe(spreadOffset(id, interval));
  });

  it('spreads 2,000 monitors created in one bulk (checked together once) over the interval: no second holds more than twice its share', () => {
    const perSecond = new Map<number, number>();
    for (let id = 5_001; id <= 7_000; id++) {
      const second = Math.floor(((T + phaseDelay(id, 20_000, T)) % 20_000) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(perSecond.size).toBe(20);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(2 * (2000 / 20));
  });
});

describe('BurstGauge', () => {
  it.each<[string, number[], boolean[]]>([
    [
      'changes on their own keep their cadence',
      [0, 5_000, 10_000, 15_000, 20_000, 25_000],
      [false, false, false, false, false, false],
    ],
    [
      'the fifth and later in 2 s are a burst',
      [0, 0, 0, 0, 0, 1, 1_999],
      [false, false, false, false, true, true, true],
    ],
    [
      'a burst ends 2 s after its changes',
      [0, 0, 0, 0, 0, 2_000, 2_000, 2_000],
      [false, false, false, false, true, false, false, false],
    ],
    [
      'one every 500 ms: the fifth within 2 s is, the next after the first left the window is not',
      [0, 500, 1_000, 1_500, 1_999, 2_600],
      [false, false, false, false, true, false],
    ],
  ])('%s', (_, times, want) => {
    const g = new BurstGauge();
    expect(times.map((t) => g.note(t))).toEqual(want);
  });
});
