/**
 * The canaries of the local network: the default gateway and the system's DNS resolvers. They
 * join the default (internet) canaries when FARSIGHT_CANARIES is unset, so a LAN without internet
 * still has something whose loss means "the network is gone". Parsers are pure; only
 * `localCanaries` reads files.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import type { Canary } from './canaries';

export const ROUTE_FILE = '/proc/net/route';
/** The second file is systemd-resolved's list of upstream servers, when /etc/resolv.conf names only its local stub. */
export const RESOLV_FILES = ['/etc/resolv.conf', '/run/systemd/resolve/resolv.conf'];
const RTF_UP = 0x1;
const RTF_GATEWAY = 0x2;

/** The default IPv4 gateway in a /proc/net/route table (lowest metric wins), or null. */
export function parseDefaultGateway(table: string): string | null {
  let best: { ip: string; metric: number } | null = null;
  for (const line of table.split('\n').slice(1)) {
    const [, dest, gateway, flags, , , metric, mask] = line.trim().split(/\s+/);
    if (dest !== '00000000' || mask !== '00000000' || !gateway || !/^[0-9A-Fa-f]{8}$/.test(gateway)) continue;
    const f = parseInt(flags, 16);
    if ((f & RTF_UP) === 0 || (f & RTF_GATEWAY) === 0) continue;
    // The kernel prints the address in host byte order: little-endian on every machine we run on.
    const ip = [3, 2, 1, 0].map((i) => parseInt(gateway.slice(i * 2, i * 2 + 2), 16)).join('.');
    if (ip === '0.0.0.0') continue;
    const m = Number(metric) || 0;
    if (!best || m < best.metric) best = { ip, metric: m };
  }
  return best?.ip ?? null;
}

/**
 * The `nameserver` addresses of a resolv.conf, minus loopback ones: a local stub resolver
 * (systemd-resolved's 127.0.0.53, dnsmasq on 127.0.0.1) always answers and so says nothing
 * about the network.
 */
export function parseNameservers(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*nameserver\s+(\S+)/.exec(line);
    if (!m) continue;
    const ip = m[1];
    const bare = ip.split('%')[0];
    if (!net.isIP(bare) || isLoopbackOrAny(bare)) continue;
    if (!out.includes(ip)) out.push(ip);
  }
  return out;
}

function isLoopbackOrAny(ip: string): boolean {
  return ip.startsWith('127.') || ip === '0.0.0.0' || ip === '::1' || ip === '::';
}

/** Gateway (port 53, where home routers run their DNS forwarder; a refusal also counts) and resolvers (port 53). */
export function localCanaries(read: (file: string) => string | null = readOrNull): Canary[] {
  const out: Canary[] = [];
  const gateway = parseDefaultGateway(read(ROUTE_FILE) ?? '');
  if (gateway) out.push({ host: gateway, port: 53, refusedAnswers: true, role: 'gateway' });
  for (const file of RESOLV_FILES) {
    for (const ip of parseNameservers(read(file) ?? '')) {
      if (!out.some((c) => c.host === ip)) out.push({ host: ip, port: 53, role: 'resolver' });
    }
  }
  return out;
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
