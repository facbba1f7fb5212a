/**
 * Encryption of stored secrets (monitor passwords, tokens, secret header values) with a key kept
 * outside the database, so a copied database file or a backup alone reveals none of them.
 *
 * A sealed value is `enc:v1:<base64 of nonce(12) | ciphertext | tag(16)>`, AES-256-GCM with a fresh
 * random nonce per value (2^32 values per key before nonce reuse becomes a concern: far beyond
 * what monitor settings ever see). GCM's tag makes any change to a stored value, or a different
 * key, fail loudly instead of yielding garbage that would be sent as a credential.
 * Values without the prefix are clear text written before encryption existed; open() passes them
 * through so such databases keep working until the value is written again.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SEALED_PREFIX = 'enc:v1:';
export const SECRET_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

export function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== SECRET_KEY_BYTES) {
      throw new SecretBoxError(`the secret key must be ${SECRET_KEY_BYTES} bytes, not ${key.length}`);
    }
    this.key = Buffer.from(key);
  }

  seal(plain: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
  }

  /** The clear text of a sealed value; a value without the prefix is returned as it is. */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const b64 = stored.slice(SEALED_PREFIX.length);
    const raw = Buffer.from(b64, 'base64');
    // Buffer.from ignores characters outside the alphabet: compare the round trip to catch damage.
    if (raw.length < NONCE_BYTES + TAG_BYTES || raw.toString('base64') !== b64) {
      throw new SecretBoxError('a stored secret is damaged (not a valid sealed value)');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretBoxError(
        'a stored secret cannot be decrypted: the secret key is not the one it was sealed with, or the value was altered',
      );
    }
  }
}

/**
 * The key from a key file's bytes: exactly 32 raw bytes, or 64 hex digits, or base64 of 32 bytes
 * (surrounding whitespace allowed), so `head -c 32 /dev/urandom` and `openssl rand -base64 32`
 * both make a usable key. Returns null when the content is none of these.
 */
export function parseSecretKey(content: Buffer): Buffer | null {
  if (content.length === SECRET_KEY_BYTES) return Buffer.from(content);
  const text = content.toString('latin1').trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    const key = Buffer.from(text, 'base64');
    if (key.length === SECRET_KEY_BYTES) return key;
  }
  return null;
}

/** Injection token of the process's SecretBox (a plain symbol: this file stays framework-free). */
export const SECRET_BOX = Symbol('SecretBox');
