/**
 * What a host's DNS, read at its zone's own nameservers, means for this server (pure): it has no
 * address (`missing`), points through a provider's proxy (`proxied`), somewhere else (`elsewhere`)
 * or only here (`here`); and, while it is not right, the records the owner creates.
 */
import { isIP } from 'node:net';
import type { DnsVerdict } from './domain-state';
import { proxyOf } from './providers';

export interface DnsRecordAdvice {
  type: 'A' | 'AAAA';
  name: string;
  value: string;
}

export interface Judged {
  verdict: Exclude<DnsVerdict, 'unknown'>;
  detail: string;
}

/**
 * `pointsAt`: the host's A and AAAA answers (after any CNAME); `isOurs`: whether an address
 * reaches this server (one of server_ips, or proven by the reach probe).
 */
export function judgeDns(
  host: string,
  pointsAt: readonly string[],
  isOurs: (ip: string) => boolean,
  serverIps: readonly string[],
): Judged {
  if (pointsAt.length === 0) {
    return { verdict: 'missing', detail: `${host} has no A or AAAA record yet: create ${advise(serverIps)}` };
  }
  const proxied = pointsAt.filter((ip) => proxyOf(ip) !== null);
  if (proxied.length) {
    const by = proxyOf(proxied[0]);
    return {
      verdict: 'proxied',
      detail: `${host} points at ${by}'s proxy (${proxied.join(', ')}): turn the proxy off for this record ("DNS only"), so the certificate can be fetched and visitors reach this server`,
    };
  }
  const foreign = pointsAt.filter((ip) => !isOurs(ip));
  if (foreign.length === 0)
    return { verdict: 'here', detail: `${host} points at this server (${pointsAt.join(', ')})` };
  const mine = pointsAt.filter((ip) => isOurs(ip));
  if (mine.length) {
    return {
      verdict: 'elsewhere',
      detail: `${host} points at this server and also at ${foreign.join(', ')}, which is not this server: remove ${foreign.length === 1 ? 'that record' : 'those records'} (the CA may ask any of them)`,
    };
  }
  return {
    verdict: 'elsewhere',
    detail: `${host} points at ${foreign.join(', ')}, which is not this server: change the record to ${advise(serverIps)}`,
  };
}

/** The records to create: an A record per IPv4 address of the server, an AAAA per IPv6 address. */
export function recordsFor(host: string, serverIps: readonly string[]): DnsRecordAdvice[] {
  return serverIps.map((ip) => ({ type: isIP(ip) === 6 ? 'AAAA' : 'A', name: host, value: ip }));
}

function advise(serverIps: readonly string[]): string {
  if (serverIps.length === 0)
    return "an A record with this server's public address (set FARSIGHT_SERVER_IPS: it could not be discovered)";
  return serverIps.map((ip) => `${isIP(ip) === 6 ? 'AAAA' : 'A'} ${ip}`).join(' and ');
}
