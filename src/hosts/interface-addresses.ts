/**
 * This machine's public addresses as its network interfaces have them: what `server_ips` answers
 * without FARSIGHT_SERVER_IPS (domains.service.ts adds the addresses proven to reach it). Read
 * again after INTERFACES_KEPT_MS: a read costs a quarter of a millisecond, and every GET and PUT
 * of the status page shows them, while an address changes a few times a year (a new lease).
 */
import * as os from 'node:os';
import { isPrivateAddress } from '../probes/judge/private-address';

export const INTERFACES_KEPT_MS = 10_000;

/** What os.networkInterfaces() answers. */
export type InterfaceList = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

export class InterfaceAddresses {
  private kept: { at: number; ips: string[] } | null = null;

  constructor(
    private readonly now: () => number,
    private readonly read: () => InterfaceList = os.networkInterfaces,
  ) {}

  /** The interfaces' addresses that are neither internal nor private, in the interfaces' order. */
  publicOnes(): readonly string[] {
    const now = this.now();
    const kept = this.kept;
    if (kept && now >= kept.at && now - kept.at < INTERFACES_KEPT_MS) return kept.ips;
    const ips: string[] = [];
    for (const list of Object.values(this.read())) {
      for (const a of list ?? []) if (!a.internal && !isPrivateAddress(a.address)) ips.push(a.address);
    }
    this.kept = { at: now, ips };
    return ips;
  }
}
