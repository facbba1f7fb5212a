import { counterMayFollow, PasskeyRefused, refusalOf } from './webauthn';

describe('refusalOf', () => {
  it.each([
    ['Unexpected authentication response origin "http://evil.test", expected "http://farsight.test"', 'origin'],
    ['Unexpected registration response origin "http://evil.test", expected "http://farsight.test"', 'origin'],
    ['Unexpected RP ID hash', 'rp_id'],
    ['User verification required, but user could not be verified', 'user_verification'],
    ['User verification was required, but user could not be verified', 'user_verification'],
    ['User not present during authentication', 'user_presence'],
    ['User presence was required, but user was not present', 'user_presence'],
    ['Response counter value 3 was lower than expected 5', 'counter'],
    ['Unexpected authentication response challenge "a", expected "b"', 'challenge'],
    ['Authenticator data was 12 bytes, expected at least 37 bytes', 'format'],
    ['Unexpected authentication response type: webauthn.create', 'format'],
  ])('files %j under %s', (message, reason) => {
    expect(refusalOf(message)).toBe(reason);
  });
});

describe('counterMayFollow', () => {
  it.each<[number, number, boolean]>([
    [0, 0, true], // the authenticator does not count
    [0, 1, true],
    [5, 6, true],
    [5, 5, false], // a repeat: cloned, or replayed
    [5, 4, false], // went backwards
    [5, 0, false], // stopped counting: a clone made from an older state
  ])('stored %i, presented %i: %s', (stored, next, ok) => {
    expect(counterMayFollow(stored, next)).toBe(ok);
  });
});

describe('PasskeyRefused', () => {
  it('says the reason in words and keeps the library detail for the log', () => {
    const e = new PasskeyRefused('rp_id', 'Unexpected RP ID hash');
    expect(e.message).toMatch(/another site/);
    expect(e.detail).toBe('Unexpected RP ID hash');
  });
});
