/**
 * Recovery codes: 10 per set, shape `xxxxx-xxxxx` from an alphabet without look-alike characters
 * (about 50 bits each). Only hashes are stored; input is compared case-insensitively, dash optional.
 */
import { randomInt } from 'node:crypto';
import { sha256 } from '../../common/access/tokens';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let s = '';
    for (let i = 0; i < 10; i++) s += ALPHABET[randomInt(ALPHABET.length)];
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

export function normalizeRecoveryCode(input: string): string {
  const compact = input.trim().toLowerCase().replace(/[\s-]/g, '');
  return compact.length === 10 ? `${compact.slice(0, 5)}-${compact.slice(5)}` : compact;
}

export function hashRecoveryCode(code: string): string {
  return sha256(`recovery:${normalizeRecoveryCode(code)}`);
}
