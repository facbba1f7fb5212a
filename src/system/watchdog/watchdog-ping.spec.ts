import { judge, shown } from './watchdog-ping';

describe('watchdog ping', () => {
  it.each([
    [200, null, null],
    [204, null, null],
    [
      301,
      'https://hc-ping.com/new',
      'the URL answered a redirect (HTTP 301 to https://hc-ping.com/new), which the watchdog does not follow: use the final URL',
    ],
    [302, null, 'the URL answered a redirect (HTTP 302), which the watchdog does not follow: use the final URL'],
    [404, null, 'the URL answered HTTP 404'],
    [500, null, 'the URL answered HTTP 500'],
  ])('judges HTTP %p (Location %p): %p', (status, location, verdict) => {
    expect(judge(status, location)).toBe(verdict);
  });

  it.each([
    ['OK', 'OK'],
    ['  OK\n', 'OK'],
    ['bell\u0007 nul\u0000', 'bell nul'],
    ['x'.repeat(250), `${'x'.repeat(200)}…`],
  ])('shows the answer %j as %j', (raw, text) => {
    expect(shown(raw)).toBe(text);
  });
});
