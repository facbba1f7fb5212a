import { localCanaries, parseDefaultGateway, parseNameservers, RESOLV_FILES, ROUTE_FILE } from './local-canaries';

const HEADER = 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT';
const route = (...rows: string[]) => [HEADER, ...rows].join('\n');

describe('parseDefaultGateway', () => {
  it.each<[string, string, string | null]>([
    [
      'a default route through 192.168.1.1',
      route('eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0'),
      '192.168.1.1',
    ],
    [
      'the lowest metric of two default routes',
      route(
        'wlan0\t00000000\t0100000A\t0003\t0\t0\t600\t00000000\t0\t0\t0',
        'eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0',
      ),
      '192.168.1.1',
    ],
    ['no default route (only a link route)', route('eth0\t0001A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0'), null],
    [
      'a default route without the gateway flag',
      route('tun0\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0'),
      null,
    ],
    ['a default route that is down', route('eth0\t00000000\t0101A8C0\t0002\t0\t0\t0\t00000000\t0\t0\t0'), null],
    ['an empty file', '', null],
  ])('%s', (_, table, want) => {
    expect(parseDefaultGateway(table)).toBe(want);
  });
});

describe('parseNameservers', () => {
  it.each<[string, string, string[]]>([
    ['plain resolvers in order', 'nameserver 192.168.1.1\nnameserver 9.9.9.9\n', ['192.168.1.1', '9.9.9.9']],
    [
      'the systemd-resolved stub is left out',
      '# managed\nnameserver 127.0.0.53\noptions edns0 trust-ad\nsearch lan\n',
      [],
    ],
    [
      'loopback v6 and v4 left out, IPv6 kept',
      'nameserver ::1\nnameserver 127.0.0.1\nnameserver fd00::1\n',
      ['fd00::1'],
    ],
    [
      'comments and junk ignored, duplicates once',
      ';nameserver 1.1.1.1\nnameserver not-an-ip\n  nameserver 10.0.0.1\nnameserver 10.0.0.1',
      ['10.0.0.1'],
    ],
    ['a scoped link-local address is kept with its scope', 'nameserver fe80::1%eth0', ['fe80::1%eth0']],
  ])('%s', (_, text, want) => {
    expect(parseNameservers(text)).toEqual(want);
  });
});

describe('localCanaries', () => {
  it('takes the gateway (a refusal counts) and the resolvers of both files on port 53, each address once', () => {
    const files: Record<string, string> = {
      [ROUTE_FILE]: route('eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0'),
      [RESOLV_FILES[0]]: 'nameserver 127.0.0.53\n',
      [RESOLV_FILES[1]]: 'nameserver 192.168.1.1\nnameserver 9.9.9.9\n',
    };
    expect(localCanaries((f) => files[f] ?? null)).toEqual([
      { host: '192.168.1.1', port: 53, refusedAnswers: true, role: 'gateway' },
      { host: '9.9.9.9', port: 53, role: 'resolver' },
    ]);
  });

  it('finds nothing when the files are missing', () => {
    expect(localCanaries(() => null)).toEqual([]);
  });
});
