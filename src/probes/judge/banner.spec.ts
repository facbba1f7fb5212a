import type { CheckError } from '../check-result';
import { bannerDecidable, judgeBanner } from './banner';

describe('bannerDecidable', () => {
  it.each<[string, string, boolean]>([
    ['SSH-2.0', '', false],
    ['SSH-2.0', 'SSH', false],
    ['SSH-2.0', 'SSH-2.0', true],
    ['SSH-2.0', 'X\n', true],
    ['SSH-2.0-OpenSSH', 'SSH\r', true],
    ['x'.repeat(5000), 'y'.repeat(4096), true],
  ])('expecting %j after %j: %s', (expected, received, decidable) => {
    expect(bannerDecidable(expected, received)).toBe(decidable);
  });
});

describe('judgeBanner', () => {
  it.each<[string, string, boolean]>([
    ['SSH-2.0', 'SSH-2.0-FarsightTest\r\n', false],
    ['SSH-2.0', 'SSH-2.0-Farsight', false],
    ['220 ', '220 mail ESMTP\r\n250 more\r\n', false],
    ['', '', true],
  ])('accepts %j for %j', (expected, received, closed) => {
    expect(judgeBanner(expected, received, closed)).toBeNull();
  });

  it.each<[string, string, boolean, CheckError]>([
    [
      'SSH-2.0',
      'HTTP/1.1 400 Bad Request\r\n',
      false,
      { code: 'banner', message: 'expected a banner starting with "SSH-2.0", got "HTTP/1.1 400 Bad Request"' },
    ],
    [
      '250',
      '220 hi\n250 ok\n',
      false,
      { code: 'banner', message: 'expected a banner starting with "250", got "220 hi"' },
    ],
    ['SSH', 'SS', true, { code: 'banner', message: 'expected a banner starting with "SSH", got "SS"' }],
    ['SSH', '', true, { code: 'banner', message: 'connection closed before a banner arrived' }],
    [
      'A',
      `${'b'.repeat(150)}\n`,
      false,
      { code: 'banner', message: `expected a banner starting with "A", got "${'b'.repeat(100)}…"` },
    ],
  ])('rejects %j for %j', (expected, received, closed, error) => {
    expect(judgeBanner(expected, received, closed)).toEqual(error);
  });
});
