import { addressBucket, networkBucket, normalizeIp, ProxyTrust } from './client-ip';

describe('normalizeIp', () => {
  it.each<[string, string]>([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['::1', '::1'],
  ])('turns %s into %s', (ip, expected) => {
    expect(normalizeIp(ip)).toBe(expected);
  });
});

describe('ProxyTrust.clientIp', () => {
  it.each<[string, string[], string | undefined, string | string[] | undefined, string]>([
    ['no proxies trusted: the header is ignored', [], '203.0.113.5', '198.51.100.7', '203.0.113.5'],
    [
      'an untrusted peer cannot spoof its address',
      ['loopback'],
      '203.0.113.5',
      '127.0.0.1, 198.51.100.7',
      '203.0.113.5',
    ],
    ['a trusted peer without the header is the client', ['loopback'], '127.0.0.1', undefined, '127.0.0.1'],
    ['a trusted peer with an empty header is the client', ['loopback'], '127.0.0.1', '', '127.0.0.1'],
    ['a trusted loopback peer forwards one hop', ['loopback'], '127.0.0.1', '198.51.100.7', '198.51.100.7'],
    ['any 127/8 address is loopback', ['loopback'], '127.0.0.53', '198.51.100.7', '198.51.100.7'],
    ['an IPv6 loopback peer is trusted', ['loopback'], '::1', '198.51.100.7', '198.51.100.7'],
    [
      'the right-most untrusted hop wins over values the client made up',
      ['loopback'],
      '127.0.0.1',
      '1.2.3.4, 5.6.7.8, 198.51.100.7',
      '198.51.100.7',
    ],
    [
      'a chain of trusted proxies is walked',
      ['loopback', '10.0.0.0/8'],
      '127.0.0.1',
      '198.51.100.7, 10.0.0.2, 10.1.2.3',
      '198.51.100.7',
    ],
    [
      'the walk stops at the first untrusted hop',
      ['loopback', '10.0.0.0/8'],
      '127.0.0.1',
      '10.9.9.9, 198.51.100.7, 10.0.0.2',
      '198.51.100.7',
    ],
    ['a single trusted address', ['192.168.1.2'], '192.168.1.2', '198.51.100.7', '198.51.100.7'],
    [
      'a neighbour of a single trusted address is not trusted',
      ['192.168.1.2'],
      '192.168.1.3',
      '198.51.100.7',
      '192.168.1.3',
    ],
    ['an IPv6 CIDR', ['fd00::/8'], 'fd12::1', '2001:db8::7', '2001:db8::7'],
    ['an IPv4-mapped peer is normalised and trusted', ['loopback'], '::ffff:127.0.0.1', '198.51.100.7', '198.51.100.7'],
    [
      'an IPv4-mapped untrusted peer is answered in IPv4 form',
      ['loopback'],
      '::ffff:203.0.113.5',
      '198.51.100.7',
      '203.0.113.5',
    ],
    ['IPv4-mapped hops are normalised', ['loopback'], '127.0.0.1', '::ffff:198.51.100.7', '198.51.100.7'],
    [
      'repeated headers are read as one list',
      ['loopback', '10.0.0.0/8'],
      '127.0.0.1',
      ['198.51.100.7', '10.0.0.2'],
      '198.51.100.7',
    ],
    [
      'an unreadable hop ends the walk, so the client cannot pick its own address',
      ['loopback'],
      '127.0.0.1',
      '198.51.100.7, unknown, <script>, 999.1.1.1',
      '127.0.0.1',
    ],
    ['a header of only garbage leaves the peer', ['loopback'], '127.0.0.1', 'unknown, _hidden', '127.0.0.1'],
    [
      'every hop trusted: the left-most one is the best guess',
      ['loopback', '10.0.0.0/8'],
      '127.0.0.1',
      '10.0.0.1, 10.0.0.2',
      '10.0.0.1',
    ],
    ['no peer at all gives an empty address', ['loopback'], undefined, '198.51.100.7', ''],
  ])('%s', (_label, trusted, peer, forwardedFor, expected) => {
    expect(new ProxyTrust(trusted).clientIp(peer, forwardedFor)).toBe(expected);
  });
});

describe('addressBucket', () => {
  it.each<[string, string]>([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['2001:db8::1', '2001:0db8:0000:0000::/64'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:0db8:0000:0000::/64'],
    ['2001:DB8:0:0:FFFF::1', '2001:0db8:0000:0000::/64'],
    ['2001:db8:0:1::1', '2001:0db8:0000:0001::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2::', '2001:0db8:0001:0002::/64'],
    ['::1', '0000:0000:0000:0000::/64'],
    ['::', '0000:0000:0000:0000::/64'],
    ['fe80::', 'fe80:0000:0000:0000::/64'],
    ['64:ff9b::192.0.2.1', '0064:ff9b:0000:0000::/64'],
  ])('puts %s in bucket %s', (ip, bucket) => {
    expect(addressBucket(ip)).toBe(bucket);
  });

  it.each<[string, string, boolean]>([
    ['2001:db8::1', '2001:db8:0:0:ffff::1', true],
    ['2001:db8::1', '2001:db8::dead:beef', true],
    ['2001:db8::1', '2001:DB8:0000::2', true],
    ['2001:db8::1', '2001:db8:0:1::1', false],
    ['2001:db8:aa::1', '2001:db8:ab::1', false],
    ['203.0.113.5', '203.0.113.6', false],
  ])('%s and %s share a bucket: %s', (a, b, same) => {
    expect(addressBucket(a) === addressBucket(b)).toBe(same);
  });
});

describe('networkBucket', () => {
  it.each<[string, string]>([
    ['203.0.113.5', '203.0.113.0/24'],
    ['203.0.113.250', '203.0.113.0/24'],
    ['::ffff:198.51.100.7', '198.51.100.0/24'],
    ['2001:db8:1:2:3:4:5:6', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2::ffff', '2001:0db8:0001:0002::/64'],
    ['not an address', 'unknown'],
  ])('counts %s in the network %s', (ip, bucket) => {
    expect(networkBucket(ip)).toBe(bucket);
  });
});
