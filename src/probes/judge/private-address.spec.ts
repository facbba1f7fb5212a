import { isPrivateAddress } from './private-address';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '::1',
    '::',
    '0:0:0:0:0:0:0:1',
    '0000:0000:0000:0000:0000:0000:0000:0001',
    'fe80::1',
    'fe80::1%eth0',
    'FE80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456:789a::1',
    // fec0::/10, the deprecated site-local range (RFC 3879): still routed inside some sites.
    'fec0::1',
    'FEC0::1',
    'feff:ffff::1',
    // IPv4-mapped ::ffff:0:0/96
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:7F00:0001',
    '0:0:0:0:0:ffff:7f00:1',
    '0000:0000:0000:0000:0000:ffff:127.0.0.1',
    '::ffff:127.0.0.1%eth0',
    '::FFFF:10.1.2.3',
    '::ffff:192.168.0.10',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    // IPv4-compatible ::/96 (deprecated, RFC 4291): the IPv4 in the low 32 bits
    '::7f00:1',
    '::127.0.0.1',
    '::0:7f00:1',
    '::a00:1',
    '::10.0.0.1',
    '::c0a8:1',
    '::2', // 0.0.0.2, in 0.0.0.0/8
    // IPv4-translated ::ffff:0:0:0/96 (SIIT, RFC 2765)
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '::FFFF:0:A00:1',
    '0:0:0:0:ffff:0:c0a8:101',
    // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052)
    '64:ff9b::10.0.0.1',
    '64:ff9b::7f00:1',
    '64:FF9B::127.0.0.1',
    '0064:ff9b:0000:0000:0000:0000:a9fe:a9fe',
    // local-use NAT64 64:ff9b:1::/48 (RFC 8215): the whole range, wherever its IPv4 sits
    '64:ff9b:1::7f00:1',
    '64:ff9b:1::808:808',
    '64:ff9b:1:ffff:ffff:ffff:ffff:ffff',
    '64:FF9B:0001::1',
    // 6to4 2002::/16 (RFC 3056): the IPv4 in bits 16-48
    '2002:7f00:1::',
    '2002:7f00:0001::1',
    '2002:a00:1::1',
    '2002:c0a8:101:1::1',
    '2002:a9fe:a9fe::',
    '2002:0:0::1', // 0.0.0.0
    '2002:6440:1::1', // 100.64.0.1
    // Teredo 2001::/32 (RFC 4380): the client's IPv4, inverted, in the low 32 bits
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // client 127.0.0.1
    '2001:0000:4136:e378:8000:63bf:f5ff:fffe', // client 10.0.0.1
  ])('%s is private', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '172.15.255.255',
    '172.32.0.1',
    '192.167.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:db8::1',
    'ff02::1',
    'fe7f::1', // just below fe80::/10
    'ff00::1', // just above fec0::/10
    '::ffff:1.1.1.1',
    '::ffff:808:808',
    '::1.1.1.1',
    '::808:808',
    '::ffff:0:808:808',
    '64:ff9b::1.1.1.1',
    '64:ff9b::808:808',
    '64:ff9b:2::7f00:1', // past the local-use /48
    '2002:808:808::1',
    '2002:101:101::7f00:1', // a public 6to4 site; the low bits are its own
    '2003:7f00:1::1', // not 6to4
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo client 8.8.8.8
    '2001:1::7f00:1', // past Teredo's /32
    'example.com',
    '',
    '999.1.1.1',
    '::ffff:127.000.000.001', // not an address: a name, resolved (and judged) like any other
  ])('%s is not private', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});
