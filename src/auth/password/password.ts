/**
 * Password hashing with scrypt (memory-hard; 32 MiB per hash) and the strength rule.
 * Stored form: `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` so parameters can be raised later.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

const N = 1 << 15;
const R = 8;
const P = 1;
const KEY_LEN = 32;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(
      password.normalize('NFKC'),
      salt,
      KEY_LEN,
      { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * A stored form with the current parameters that no password opens: its key is 32 zero bytes, and
 * finding a password whose scrypt gives those is as hard as inverting scrypt. Checking a password
 * against it costs one scrypt, as against a real hash, so an unknown email is checked against it and
 * takes as long as a wrong password. Nothing is hashed at start for it: a scrypt is 32 MiB and
 * 100-200 ms of a core, which a start on a small box should not spend beside its own work.
 */
export const UNMATCHABLE_HASH = [
  'scrypt',
  N,
  R,
  P,
  Buffer.alloc(16).toString('base64'),
  Buffer.alloc(KEY_LEN).toString('base64'),
].join('$');

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], 'base64');
  try {
    const key = await scrypt(password, Buffer.from(parts[4], 'base64'), n, r, p);
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    // A damaged stored hash (unusable parameters) must read as "wrong password", not crash sign-in.
    return false;
  }
}

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** A short list of the passwords attackers try first; longer lists belong to a breach check. */
const COMMON = new Set([
  'password123',
  'password1234',
  '1234567890',
  '12345678910',
  'qwertyuiop',
  'iloveyou123',
  'letmein123',
  'welcome123',
  'administrator',
  'passw0rd123',
  'changeme123',
  'farsight123',
]);

/**
 * The documented strength rule (docs/security.md): 10 to 200 characters, at least 5 different
 * characters, not a well-known password, and not the email address. Returns why it fails, or null.
 */
export function passwordProblem(password: string, email?: string): string | null {
  const chars = [...password];
  if (chars.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (chars.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  if (new Set(chars).size < 5) return 'must use at least 5 different characters';
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return 'is a well-known password';
  if (email && (lower === email.toLowerCase() || lower === email.toLowerCase().split('@')[0])) {
    return 'must not be your email address';
  }
  return null;
}
