/**
 * Where a check connects, and the private-target rule. The rule is applied to the address a
 * socket actually connects to: names are resolved inside the socket's own `lookup`, so a name
 * cannot resolve to a public address for a check and a private one for the connection (DNS
 * rebinding). Literal IPs (in URLs, resolve_to, ping targets) never reach a lookup and are checked
 * with checkAddress before connecting.
 */
import * as dns from 'node:dns';
import { isIP, LookupFunction } from 'node:net';
import type { CheckError } from '../check-result';
import type { IpVersion } from '../kinds';
import { isPrivateAddress } from '../judge/private-address';
import { CheckFailure, failure } from './result-builders';

const FAMILY: Record<IpVersion, 0 | 4 | 6> = { auto: 0, ipv4: 4, ipv6: 6 };

export function familyOf(ipVersion: IpVersion): 0 | 4 | 6 {
  return FAMILY[ipVersion];
}

/** A URL hostname without the brackets of an IPv6 literal. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Judges a literal IP we are about to connect to; null when it may be used. */
export function checkAddress(ip: string, ipVersion: IpVersion, allowPrivate: boolean): CheckError | null {
  const wanted = familyOf(ipVersion);
  const family = isIP(ip);
  if (wanted !== 0 && family !== wanted) {
    return failure('dns', `${ip} is not an IPv${wanted} address (ip_version is ${ipVersion})`);
  }
  if (!allowPrivate && isPrivateAddress(ip)) return privateTarget(ip, null);
  return null;
}

/**
 * A socket `lookup` that resolves with the monitor's ip_version and drops private addresses when
 * they are not allowed. Node asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily),
 * so both answer shapes are supported.
 */
export function guardedLookup(ipVersion: IpVersion, allowPrivate: boolean): LookupFunction {
  const wanted = familyOf(ipVersion);
  return (hostname, options, callback) => {
    const family = wanted || (options.family === 4 || options.family === 6 ? options.family : 0);
    dns.lookup(hostname, { family, hints: options.hints, all: true }, (err, addresses) => {
      if (err) return callback(dnsFailure(hostname, wanted, err.code), '');
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) return callback(new CheckFailure(privateTarget(addresses[0].address, hostname)), '');
      if (options.all) return callback(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
}

/**
 * Resolves a name for a probe that does not open a socket itself (ping): one address, checked
 * like guardedLookup would. Literal IPs are checked without a lookup.
 */
export function resolveTarget(host: string, ipVersion: IpVersion, allowPrivate: boolean): Promise<string> {
  if (isIP(host)) {
    const problem = checkAddress(host, ipVersion, allowPrivate);
    return problem ? Promise.reject(new CheckFailure(problem)) : Promise.resolve(host);
  }
  const lookup = guardedLookup(ipVersion, allowPrivate);
  return new Promise((resolve, reject) => {
    lookup(host, {}, (err, address) => (err ? reject(err) : resolve(address as string)));
  });
}

function dnsFailure(hostname: string, family: 0 | 4 | 6, code: string | undefined): CheckFailure {
  const kind = family === 0 ? 'an address' : `an IPv${family} address`;
  return new CheckFailure(failure('dns', `cannot resolve ${hostname} to ${kind} (${code ?? 'no answer'})`));
}

function privateTarget(address: string, hostname: string | null): CheckError {
  const what = hostname ? `${hostname} resolves to ${address}, a private address` : `${address} is a private address`;
  return failure('private_target', `${what}, and private targets are not allowed`);
}
