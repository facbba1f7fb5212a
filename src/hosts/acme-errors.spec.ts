import { clean, describeAcmeError, isRateLimit, parseRetryAfter } from './acme-errors';

const DIR = 'https://127.0.0.1:14000/dir';

describe('ACME errors in words', () => {
  it.each<[string, unknown, string]>([
    [
      'a timeout',
      Object.assign(new Error('timeout of 500ms exceeded'), { code: 'ECONNABORTED' }),
      'did not answer within 0.5 s',
    ],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      'connection refused',
    ],
    ['a reset', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'closed the connection'],
    [
      'an untrusted certificate',
      Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      'FARSIGHT_ACME_CA_FILE',
    ],
    [
      'a 500 on the directory',
      new Error('Attempting to read ACME directory returned error 500: x'),
      'did not answer with an ACME directory',
    ],
    [
      'garbage instead of a directory',
      new Error('Unable to locate API resource URL in ACME directory: "newNonce"'),
      'did not answer with an ACME directory',
    ],
    [
      "the CA's own reason",
      new Error('Error creating new order :: too many certificates already issued'),
      'refused the order: Error creating new order',
    ],
    ['no reason at all', new Error(''), 'no reason given'],
    [
      'a network failure whose cause was lost',
      new TypeError("Cannot read properties of undefined (reading 'config')"),
      'did not answer properly',
    ],
  ])('%s', (_name, err, words) => {
    const text = describeAcmeError(err, DIR, 500);
    expect(text).toContain(words);
    expect(text).toContain(DIR);
  });

  it('keeps what a hostile server says printable, on one line and short', () => {
    const text = clean(`evil\u0000\u001b[31m\nline${'x'.repeat(1000)}`);
    expect(text).not.toMatch(/[\u0000-\u001f]/);
    expect(text.length).toBeLessThanOrEqual(300);
  });

  it.each<[unknown, number | null]>([
    ['120', 120_000],
    ['0', null],
    ['-5', null],
    ['soon', null],
    [undefined, null],
    ['Thu, 01 Jan 1970 00:16:40 GMT', 1_000_000 - 1_000],
    ['99999999', 7 * 24 * 3_600_000],
  ])('reads Retry-After %p as %p ms', (value, ms) => {
    expect(parseRetryAfter(value, 1_000)).toBe(ms);
  });

  it.each<[number, unknown, boolean]>([
    [429, {}, true],
    [403, { type: 'urn:ietf:params:acme:error:rateLimited' }, true],
    [403, { type: 'urn:ietf:params:acme:error:unauthorized' }, false],
    [500, 'garbage', false],
  ])('status %i with %j is a rate limit: %p', (status, body, yes) => {
    expect(isRateLimit(status, body)).toBe(yes);
  });
});
