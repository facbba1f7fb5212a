/** tcp `expect_banner`: the first line the server sends must start with the expected text. */
import type { CheckError } from '../check-result';
import { clip } from './clip';

export const BANNER_MAX_BYTES = 4096;

/**
 * True once `received` is enough to judge: a full first line, as many characters as the
 * expectation, or the read limit. Judging early keeps a check fast against servers that send a
 * prompt without a newline.
 */
export function bannerDecidable(expected: string, received: string): boolean {
  return /[\r\n]/.test(received) || received.length >= expected.length || received.length >= BANNER_MAX_BYTES;
}

/** `closed`: the server ended the connection (so `received` is all there will be). */
export function judgeBanner(expected: string, received: string, closed: boolean): CheckError | null {
  const line = firstLine(received);
  if (line.startsWith(expected)) return null;
  if (received === '' && closed) return { code: 'banner', message: 'connection closed before a banner arrived' };
  return {
    code: 'banner',
    message: `expected a banner starting with ${JSON.stringify(expected)}, got ${JSON.stringify(clip(line))}`,
  };
}

export function firstLine(received: string): string {
  return received.split(/\r?\n|\r/, 1)[0];
}
