import type { NetworkInterfaceInfo } from 'node:os';
import { listenUrls } from './listen-urls';

const v4 = (address: string, internal = false) => ({ address, family: 'IPv4', internal }) as NetworkInterfaceInfo;
const v6 = (address: string, internal = false) => ({ address, family: 'IPv6', internal }) as NetworkInterfaceInfo;
const box = {
  lo: [v4('127.0.0.1', true), v6('::1', true)],
  eth0: [v4('192.168.1.5'), v6('fe80::1'), v6('fd00::5')],
  wlan0: [v4('10.0.0.7')],
};

describe('listenUrls', () => {
  it.each([
    [
      'every IPv4 address for 0.0.0.0, loopback first',
      { host: '0.0.0.0', port: 8080 },
      box,
      ['http://127.0.0.1:8080', 'http://192.168.1.5:8080', 'http://10.0.0.7:8080'],
    ],
    [
      'IPv6 too for ::, without link-local ones',
      { host: '::', port: 8080 },
      box,
      [
        'http://127.0.0.1:8080',
        'http://[::1]:8080',
        'http://192.168.1.5:8080',
        'http://10.0.0.7:8080',
        'http://[fd00::5]:8080',
      ],
    ],
    ['the one address listened on', { host: '192.168.1.5', port: 9000 }, box, ['http://192.168.1.5:9000']],
    ['the address itself when no interface is known', { host: '0.0.0.0', port: 8080 }, {}, ['http://0.0.0.0:8080']],
  ])('%s', (_, listen, interfaces, expected) => {
    expect(listenUrls(listen, interfaces)).toEqual(expected);
  });
});
