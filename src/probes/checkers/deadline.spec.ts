import { Deadline, withDeadline } from './deadline';

describe('withDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A probe that settles when the test says, and counts what its deadline released. */
  function probeUnderTest() {
    const released: string[] = [];
    let settle!: (v: string) => void;
    let fail!: (e: Error) => void;
    let deadline!: Deadline;
    const probe = (d: Deadline) => {
      deadline = d;
      d.onExpire(() => released.push('socket'));
      d.onExpire(() => released.push('child'));
      return new Promise<string>((resolve, reject) => {
        settle = resolve;
        fail = reject;
      });
    };
    return { probe, released, settle: (v: string) => settle(v), fail: (e: Error) => fail(e), deadline: () => deadline };
  }

  it('answers with the probe when it settles in time, releasing nothing', async () => {
    const p = probeUnderTest();
    const answer = withDeadline(1000, p.probe, () => 'timeout');
    jest.advanceTimersByTime(999);
    p.settle('ok');
    await expect(answer).resolves.toBe('ok');
    jest.advanceTimersByTime(5000);
    expect(p.released).toEqual([]);
    expect(p.deadline().expired).toBe(false);
  });

  it('answers with onTimeout at the deadline, after releasing everything once, and ignores the probe after', async () => {
    const p = probeUnderTest();
    const answer = withDeadline(1000, p.probe, () => 'timeout');
    jest.advanceTimersByTime(1000);
    expect(p.released).toEqual(['socket', 'child']);
    expect(p.deadline().expired).toBe(true);
    p.settle('late');
    await expect(answer).resolves.toBe('timeout');
    // A release asked for after the deadline runs at once.
    p.deadline().onExpire(() => p.released.push('late hop'));
    expect(p.released).toEqual(['socket', 'child', 'late hop']);
  });

  it('passes a failure of the probe on, and ignores one after the deadline', async () => {
    const early = probeUnderTest();
    const failed = withDeadline(1000, early.probe, () => 'timeout');
    early.fail(new Error('boom'));
    await expect(failed).rejects.toThrow('boom');

    const late = probeUnderTest();
    const timedOut = withDeadline(1000, late.probe, () => 'timeout');
    jest.advanceTimersByTime(1000);
    late.fail(new Error('socket destroyed'));
    await expect(timedOut).resolves.toBe('timeout');
  });
});
