/**
 * The sign-in throttle (rules in throttle.ts), kept in the database so a restart lifts no block.
 *
 * How the sign-in flows use it, so a blocked address gets exactly the answer of a wrong
 * password, by the same path:
 * 1. check the credentials as always (the same scrypt, the same lookups);
 * 2. inside the flow's transaction, ask `blockedIn`: blocked counts as wrong;
 * 3. on a wrong answer call `failed` (a failure while blocked is counted on the block), on a
 *    complete sign-in `clearIn` (the address proved itself: its count restarts).
 * Passkey sign-in never asks (spec: never blocked by address).
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager, MoreThan } from 'typeorm';
import { ApiError, invalidField } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import { UpkeepJob } from '../../common/upkeep';
import { ID_CURSOR, Page, pageQuery, toPage } from '../../common/http/paging';
import { formatDuration, toIso } from '../../common/time';
import { Database } from '../../db/database';
import { EventsService } from '../../events/events.service';
import { AddressBlockEntity, BlockReason } from '../entities/address-block.entity';
import { SessionsService } from '../sessions/sessions.service';
import { LADDER_WINDOW_MS, bucketOfParam, countingFrom, decideBlock, throttleBucket } from './throttle';

/** An item of GET /me/blocked-ips (docs/security.md "Throttling"). */
export interface BlockedAddress {
  /** The address, or for IPv6 the /64 it belongs to, e.g. `2001:0db8:0001:0002::/64`. */
  ip: string;
  blocked_at: string;
  blocked_until: string;
  /** Failed attempts: the 5 that caused the block and any made while it lasts. */
  failures: number;
  /** `failures`: 5 failures in 15 minutes (1 hour); `repeated`: the third block within a day (1 day). */
  reason: BlockReason;
}

function toBlockedAddress(b: AddressBlockEntity): BlockedAddress {
  return {
    ip: b.bucket,
    blocked_at: toIso(b.blocked_at),
    blocked_until: toIso(b.blocked_until),
    failures: b.failures,
    reason: b.reason,
  };
}

const PRUNE_EVERY_MS = 3600_000;

@Injectable()
export class ThrottleService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('throttle');
  private readonly pruning = new UpkeepJob('sign-in prune', { everyMs: PRUNE_EVERY_MS }, () => this.prune());

  constructor(
    private readonly db: Database,
    private readonly events: EventsService,
    private readonly sessions: SessionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.pruning.start();
  }

  onApplicationShutdown(): void {
    this.pruning.stop();
  }

  /** Whether the address is blocked at `now`, read inside the caller's transaction. */
  async blockedIn(m: EntityManager, ip: string | null | undefined, now: number): Promise<boolean> {
    const n = await m.countBy(AddressBlockEntity, { bucket: throttleBucket(ip), blocked_until: MoreThan(now) });
    return n > 0;
  }

  /** Records a failed password or code attempt; the fifth within 15 minutes starts a block. */
  async failed(ip: string | null | undefined): Promise<void> {
    const bucket = throttleBucket(ip);
    const now = this.clock.now();
    await this.db.tx(async (m) => {
      await m.query('INSERT INTO sign_in_failures (bucket, at) VALUES (?, ?)', [bucket, now]);
      const last = await m.findOne(AddressBlockEntity, { where: { bucket }, order: { blocked_until: 'DESC' } });
      if (last && last.blocked_until > now) {
        await m.increment(AddressBlockEntity, { id: last.id }, 'failures', 1);
        return;
      }
      const from = countingFrom(now, last?.blocked_until ?? null);
      const [{ counted }] = await m.query<{ counted: number }[]>(
        'SELECT COUNT(*) AS counted FROM sign_in_failures WHERE bucket = ? AND at >= ?',
        [bucket, from],
      );
      const blocksInDay = await m.countBy(AddressBlockEntity, { bucket, blocked_at: MoreThan(now - LADDER_WINDOW_MS) });
      const block = decideBlock(counted, blocksInDay, now);
      if (!block) return;
      await m.save(
        m.create(AddressBlockEntity, {
          bucket,
          blocked_at: now,
          blocked_until: block.until,
          failures: counted,
          reason: block.reason,
        }),
      );
      const why =
        block.reason === 'repeated'
          ? 'its third block within a day'
          : `${counted} failed sign-in attempts within 15 min`;
      await this.events.recordIn(m, {
        kind: 'address_blocked',
        text: `${bucket} blocked for ${formatDuration(block.until - now)} after ${why}`,
        actor: 'system',
        data: { ip: bucket, until: block.until, reason: block.reason },
      });
      this.log.warn(`sign-in blocked for ${bucket} until ${toIso(block.until)} (${block.reason})`);
    });
  }

  /** A complete sign-in from this address: its failures are forgotten (blocks stay on the ladder). */
  async clearIn(m: EntityManager, ip: string | null | undefined): Promise<void> {
    await m.query('DELETE FROM sign_in_failures WHERE bucket = ?', [throttleBucket(ip)]);
  }

  /** GET /me/blocked-ips: the addresses blocked now, newest block first. */
  async list(query: Record<string, unknown>): Promise<Page<BlockedAddress>> {
    const { limit, before } = pageQuery(query, ID_CURSOR);
    const qb = this.db.manager
      .createQueryBuilder(AddressBlockEntity, 'b')
      .where('b.blocked_until > :now', { now: this.clock.now() })
      .orderBy('b.id', 'DESC')
      .limit(limit + 1);
    if (before !== null) qb.andWhere('b.id < :before', { before });
    return toPage(await qb.getMany(), limit, toBlockedAddress, (b) => ID_CURSOR.format(b.id));
  }

  /**
   * DELETE /me/blocked-ips/{ip}: lifts the block and forgets the address's failures and earlier
   * blocks (the owner vouches for it: its ladder starts again).
   */
  async unblock(param: string): Promise<void> {
    const bucket = bucketOfParam(param);
    if (!bucket) throw invalidField('ip', 'must be an IP address, or an IPv6 /64 prefix as the list shows it');
    const now = this.clock.now();
    await this.db.tx(async (m) => {
      const active = await m.countBy(AddressBlockEntity, { bucket, blocked_until: MoreThan(now) });
      if (active === 0) throw new ApiError('not_found', `${bucket} is not blocked`);
      await m.delete(AddressBlockEntity, { bucket });
      await m.query('DELETE FROM sign_in_failures WHERE bucket = ?', [bucket]);
      await this.events.recordIn(m, {
        kind: 'address_unblocked',
        text: `${bucket} unblocked`,
        actor: 'owner',
        data: { ip: bucket },
      });
    });
  }

  /**
   * Forgets what no rule looks at any more: failures and ended blocks older than a day, spent or
   * expired tickets and authenticator setups, expired sessions.
   */
  async prune(): Promise<void> {
    const now = this.clock.now();
    await this.db.tx(async (m) => {
      await m.query('DELETE FROM sign_in_failures WHERE at <= ?', [now - LADDER_WINDOW_MS]);
      await m.query('DELETE FROM address_blocks WHERE blocked_until <= ? AND blocked_at <= ?', [
        now,
        now - LADDER_WINDOW_MS,
      ]);
      await m.query('DELETE FROM sign_in_tickets WHERE expires_at <= ?', [now]);
      await m.query('DELETE FROM totp_setups WHERE expires_at <= ?', [now]);
    });
    await this.sessions.pruneExpired();
  }
}
