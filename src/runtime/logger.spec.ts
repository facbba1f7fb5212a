import { LineLogger, maskSecretsInText } from './logger';
import { ProblemRing } from '../common/recent-problems';

describe('maskSecretsInText', () => {
  const KEY = `fs_${'a1'.repeat(24)}`;
  it.each([
    ['an API key', `request with ${KEY} refused`, 'request with fs_******** refused'],
    ['a bearer header', 'sent Authorization: Bearer abc.def-123', 'sent Authorization: Bearer ********'],
    ['a bearer token alone', 'token Bearer abc.def-123 rejected', 'token Bearer ******** rejected'],
    ['basic credentials', 'Basic dXNlcjpwYXNz failed', 'Basic ******** failed'],
    [
      'a URL password',
      'cannot reach smtps://mailer:hunter2@smtp.example.com:465',
      'cannot reach smtps://mailer:********@smtp.example.com:465',
    ],
    [
      'a heartbeat URL',
      'ping on http://x.test/hb/AbCdEf0123456789xyz failed',
      'ping on http://x.test/hb/******** failed',
    ],
    [
      'a setup link',
      'Finish setup at https://x.test/setup/AbCdEf0123456789',
      'Finish setup at https://x.test/setup/********',
    ],
    ['a query token', 'GET /hook?token=s3cr3t&x=1', 'GET /hook?token=********&x=1'],
    ['an api_key parameter', 'https://api.test/?api_key=zzz', 'https://api.test/?api_key=********'],
    ['name=value text', 'webhook secret=topsecret refused', 'webhook secret=******** refused'],
    ['JSON', '{"password": "pw1", "user": "me"}', '{"password": "********", "user": "me"}'],
    ['a header name with a secret word', 'X-Api-Key: abcdef', 'X-Api-Key: ********'],
  ])('masks %s', (_what, text, expected) => {
    expect(maskSecretsInText(text)).toBe(expected);
  });

  it.each([
    ['plain text', 'could not write 12 check results (attempt 2), retrying in 2 s'],
    ['a URL without credentials', 'GET https://nas.lan:8443/health timed out'],
    ['a path that is not a link with a token', 'GET /api/v1/monitors/12 failed'],
  ])('leaves %s alone', (_what, text) => {
    expect(maskSecretsInText(text)).toBe(text);
  });
});

describe('LineLogger problems', () => {
  it('keeps warnings and errors, even below the log level, masked and on one line; not info or debug', () => {
    const ring = new ProblemRing(10);
    const lines: string[] = [];
    const log = new LineLogger('error', (l) => lines.push(l), ring);
    log.log('started', 'main');
    log.debug('details', 'main');
    log.warn('retrying https://u:pw@x.test/', 'mail');
    log.error(new Error('boom token=abc\n  at somewhere'), 'stack text', 'writer');
    expect(ring.list()).toEqual([
      { at: expect.any(String), level: 'error', context: 'writer', message: 'Error: boom token=********' },
      { at: expect.any(String), level: 'warn', context: 'mail', message: 'retrying https://u:********@x.test/' },
    ]);
    expect(lines).toHaveLength(1); // only the error passed the level
  });

  it('cuts a long message to 500 characters', () => {
    const ring = new ProblemRing(1);
    new LineLogger('error', () => undefined, ring).warn('x'.repeat(2000));
    expect(ring.list()[0].message).toHaveLength(500);
  });
});
