/**
 * Two network namespaces made by a test, joined by a veth pair (the "uplink"):
 *
 *   SVC  the service's host: lo, `up0` 198.51.100.1/24, default route via 198.51.100.2,
 *        /etc/netns/<SVC>/resolv.conf naming 198.51.100.2 (ip netns exec mounts it over /etc/resolv.conf)
 *   NET  "the internet": `up1` 198.51.100.2/24, and the documentation prefix 203.0.113.0/24 on lo,
 *        where the canaries, targets, DNS server and alert receiver of ns-farm.ts listen
 *
 * Every address is inside these namespaces (RFC 5737 documentation ranges): nothing is routed
 * to or from the machine's own network, and the test's namespace gets no address, route or link.
 * The test talks to processes inside through unix sockets (bridges), which namespaces do not
 * separate. Needs root (CAP_NET_ADMIN); `available()` says why not when it is not.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

export const SVC_ADDR = '198.51.100.1';
export const NET_ADDR = '198.51.100.2';
export const NET_PREFIX = '203.0.113';

export interface Namespaces {
  svc: string;
  net: string;
  /** Takes the far end of the uplink down (carrier lost: packets vanish, connections time out). */
  cut(): void;
  restore(): void;
  /** Breaks the route to one address only (the rest of the uplink works). */
  breakRoute(ip: string): void;
  remove(): void;
}

/** Null when namespaces can be made here, else the reason. */
export function unavailable(): string | null {
  if (process.getuid?.() !== 0) return 'not root: making network namespaces needs CAP_NET_ADMIN (CI runs as root)';
  const ip = spawnSync('ip', ['-V'], { encoding: 'utf8' });
  if (ip.status !== 0) return 'the `ip` command (Debian package iproute2) is missing: scripts/test-deps.sh installs it';
  return null;
}

function run(args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export function makeNamespaces(tag: string): Namespaces {
  const svc = `fs-${tag}-svc`;
  const net = `fs-${tag}-net`;
  const resolvDir = `/etc/netns/${svc}`;
  const remove = () => {
    for (const ns of [svc, net]) spawnSync('ip', ['netns', 'del', ns]);
    fs.rmSync(resolvDir, { recursive: true, force: true });
  };
  remove();
  try {
    run(['netns', 'add', svc]);
    run(['netns', 'add', net]);
    for (const ns of [svc, net]) run(['-n', ns, 'link', 'set', 'lo', 'up']);
    run(['-n', svc, 'link', 'add', 'up0', 'type', 'veth', 'peer', 'name', 'up1', 'netns', net]);
    run(['-n', svc, 'addr', 'add', `${SVC_ADDR}/24`, 'dev', 'up0']);
    run(['-n', net, 'addr', 'add', `${NET_ADDR}/24`, 'dev', 'up1']);
    run(['-n', net, 'addr', 'add', `${NET_PREFIX}.0/24`, 'dev', 'lo']);
    run(['-n', svc, 'link', 'set', 'up0', 'up']);
    run(['-n', net, 'link', 'set', 'up1', 'up']);
    run(['-n', svc, 'route', 'add', 'default', 'via', NET_ADDR]);
    fs.mkdirSync(resolvDir, { recursive: true });
    fs.writeFileSync(`${resolvDir}/resolv.conf`, `nameserver ${NET_ADDR}\noptions timeout:1 attempts:1\n`);
  } catch (err) {
    remove();
    throw err;
  }
  return {
    svc,
    net,
    cut: () => run(['-n', net, 'link', 'set', 'up1', 'down']),
    restore: () => run(['-n', net, 'link', 'set', 'up1', 'up']),
    breakRoute: (ip) => run(['-n', svc, 'route', 'add', 'unreachable', `${ip}/32`]),
    remove,
  };
}
