import { FakeClock } from '../common/clock';
import { NO_PHASES, type CheckResult, type Outcome } from '../probes/check-result';
import { silentLog } from './agent-log';
import { Uplink } from './uplink';

const CANARIES = [
  { host: '192.168.1.1', port: 53 },
  { host: '1.1.1.1', port: 443 },
];

const result = (outcome: Outcome, at: number): CheckResult => ({
  at_ms: at,
  outcome,
  latency_ms: null,
  phases: NO_PHASES,
  status: null,
  error: null,
  cert: null,
  detail: null,
});

describe('Uplink', () => {
  let clock: FakeClock;
  let answers: boolean[];
  let probes: number;
  let uplink: Uplink;
  beforeEach(() => {
    clock = new FakeClock();
    answers = [true, true];
    probes = 0;
    uplink = new Uplink(CANARIES, clock, silentLog, async () => {
      probes += 1;
      return answers;
    });
  });

  it.each([
    ['up', [true, true], false],
    ['down', [true, true], false],
    ['down', [false, false], true],
    ['up', [false, false], false],
    ['down', [false, true], false],
  ])('a %s result with canaries %j after they had answered is blind: %s', async (outcome, now, blind) => {
    await uplink.probe();
    clock.advance(20_000);
    answers = now;
    expect(await uplink.judge(result(outcome as Outcome, clock.now() - 5_000))).toBe(blind);
  });

  it('is never blind when no canary has ever answered (a box without internet)', async () => {
    answers = [false, false];
    await uplink.probe();
    expect(await uplink.judge(result('down', clock.now()))).toBe(false);
  });

  it('probes before judging a failure on answers older than its check, not when they are fresh', async () => {
    await uplink.probe();
    clock.advance(1_000);
    // The check started before the last answers: they speak of the network it ran on.
    await uplink.judge(result('down', clock.now() - 2_000));
    expect(probes).toBe(1);
    // It started after them: they say nothing about it.
    await uplink.judge(result('down', clock.now() - 500));
    expect(probes).toBe(2);
  });

  it('marks a failure whose check started before the blind period ended', async () => {
    await uplink.probe();
    answers = [false, false];
    clock.advance(20_000);
    await uplink.probe();
    expect(uplink.blind).toBe(true);
    const started = clock.now() + 1_000;
    answers = [true, false];
    clock.advance(3_000);
    await uplink.probe();
    expect(uplink.blind).toBe(false);
    expect(await uplink.judge(result('down', started))).toBe(true);
  });

  it.each([
    ['a success', 'up', -2_000, false, false],
    ['a failure on fresh answers', 'down', -2_000, false, false],
    ['a failure on fresh answers while blind', 'down', -2_000, true, true],
    ['a failure that started after the last answers', 'down', -500, false, null],
  ])('judges %s at once (null: a probe must come first): %s', async (_what, outcome, startedAgo, blind, verdict) => {
    if (blind) answers = [true, true];
    await uplink.probe();
    if (blind) {
      answers = [false, false];
      await uplink.probe();
    }
    clock.advance(1_000);
    const before = probes;
    expect(uplink.judgeAtOnce(result(outcome as Outcome, clock.now() + startedAgo))).toBe(verdict);
    // Deciding at once never probes; only judge() does, for the nulls.
    expect(probes).toBe(before);
  });

  it('with FARSIGHT_CANARIES=off never probes and counts every result', async () => {
    const off = new Uplink([], clock, silentLog, async () => {
      probes += 1;
      return [];
    });
    expect(await off.judge(result('down', clock.now()))).toBe(false);
    expect(off.judgeAtOnce(result('down', clock.now()))).toBe(false);
    expect(probes).toBe(0);
  });
});
