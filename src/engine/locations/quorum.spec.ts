import { foldTrack, judgeQuorum, keptNote, LocationStatus, NEW_TRACK, Vote } from './quorum';

const v = (spec: string): Vote[] =>
  // "up", "down", "unknown", with a trailing "-" for offline: "down down- up"
  spec.split(' ').map((w, i) => ({
    name: `l${i}`,
    online: !w.endsWith('-'),
    status: w.replace('-', '') as LocationStatus,
  }));

describe('the quorum rule', () => {
  it.each<[string, string, number | null, 'up' | 'down' | null, string | null]>([
    ['2 of 3 down, quorum 2', 'down down up', 2, 'down', null],
    ['1 of 3 down, quorum 2', 'down up up', 2, 'up', null],
    ['2 of 3 down, majority', 'down down up', null, 'down', null],
    ['majority with one offline: 1 down 1 up of 2 online', 'down up down-', null, null, null],
    ['majority with one offline: both online down', 'down down up-', null, 'down', null],
    ['majority with one offline: both online up', 'up up down-', null, 'up', null],
    ['a single location down', 'down', null, 'down', null],
    ['a single location up', 'up', null, 'up', null],
    ['local plus one agent, majority: both must agree on down', 'down up', null, null, null],
    ['local plus one agent, both down', 'down down', null, 'down', null],
    ['local plus one agent, quorum 1: one down is enough', 'up down', 1, 'down', null],
    ['local plus an offline agent, majority of the one online', 'down down-', null, 'down', null],
    [
      'quorum 2 with only one online keeps the state',
      'down down-',
      2,
      null,
      'only 1 of 2 locations online (offline: l1), and 2 must agree',
    ],
    ['no location online keeps the state', 'down- up-', null, null, 'only 0 of 2 locations online'],
    ['a location that has not judged yet counts for neither side', 'down unknown up', 2, null, null],
  ])('%s', (_, spec, quorum, status, reason) => {
    const got = judgeQuorum(v(spec), quorum);
    expect(got.status).toBe(status);
    if (reason === null) expect(got.reason).toBeNull();
    else expect(got.reason).toContain(reason);
  });
});

describe("a location's own track", () => {
  const policy = { confirm_after: 2, recover_after: 2 };
  const run = (outcomes: ('up' | 'down' | 'unknown')[]) =>
    outcomes.reduce(
      (t, outcome, i) =>
        foldTrack(
          t,
          { outcome, at: i, latency_ms: 5, error: outcome === 'down' ? { code: 'timeout', message: 't' } : null },
          policy,
        ),
      NEW_TRACK,
    ).status;

  it.each<[string, ('up' | 'down' | 'unknown')[], LocationStatus]>([
    ['a first good check is up at once', ['up'], 'up'],
    ['one failure is not down yet', ['up', 'down'], 'up'],
    ['confirm_after failures in a row are down', ['up', 'down', 'down'], 'down'],
    ['an unknown outcome breaks nothing', ['down', 'unknown', 'down'], 'down'],
    ['one good check while down is not up yet', ['down', 'down', 'up'], 'down'],
    ['recover_after good checks are up again', ['down', 'down', 'up', 'up'], 'up'],
    ['a failure between good checks starts the recovery again', ['down', 'down', 'up', 'down', 'up'], 'down'],
  ])('%s', (_, outcomes, status) => {
    expect(run(outcomes)).toBe(status);
  });
});

describe('the note of a monitor that keeps its state', () => {
  it.each([
    [
      'too few online: the rule says why',
      { status: null, reason: 'kept: only 1 of 3 locations online, and 2 must agree', needed: 2 },
      'kept: only 1 of 3 locations online, and 2 must agree',
    ],
    [
      'one vote needed and none given: no location has judged yet',
      { status: null, reason: null, needed: 1 },
      'kept: no location online has judged it yet',
    ],
    [
      'two needed, split or not judged yet',
      { status: null, reason: null, needed: 2 },
      'kept: the locations online do not agree yet (2 must agree)',
    ],
  ] as const)('%s', (_, verdict, note) => {
    expect(keptNote(verdict)).toBe(note);
  });
});
