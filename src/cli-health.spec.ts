import { healthUrl, judgeHealth, parseHealthArgs, requestFailure } from './cli-health';

const URL = 'http://127.0.0.1:8080/api/health';

describe('farsight health', () => {
  it.each([
    [{ host: '0.0.0.0', port: 8080 }, 'http://127.0.0.1:8080/api/health'],
    [{ host: '::', port: 8080 }, 'http://[::1]:8080/api/health'],
    [{ host: '127.0.0.1', port: 9000 }, 'http://127.0.0.1:9000/api/health'],
    [{ host: '192.168.1.5', port: 80 }, 'http://192.168.1.5:80/api/health'],
    [{ host: 'fd00::5', port: 8080 }, 'http://[fd00::5]:8080/api/health'],
    [{ host: 'monitor.lan', port: 8080 }, 'http://monitor.lan:8080/api/health'],
  ])('asks %j at %s', (listen, url) => {
    expect(healthUrl(listen)).toBe(url);
  });

  it.each([
    [[], { timeoutMs: 5000 }],
    [['--timeout', '2'], { timeoutMs: 2000 }],
    [['--timeout', '0.5'], { timeoutMs: 500 }],
    [['--timeout', '60'], { timeoutMs: 60000 }],
    [['--timeout'], { usage: 'usage: farsight health [--timeout SECONDS]' }],
    [['--wait', '2'], { usage: 'usage: farsight health [--timeout SECONDS]' }],
    [['--timeout', '2', 'x'], { usage: 'usage: farsight health [--timeout SECONDS]' }],
    [['--timeout', '0'], { usage: '--timeout: expected seconds from 0.1 to 60, got "0"' }],
    [['--timeout', '61'], { usage: '--timeout: expected seconds from 0.1 to 60, got "61"' }],
    [['--timeout', '-1'], { usage: '--timeout: expected seconds from 0.1 to 60, got "-1"' }],
    [['--timeout', '1e3'], { usage: '--timeout: expected seconds from 0.1 to 60, got "1e3"' }],
    [['--timeout', 'x\ny'], { usage: '--timeout: expected seconds from 0.1 to 60, got "x y"' }],
  ])('reads the options %j as %j', (args, want) => {
    expect(parseHealthArgs(args)).toEqual(want);
  });

  it.each([
    [
      200,
      '{"ok":true,"version":"0.1.0","uptime_s":12}',
      { healthy: true, line: `healthy: Farsight 0.1.0 at ${URL}, up 12 s` },
    ],
    [200, '{"ok":true}', { healthy: true, line: `healthy: Farsight at ${URL}` }],
    [503, '{"ok":true}', { healthy: false, reason: `${URL} answered HTTP 503` }],
    [301, '', { healthy: false, reason: `${URL} answered HTTP 301` }],
    [
      200,
      '<html>router login</html>',
      { healthy: false, reason: `${URL} answered something that is not JSON: "<html>router login</html>"` },
    ],
    [200, '{"ok":false}', { healthy: false, reason: `${URL} did not answer {"ok":true}: "{"ok":false}"` }],
    [200, '{"ok":"true"}', { healthy: false, reason: `${URL} did not answer {"ok":true}: "{"ok":"true"}"` }],
    [200, 'null', { healthy: false, reason: `${URL} did not answer {"ok":true}: "null"` }],
    [200, '{"ok":true,"version":"1\\u001b[2J"}', { healthy: true, line: `healthy: Farsight 1 [2J at ${URL}` }],
  ])('judges HTTP %i %s', (status, body, verdict) => {
    expect(judgeHealth(URL, { status, body })).toEqual(verdict);
  });

  it('shortens a long answer to one printable line', () => {
    const verdict = judgeHealth(URL, { status: 200, body: 'x'.repeat(500) + '\r\nInjected: yes' });
    expect(verdict).toEqual({ healthy: false, reason: expect.stringMatching(/"x{117}\.\.\."$/) });
  });

  it.each([
    ['ETIMEDOUT', `no answer from ${URL} within 2.5 s`],
    [
      'ECONNREFUSED',
      `nothing listens at ${URL} (connection refused): is \`farsight serve\` running with this FARSIGHT_LISTEN?`,
    ],
    ['ETOOBIG', `${URL} answered more than 16384 bytes: not Farsight's health`],
    ['ECONNRESET', `cannot reach ${URL}: ECONNRESET`],
  ])('says %s as one line', (code, line) => {
    expect(requestFailure(URL, Object.assign(new Error('x'), { code }), 2500)).toBe(line);
  });
});
