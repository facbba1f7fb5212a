import { ownOrigin, originProblem } from './origin-rule';

describe('originProblem', () => {
  const env = { publicOrigin: 'https://status.example.com', publicUrlSource: 'env' as const };
  const saved = { publicOrigin: 'http://192.168.1.5:8080', publicUrlSource: 'setting' as const };
  const unset = { publicOrigin: 'http://localhost:8080', publicUrlSource: 'default' as const };

  it.each([
    ['the public origin, set by FARSIGHT_PUBLIC_URL', env, 'https://status.example.com', 'http://10.0.0.2:8080'],
    ['the public origin, saved at setup', saved, 'http://192.168.1.5:8080', 'http://192.168.1.5:8080'],
    ['the default public origin', unset, 'http://localhost:8080', 'http://localhost:8080'],
    [
      "the request's own origin while no public URL is configured",
      unset,
      'http://192.168.1.5:8080',
      'http://192.168.1.5:8080',
    ],
    [
      "the request's own origin by host name while none is configured",
      unset,
      'http://nas.lan:8080',
      'http://nas.lan:8080',
    ],
  ])('accepts %s', (_, config, origin, own) => {
    expect(originProblem(origin, own, config)).toBeNull();
  });

  it.each([
    [
      'another site while none is configured',
      unset,
      'http://evil.example',
      'http://192.168.1.5:8080',
      /Origin http:\/\/evil\.example is neither this page's own address \(http:\/\/192\.168\.1\.5:8080\) nor http:\/\/localhost:8080/,
    ],
    [
      'another scheme while none is configured',
      unset,
      'https://192.168.1.5:8080',
      'http://192.168.1.5:8080',
      /neither/,
    ],
    [
      "the request's own origin when FARSIGHT_PUBLIC_URL is set",
      env,
      'http://10.0.0.2:8080',
      'http://10.0.0.2:8080',
      /Farsight's address is https:\/\/status\.example\.com \(FARSIGHT_PUBLIC_URL\)/,
    ],
    [
      "the request's own origin when an address was saved at setup",
      saved,
      'http://nas.lan:8080',
      'http://nas.lan:8080',
      /Farsight's address is http:\/\/192\.168\.1\.5:8080 \(saved at first-run setup; FARSIGHT_PUBLIC_URL overrides it\)/,
    ],
    ['no own origin (no Host) while none is configured', unset, 'http://192.168.1.5:8080', null, /neither/],
  ])('refuses %s, naming the expected address', (_, config, origin, own, message) => {
    expect(originProblem(origin, own, config)).toMatch(message);
  });
});

describe('ownOrigin', () => {
  it.each([
    [
      'plain http',
      { host: '192.168.1.5:8080', encrypted: false, forwardedProto: undefined },
      'http://192.168.1.5:8080',
    ],
    ['a TLS socket', { host: 'nas.lan', encrypted: true, forwardedProto: undefined }, 'https://nas.lan'],
    [
      'X-Forwarded-Proto from a trusted proxy',
      { host: 'nas.lan', encrypted: false, forwardedProto: 'https' },
      'https://nas.lan',
    ],
    [
      'the first of several forwarded protocols',
      { host: 'nas.lan', encrypted: false, forwardedProto: 'https, http' },
      'https://nas.lan',
    ],
    ['an IPv6 host', { host: '[fd00::5]:8080', encrypted: false, forwardedProto: undefined }, 'http://[fd00::5]:8080'],
    [
      'an upper-case host',
      { host: 'NAS.lan:8080', encrypted: false, forwardedProto: undefined },
      'http://nas.lan:8080',
    ],
    [
      'the default port written out',
      { host: 'nas.lan:80', encrypted: false, forwardedProto: undefined },
      'http://nas.lan',
    ],
    ['no Host', { host: undefined, encrypted: false, forwardedProto: undefined }, null],
    ['a Host with a path', { host: 'nas.lan/x', encrypted: false, forwardedProto: undefined }, null],
    ['a Host with credentials', { host: 'a@nas.lan', encrypted: false, forwardedProto: undefined }, null],
    [
      'a forwarded protocol that is neither http nor https',
      { host: 'nas.lan', encrypted: false, forwardedProto: 'ftp' },
      null,
    ],
  ])('%s', (_, req, expected) => {
    expect(ownOrigin(req)).toBe(expected);
  });
});
