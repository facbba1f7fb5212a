/**
 * The client's address: the socket peer, or the right-most untrusted X-Forwarded-For hop when
 * the peer is a trusted proxy (FARSIGHT_TRUST_PROXY). Pure apart from the inputs it is given.
 */
import * as net from 'node:net';

export function normalizeIp(ip: string): string {
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return v4mapped ? v4mapped[1] : ip.toLowerCase();
}

export class ProxyTrust {
  private readonly blocks = new net.BlockList();

  constructor(entries: string[]) {
    for (const e of entries) {
      if (e === 'loopback') {
        this.blocks.addSubnet('127.0.0.0', 8, 'ipv4');
        this.blocks.addAddress('::1', 'ipv6');
        continue;
      }
      const [ip, bits] = e.split('/');
      const type = net.isIPv6(ip) ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.blocks.addAddress(ip, type);
      else this.blocks.addSubnet(ip, Number(bits), type);
    }
  }

  trusts(ip: string): boolean {
    const n = normalizeIp(ip);
    const type = net.isIPv6(n) ? 'ipv6' : net.isIPv4(n) ? 'ipv4' : null;
    return type !== null && this.blocks.check(n, type);
  }

  /** Walks X-Forwarded-For from the right while hops are trusted proxies. */
  clientIp(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    let ip = normalizeIp(peer ?? '');
    // Without the header there is nothing to walk (and the block-list check is the costly part).
    if (!forwardedFor || !this.trusts(ip)) return ip;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((s) => normalizeIp(s.trim()));
    while (hops.length && this.trusts(ip)) {
      const hop = hops.pop() as string;
      // An entry our proxy wrote that we cannot read ends the walk: what lies left of it was
      // written by the client, who must not choose its own address.
      if (!net.isIP(hop)) break;
      ip = hop;
    }
    return ip;
  }
}

/** An IPv6 client is identified by its /64 (one subscriber usually holds a whole /64). */
export function addressBucket(ip: string): string {
  const n = normalizeIp(ip);
  if (!net.isIPv6(n)) return n;
  const full = expandIpv6(n);
  return `${full.slice(0, 4).join(':')}::/64`;
}

/**
 * The client's network, for limits that a host could dodge by hopping addresses: an IPv4 client by
 * its /24 (one home or one small hosting block), an IPv6 client by its /64 (addressBucket).
 */
export function networkBucket(ip: string): string {
  const n = normalizeIp(ip);
  if (!net.isIPv4(n)) return net.isIPv6(n) ? addressBucket(n) : 'unknown';
  return `${n.split('.').slice(0, 3).join('.')}.0/24`;
}

function expandIpv6(ip: string): string[] {
  const [head, tail] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail !== undefined ? Array(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t].map((g) => g.padStart(4, '0'));
}
