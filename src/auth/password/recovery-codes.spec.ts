import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';

describe('newRecoveryCodes', () => {
  it('makes 10 different codes of shape xxxxx-xxxxx', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(RECOVERY_CODE_COUNT).toBe(10);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  });

  it('never uses look-alike characters (i, l, o, 0, 1) across many sets', () => {
    const text = Array.from({ length: 50 }, () => newRecoveryCodes().join('')).join('');
    expect(text).not.toMatch(/[ilo01]/);
  });

  it('gives a new set each time', () => {
    const first = new Set(newRecoveryCodes());
    expect(newRecoveryCodes().some((code) => first.has(code))).toBe(false);
  });

  it('comes back unchanged through normalizeRecoveryCode', () => {
    for (const code of newRecoveryCodes()) expect(normalizeRecoveryCode(code)).toBe(code);
  });
});

describe('normalizeRecoveryCode', () => {
  it.each<[string, string]>([
    ['abcde-fghjk', 'abcde-fghjk'],
    ['ABCDE-FGHJK', 'abcde-fghjk'],
    ['abcdefghjk', 'abcde-fghjk'],
    ['  abcde-fghjk\n', 'abcde-fghjk'],
    ['abcde fghjk', 'abcde-fghjk'],
    ['ab cde-fg hjk', 'abcde-fghjk'],
    ['abcde--fghjk', 'abcde-fghjk'],
    ['a-b-c-d-e-f-g-h-j-k', 'abcde-fghjk'],
    ['abcd-efgh', 'abcdefgh'],
    ['abcdefghjkm', 'abcdefghjkm'],
    ['', ''],
  ])('turns %j into %j', (input, normalized) => {
    expect(normalizeRecoveryCode(input)).toBe(normalized);
  });
});

describe('hashRecoveryCode', () => {
  it.each(['abcde-fghjk', 'ABCDE-FGHJK', 'abcdefghjk', ' abcde fghjk ', 'AbCdE FgHjK'])(
    'hashes %j like its canonical form',
    (input) => {
      expect(hashRecoveryCode(input)).toBe(hashRecoveryCode('abcde-fghjk'));
    },
  );

  it.each(['abcde-fghjm', 'fghjk-abcde', 'abcde-fghj'])('hashes %j differently from abcde-fghjk', (input) => {
    expect(hashRecoveryCode(input)).not.toBe(hashRecoveryCode('abcde-fghjk'));
  });

  it('stores a SHA-256 hex digest, not the code', () => {
    const hash = hashRecoveryCode('abcde-fghjk');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('abcde');
  });
});
