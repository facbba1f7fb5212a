import { describeUrl, Hop, hopKey, nextStep } from './http-redirect';

const hop = (url: string, method = 'GET', sendBody = true): Hop => ({ url: new URL(url), method, sendBody });
const visitedBy = (...hops: Hop[]): Set<string> => new Set(hops.map(hopKey));

describe('nextStep', () => {
  it.each<[number, string | undefined]>([
    [200, undefined],
    [200, '/elsewhere'],
    [304, '/elsewhere'],
    [302, undefined],
    [302, ''],
  ])('stops at status %i with location %p', (status, location) => {
    const current = hop('http://a.test/x');
    expect(nextStep(current, status, location, visitedBy(current))).toEqual({ kind: 'final' });
  });

  it.each<[string, number, string, string, string, string, boolean]>([
    ['a relative location', 302, '/next?q=1', 'GET', 'http://a.test/next?q=1', 'GET', true],
    ['a relative path', 301, 'sibling', 'GET', 'http://a.test/dir/sibling', 'GET', true],
    ['an absolute location', 308, 'https://b.test:8443/x', 'GET', 'https://b.test:8443/x', 'GET', true],
    ['a POST after 302 as GET', 302, '/n', 'POST', 'http://a.test/n', 'GET', false],
    ['a POST after 301 as GET', 301, '/n', 'POST', 'http://a.test/n', 'GET', false],
    ['a POST after 307 as POST', 307, '/n', 'POST', 'http://a.test/n', 'POST', true],
    ['a PUT after 302 as PUT', 302, '/n', 'PUT', 'http://a.test/n', 'PUT', true],
    ['a PUT after 303 as GET', 303, '/n', 'PUT', 'http://a.test/n', 'GET', false],
    ['a HEAD after 303 as HEAD', 303, '/n', 'HEAD', 'http://a.test/n', 'HEAD', true],
  ])('follows %s', (_name, status, location, method, url, nextMethod, sendBody) => {
    const current = hop('http://a.test/dir/page', method);
    expect(nextStep(current, status, location, visitedBy(current))).toEqual({
      kind: 'follow',
      hop: { url: new URL(url), method: nextMethod, sendBody },
    });
  });

  it('fails with redirects after a 6th hop', () => {
    const hops = [0, 1, 2, 3, 4, 5].map((i) => hop(`http://a.test/${i}`));
    expect(nextStep(hops[5], 302, '/6', visitedBy(...hops))).toEqual({
      kind: 'error',
      error: { code: 'redirects', message: 'more than 5 redirects (the last one from http://a.test/5)' },
    });
  });

  it('follows a 5th hop', () => {
    const hops = [0, 1, 2, 3, 4].map((i) => hop(`http://a.test/${i}`));
    expect(nextStep(hops[4], 302, '/5', visitedBy(...hops)).kind).toBe('follow');
  });

  it('fails with redirects on a loop, ignoring the fragment', () => {
    const first = hop('http://a.test/a');
    const second = hop('http://a.test/b');
    expect(nextStep(second, 302, '/a#top', visitedBy(first, second))).toEqual({
      kind: 'error',
      error: { code: 'redirects', message: 'redirect loop: http://a.test/b leads back to http://a.test/a' },
    });
  });

  it('allows the same URL again with another method (POST then 303 to GET)', () => {
    const post = hop('http://a.test/form', 'POST');
    expect(nextStep(post, 303, '/form', visitedBy(post)).kind).toBe('follow');
  });

  it.each<[string, string, string]>([
    ['ftp://a.test/file', 'redirects', 'redirect to unsupported scheme ftp:'],
    ['http://[::1', 'protocol', 'http://a.test/x redirected to an invalid location'],
  ])('fails a redirect to %s', (location, code, message) => {
    const current = hop('http://a.test/x');
    expect(nextStep(current, 302, location, visitedBy(current))).toEqual({ kind: 'error', error: { code, message } });
  });
});

describe('describeUrl', () => {
  it.each([
    ['https://user:pw@a.test:8443/p/q?token=abc#frag', 'https://a.test:8443/p/q'],
    ['http://[::1]:80/x', 'http://[::1]/x'],
  ])('shows %s as %s', (url, shown) => {
    expect(describeUrl(new URL(url))).toBe(shown);
  });
});
