/**
 * The sign-in throttle's rules (spec "Authentication" 7, "Limits"). Pure: the service feeds it
 * counts read from the database and the time.
 *
 * Per address, an IPv6 client by its /64 (one subscriber usually holds a whole /64, so counting
 * single IPv6 addresses would give an attacker 2^64 tries):
 * 1. 5 failed password or code attempts within 15 minutes block the address for 1 hour.
 * 2. The third block within a day (24 hours, rolling) lasts a day.
 * 3. Failures made while blocked are counted on the block, not towards the next one: the count
 *    restarts when a block ends.
 */
import * as net from 'node:net';
import { addressBucket } from '../../common/http/client-ip';
import type { BlockReason } from '../entities/address-block.entity';

export const FAILURE_WINDOW_MS = 15 * 60_000;
export const FAILURES_TO_BLOCK = 5;
export const BLOCK_MS = 3600_000;
export const LADDER_WINDOW_MS = 24 * 3600_000;
export const BLOCKS_FOR_LONG_BLOCK = 3;
export const LONG_BLOCK_MS = 24 * 3600_000;

/** The unit the throttle counts: an IPv4 address, or an IPv6 /64 as `xxxx:xxxx:xxxx:xxxx::/64`. */
export function throttleBucket(ip: string | null | undefined): string {
  return ip ? addressBucket(ip) : 'unknown';
}

/** Failures count from this moment on: the last 15 minutes, but not before the last block ended. */
export function countingFrom(now: number, lastBlockEnd: number | null): number {
  return Math.max(now - FAILURE_WINDOW_MS, lastBlockEnd ?? Number.NEGATIVE_INFINITY);
}

export interface BlockDecision {
  until: number;
  reason: BlockReason;
}

/**
 * After a failure at `now`: `counted` failures since countingFrom (this one included) and
 * `blocksInDay` blocks begun in the last 24 hours (not counting one this failure would start).
 * Returns the block to start, or null.
 */
export function decideBlock(counted: number, blocksInDay: number, now: number): BlockDecision | null {
  if (counted < FAILURES_TO_BLOCK) return null;
  const repeated = blocksInDay + 1 >= BLOCKS_FOR_LONG_BLOCK;
  return { until: now + (repeated ? LONG_BLOCK_MS : BLOCK_MS), reason: repeated ? 'repeated' : 'failures' };
}

/**
 * The `{ip}` of DELETE /me/blocked-ips/{ip}, already URL-decoded: an address, or an IPv6 /64
 * prefix as the list shows it. Any IPv6 address names its /64. Null when it is neither.
 */
export function bucketOfParam(text: string): string | null {
  if (text.length > 60) return null;
  const slash = text.indexOf('/');
  if (slash === -1) return net.isIP(text) ? throttleBucket(text) : null;
  const prefix = text.slice(0, slash);
  if (text.slice(slash) !== '/64' || !net.isIPv6(prefix)) return null;
  return throttleBucket(prefix);
}
