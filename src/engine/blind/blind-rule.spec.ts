import { blindVerdict, BlindVerdict, CanaryAnswer } from './blind-rule';

const probe = (text: string): CanaryAnswer[] =>
  text
    .split(' ')
    .filter(Boolean)
    .map((p) => ({ key: p.slice(0, -1), ok: p.endsWith('+') }));

describe('blindVerdict', () => {
  // Probe notation: `a+` answered, `a-` failed.
  it.each<[string, string[], string, Omit<BlindVerdict, 'everAnswered'> & { ever: string[] }]>([
    [
      'nothing has ever answered and nothing answers: not blind, detection unavailable',
      [],
      'a- b-',
      { ever: [], blind: false, detection: 'unavailable', lost: [] },
    ],
    ['a canary answers for the first time', [], 'a+ b-', { ever: ['a'], blind: false, detection: 'ok', lost: [] }],
    [
      'the only canary that ever answered fails: blind',
      ['a'],
      'a- b-',
      { ever: ['a'], blind: true, detection: 'ok', lost: ['a'] },
    ],
    [
      'one of two that answered still answers: not blind',
      ['a', 'b'],
      'a- b+',
      { ever: ['a', 'b'], blind: false, detection: 'ok', lost: ['a'] },
    ],
    [
      'both that answered fail: blind',
      ['a', 'b'],
      'a- b- c-',
      { ever: ['a', 'b'], blind: true, detection: 'ok', lost: ['a', 'b'] },
    ],
    [
      'a never-seen canary answering ends blindness',
      ['a'],
      'a- b+',
      { ever: ['a', 'b'], blind: false, detection: 'ok', lost: ['a'] },
    ],
    ['a canary that answered comes back', ['a'], 'a+ b-', { ever: ['a'], blind: false, detection: 'ok', lost: [] }],
    [
      'an answered canary no longer probed does not count',
      ['gone'],
      'a- b-',
      { ever: ['gone'], blind: false, detection: 'unavailable', lost: [] },
    ],
    ['no canaries at all: never blind', ['a'], '', { ever: ['a'], blind: false, detection: 'unavailable', lost: [] }],
  ])('%s', (_, ever, now, want) => {
    const v = blindVerdict(new Set(ever), probe(now));
    expect({ ever: [...v.everAnswered].sort(), blind: v.blind, detection: v.detection, lost: v.lost }).toEqual(want);
  });
});
