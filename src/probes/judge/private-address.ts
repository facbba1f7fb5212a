/**
 * Which addresses count as private targets (allow_private_targets = false refuses them).
 * Decided on the address actually connected to, so every form of an address must be
 * recognised: an IPv6 address that carries an IPv4 address (mapped, compatible, translated,
 * NAT64, 6to4, Teredo) reaches that IPv4 address, so it is judged by it, whatever the spelling
 * (upper case, zero-padded groups, a dotted-quad tail).
 */
import { isIPv4, isIPv6 } from 'node:net';

type Prefix = [bytes: number[], bits: number];

const PRIVATE_V4: Prefix[] = [
  [[0, 0, 0, 0], 8], // "this network": connecting to 0.0.0.0 reaches the local host
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 168, 0, 0], 16],
];

const PRIVATE_V6: Prefix[] = [
  [[...zeros(16)], 128], // ::
  [[...zeros(15), 1], 128], // ::1
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local: deprecated (RFC 3879) but still routed inside some sites
  [[0xfc], 7], // unique-local
  // Local-use NAT64 (RFC 8215): its operator may lay it out at any RFC 6052 length from /48 to
  // /96, so where the IPv4 sits cannot be read from the address; all of it is inside the site.
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48],
];

/** IPv6 forms that carry an IPv4 address, and where it sits (`from`, 4 bytes; `inverted`: Teredo). */
const EMBEDDED_V4: { prefix: Prefix; from: number; inverted?: true }[] = [
  { prefix: [[...zeros(10), 0xff, 0xff], 96], from: 12 }, // IPv4-mapped ::ffff:a.b.c.d
  { prefix: [[...zeros(8), 0xff, 0xff], 96], from: 12 }, // IPv4-translated ::ffff:0:a.b.c.d (SIIT)
  { prefix: [[...zeros(12)], 96], from: 12 }, // IPv4-compatible ::a.b.c.d (deprecated; :: and ::1 too)
  { prefix: [[0, 0x64, 0xff, 0x9b], 96], from: 12 }, // NAT64 well-known prefix 64:ff9b::a.b.c.d
  { prefix: [[0x20, 0x02], 16], from: 2 }, // 6to4 2002:AABB:CCDD::/48
  { prefix: [[0x20, 0x01, 0, 0], 32], from: 12, inverted: true }, // Teredo: the client's address, bits inverted
];

/** True for loopback, private, link-local, site-local, unique-local, unspecified and CGNAT addresses. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) does not change the address
  if (isIPv4(address)) return matchesAny(ipv4Bytes(address), PRIVATE_V4);
  if (!isIPv6(address)) return false;
  const bytes = ipv6Bytes(address);
  if (matchesAny(bytes, PRIVATE_V6)) return true;
  return EMBEDDED_V4.some(({ prefix, from, inverted }) => {
    if (!inPrefix(bytes, prefix)) return false;
    const v4 = bytes.slice(from, from + 4);
    return matchesAny(inverted ? v4.map((b) => b ^ 0xff) : v4, PRIVATE_V4);
  });
}

function matchesAny(bytes: number[], prefixes: Prefix[]): boolean {
  return prefixes.some((prefix) => inPrefix(bytes, prefix));
}

function inPrefix(bytes: number[], [prefix, bits]: Prefix): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const width = Math.min(8, bits - bit);
    const mask = (0xff << (8 - width)) & 0xff;
    const index = bit / 8;
    if ((bytes[index] & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** Expands an address that isIPv6 accepted (with `::` and an optional dotted IPv4 tail). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Bytes(dotted[1]);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

function zeros(n: number): number[] {
  return Array<number>(n).fill(0);
}
