/**
 * The addresses the service can be opened at, for the first log lines: for 0.0.0.0 (or ::) every
 * address of every interface, loopback first, so an owner on a headless box sees the one to type
 * on the laptop. Pure: the interfaces come from os.networkInterfaces().
 */
import type { NetworkInterfaceInfo } from 'node:os';
import type { ListenAddress } from './config';

export function listenUrls(listen: ListenAddress, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const url = (host: string) => `http://${host.includes(':') ? `[${host}]` : host}:${listen.port}`;
  const any = listen.host === '0.0.0.0' || listen.host === '::';
  if (!any) return [url(listen.host)];
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    // 0.0.0.0 listens on IPv4 only; :: on both. Link-local IPv6 needs a zone id no browser takes.
    .filter((a) => (listen.host === '::' || a.family === 'IPv4') && !(a.family === 'IPv6' && /^fe80:/i.test(a.address)))
    .sort(
      (a, b) => Number(b.internal) - Number(a.internal) || Number(a.family === 'IPv6') - Number(b.family === 'IPv6'),
    );
  const urls = [...new Set(addresses.map((a) => url(a.address)))];
  return urls.length > 0 ? urls : [url(listen.host)];
}
