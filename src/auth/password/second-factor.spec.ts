import { ApiError } from '../../common/http/api-error';
import { acceptedTotpStep, secondFactorOf } from './second-factor';
import { newTotpSecret, totpAt } from './totp';

const NOW = Date.UTC(2026, 10, 1, 12, 0, 10);
const STEP = Math.floor(NOW / 30_000);
const secret = newTotpSecret();

describe('acceptedTotpStep', () => {
  it.each([
    ['the current code', 0, null, STEP],
    ['the previous step (a slow typist)', -1, null, STEP - 1],
    ['the next step (a fast clock)', 1, null, STEP + 1],
    ['a code from a minute ago', -2, null, null],
    ['a code from a minute ahead', 2, null, null],
    ['the current code once it was used', 0, STEP, null],
    ['the previous step after the current one was used', -1, STEP, null],
    ['the next step after the current one was used', 1, STEP, STEP + 1],
    ['the current code after the previous one was used', 0, STEP - 1, STEP],
  ])('%s', (_, offset, lastStep, expected) => {
    const code = totpAt(secret, NOW + offset * 30_000);
    // Another step can share the code by chance (1 in a million); compare with the code's own step then.
    const clash = [-1, 0, 1].some((d) => d !== offset && totpAt(secret, NOW + d * 30_000) === code);
    if (clash) return;
    expect(acceptedTotpStep(secret, code, NOW, lastStep)).toBe(expected);
  });

  it.each([['12345'], ['1234567'], ['12a456'], [''], [' 123456']])('refuses the malformed code %j', (code) => {
    expect(acceptedTotpStep(secret, code, NOW, null)).toBeNull();
  });

  it('refuses a code of another secret', () => {
    const other = newTotpSecret();
    const code = totpAt(other, NOW);
    if ([-1, 0, 1].some((d) => totpAt(secret, NOW + d * 30_000) === code)) return;
    expect(acceptedTotpStep(secret, code, NOW, null)).toBeNull();
  });
});

describe('secondFactorOf', () => {
  it.each([
    [{ code: '123456' }, { kind: 'code', code: '123456' }],
    [{ recovery_code: 'abcde-fghjk' }, { kind: 'recovery', code: 'abcde-fghjk' }],
  ])('reads %j', (body, factor) => {
    expect(secondFactorOf(body)).toEqual(factor);
  });

  it.each([
    ['neither', {}, 'code'],
    ['both', { code: '123456', recovery_code: 'abcde-fghjk' }, 'recovery_code'],
  ])('refuses %s with 422 on the field', (_, body, field) => {
    let error: unknown;
    try {
      secondFactorOf(body);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody().error).toMatchObject({ code: 'invalid', field });
  });
});
