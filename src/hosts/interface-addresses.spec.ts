import type { NetworkInterfaceInfo } from 'node:os';
import { INTERFACES_KEPT_MS, InterfaceAddresses, InterfaceList } from './interface-addresses';

const iface = (address: string, internal = false): NetworkInterfaceInfo =>
  ({ address, internal, family: address.includes(':') ? 'IPv6' : 'IPv4' }) as NetworkInterfaceInfo;

describe('InterfaceAddresses', () => {
  it.each<[string, InterfaceList, string[]]>([
    [
      'public addresses of every interface, in order',
      { eth0: [iface('203.0.113.7')], wlan0: [iface('2001:db8::7')] },
      ['203.0.113.7', '2001:db8::7'],
    ],
    ['never internal ones', { lo: [iface('127.0.0.1', true), iface('::1', true)] }, []],
    [
      'never private ones',
      { eth0: [iface('192.168.1.20'), iface('10.0.0.2'), iface('fe80::1'), iface('198.51.100.9')] },
      ['198.51.100.9'],
    ],
    ['an interface without addresses', { eth0: undefined, eth1: [] }, []],
  ])('%s', (_case, list, ips) => {
    expect(
      new InterfaceAddresses(
        () => 0,
        () => list,
      ).publicOnes(),
    ).toEqual(ips);
  });

  it('reads the interfaces again only once INTERFACES_KEPT_MS have passed, or the clock went back', () => {
    let now = 1_000_000;
    let reads = 0;
    let list: InterfaceList = { eth0: [iface('203.0.113.7')] };
    const a = new InterfaceAddresses(
      () => now,
      () => {
        reads += 1;
        return list;
      },
    );
    expect(a.publicOnes()).toEqual(['203.0.113.7']);
    list = { eth0: [iface('203.0.113.8')] };
    now += INTERFACES_KEPT_MS - 1;
    expect(a.publicOnes()).toEqual(['203.0.113.7']);
    expect(reads).toBe(1);
    now += 1;
    expect(a.publicOnes()).toEqual(['203.0.113.8']);
    expect(reads).toBe(2);
    now -= 5_000;
    a.publicOnes();
    expect(reads).toBe(3);
  });
});
