/**
 * A pinned certificate (`cert_sha256` of http and tls monitors): the SHA-256 fingerprint of the
 * leaf certificate the server must present. Pure.
 *
 * Accepted as people copy it: 64 hex digits, with or without colons or spaces, any case, also
 * with the `SHA256 Fingerprint=` prefix `openssl x509 -noout -fingerprint -sha256` prints. Stored
 * in one form, the one openssl and browsers show: upper case, bytes separated by colons.
 */
import type { CheckError } from '../check-result';

const PREFIX = /^\s*(?:sha-?256(?:\s+fingerprint)?\s*[=:]\s*)/i;
/** Bytes shown of each fingerprint in a mismatch: enough to tell them apart, short enough to read. */
const SHOWN_BYTES = 8;

/** The stored form of a fingerprint, or null when `text` is not one. */
export function normalizeCertSha256(text: string): string | null {
  const hex = text.replace(PREFIX, '').replace(/[\s:]/g, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  return colonHex(hex);
}

/** `ab01…` (hex of a digest) as `AB:01:…`. */
export function colonHex(hex: string): string {
  return hex.toUpperCase().match(/../g)!.join(':');
}

/** The check's verdict on the leaf's fingerprint (`actual`, stored form) against the pin. */
export function judgeCertPin(pinned: string, actual: string): CheckError | null {
  if (pinned === actual) return null;
  const head = (f: string) => `${f.split(':').slice(0, SHOWN_BYTES).join(':')}…`;
  return {
    code: 'cert_pin',
    message: `certificate is not the pinned one: cert_sha256 expects ${head(pinned)}, the server presented ${head(actual)}`,
  };
}
