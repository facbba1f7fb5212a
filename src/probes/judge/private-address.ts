/**
 * Which addresses count as private targets (allow_private_targets = false refuses them).
 * Decided on the address actually connected to, so every form of an address must be
 * recognised: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) and NAT64 (`64:ff9b::10.0.0.1`) reach the
 * IPv4 address inside them.
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
  [[0xfc], 7], // unique-local
];

const MAPPED_V4: Prefix[] = [
  [[...zeros(10), 0xff, 0xff], 96], // ::ffff:a.b.c.d
  [[0, 0x64, 0xff, 0x9b, ...zeros(8)], 96], // NAT64 well-known prefix
];

/** True for loopback, private, link-local, unique-local, unspecified and CGNAT addresses. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) does not change the address
  if (isIPv4(address)) return matchesAny(ipv4Bytes(address), PRIVATE_V4);
  if (!isIPv6(address)) return false;
  const bytes = ipv6Bytes(address);
  if (MAPPED_V4.some((prefix) => inPrefix(bytes, prefix))) {
    return matchesAny(bytes.slice(12), PRIVATE_V4);
  }
  return matchesAny(bytes, PRIVATE_V6);
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
