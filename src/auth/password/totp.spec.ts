import { newTotpSecret, totpAt, totpUri, verifyTotp } from './totp';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" in base32; the 6-digit codes are the
// last six digits of the RFC's 8-digit values.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('totpAt', () => {
  it.each<[number, string]>([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('gives the RFC 6238 code at %i s: %s', (seconds, code) => {
    expect(totpAt(RFC_SECRET, seconds * 1000)).toBe(code);
  });

  it('gives the same code throughout one 30 s step and a new one at the next', () => {
    const stepStart = 1_767_225_600_000;
    const code = totpAt(RFC_SECRET, stepStart);
    expect(totpAt(RFC_SECRET, stepStart + 29_999)).toBe(code);
    expect(totpAt(RFC_SECRET, stepStart + 30_000)).not.toBe(code);
  });
});

describe('verifyTotp', () => {
  const secret = newTotpSecret();
  // The middle of a 30 s step, so ±30 s lands inside the neighbouring steps.
  const now = 1_767_225_600_000 + 15_000;

  it.each<[string, number, boolean]>([
    ['now', 0, true],
    ['30 s ago', -30_000, true],
    ['30 s ahead', 30_000, true],
    ['60 s ago', -60_000, false],
    ['60 s ahead', 60_000, false],
    ['90 s ago', -90_000, false],
    ['90 s ahead', 90_000, false],
  ])('accepts the code from %s: %s', (_label, offsetMs, ok) => {
    const code = totpAt(secret, now + offsetMs);
    expect(verifyTotp(secret, code, now)).toBe(ok);
  });

  it('rejects the right code for another secret', () => {
    expect(verifyTotp(newTotpSecret(), totpAt(secret, now), now)).toBe(false);
  });

  it.each(['', '12345', '1234567', 'abcdef', '12345a', ' 123456', '123456 ', '123 456', '１２３４５６'])(
    'rejects %j, which is not 6 digits',
    (code) => {
      expect(verifyTotp(secret, code, now)).toBe(false);
    },
  );

  it('rejects a 6-digit code with a space appended even when the digits are right', () => {
    expect(verifyTotp(secret, `${totpAt(secret, now)} `, now)).toBe(false);
  });
});

describe('newTotpSecret and totpUri', () => {
  it('makes a base32 secret of 160 bits, different each time', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(a);
  });

  it('builds an otpauth URI naming Farsight as the issuer', () => {
    const uri = new URL(totpUri(RFC_SECRET, 'owner@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Farsight:owner@example.com');
    expect(uri.searchParams.get('secret')).toBe(RFC_SECRET);
    expect(uri.searchParams.get('issuer')).toBe('Farsight');
  });
});
