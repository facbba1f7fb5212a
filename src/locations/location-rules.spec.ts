import { ApiError } from '../common/http/api-error';
import { locationNameProblem, locationState, offlineAfterMs, parseLocationBody } from './location-rules';

describe('location names', () => {
  it.each([
    ['vps-frankfurt', null],
    ['Mum’s house', null],
    ['x'.repeat(40), null],
    ['x'.repeat(41), 'at most 40 characters'],
    ['', 'is needed'],
    ['local', 'is the service itself'],
    ['LOCAL', 'is the service itself'],
    [' padded', 'must not begin or end with spaces'],
    ['evil\u202Egpj', 'control characters'],
    [42, 'is needed'],
    [null, 'is needed'],
  ])('%j → %s', (name, problem) => {
    const got = locationNameProblem(name);
    if (problem === null) expect(got).toBeNull();
    else expect(got).toContain(problem);
  });
});

describe('the location body', () => {
  it('takes {name}', () => {
    expect(parseLocationBody({ name: 'vps' })).toEqual({ name: 'vps' });
  });

  it.each([
    [[], 'body'],
    [{ name: 'vps', token: 'x' }, 'token'],
    [{}, 'name'],
  ])('refuses %j on field %s', (body, field) => {
    let err: unknown;
    try {
      parseLocationBody(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).fields?.[0].field).toBe(field);
  });
});

describe('offline after', () => {
  it.each([
    [null, 60_000],
    [10, 60_000],
    [20, 60_000],
    [60, 180_000],
    [300, 900_000],
  ])('shortest interval %s s → %s ms', (interval, ms) => {
    expect(offlineAfterMs(interval)).toBe(ms);
  });

  it.each([
    [null, 1000, 'never'],
    [0, 59_999, 'online'],
    [0, 60_000, 'offline'],
  ] as const)('last seen %s, now %s → %s', (seen, now, state) => {
    expect(locationState(seen, 60_000, now)).toBe(state);
  });
});
