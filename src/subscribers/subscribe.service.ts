/**
 * What a visitor of the status page does: subscribe (an address, the bot challenge, the
 * throttle), confirm by the mailed link, unsubscribe by the link every mail carries
 * (docs/subscribers.md).
 *
 * Subscribing never says whether an address is known: every accepted request is answered the
 * same 202 after the same steps (the challenge, one transaction), and the mail is written to
 * the queue, never sent while the visitor waits, so the answer's time does not depend on it.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ChallengeService } from '../auth/sign-in/challenge.service';
import { CLOCK, Clock } from '../common/clock';
import { randomToken, sha256 } from '../common/access/tokens';
import { ApiError } from '../common/http/api-error';
import { networkBucket, normalizeIp } from '../common/http/client-ip';
import { RateLimiter } from '../common/http/limits/rate-limit';
import { Database } from '../db/database';
import { SECRET_BOX, SecretBox } from '../db/secret-box';
import { StatusPageService } from '../status/settings/status-page.service';
import { dropMailOfIn, queueConfirmIn } from './subscriber-mail.table';
import {
  CONFIRM_TTL_MS,
  confirmLinkState,
  HOUR_MS,
  isTokenShape,
  LinkState,
  parseSubscribeBody,
  PER_ADDRESS_PER_HOUR,
  PER_NETWORK_PER_HOUR,
} from './subscriber-rules';
import {
  confirmIn,
  deleteSubscriberIn,
  insertSubscriberIn,
  renewConfirmIn,
  subscriberByConfirmHashIn,
  subscriberByEmailIn,
  subscriberByUnsubHashIn,
} from './subscribers.table';
import { SubscriberDispatcher } from './subscriber-dispatcher.service';

export const SUBSCRIBE_ANSWER = {
  accepted: true,
  message: 'If this address can take mail, a confirmation link is on its way. It works for 48 hours.',
} as const;

@Injectable()
export class SubscribeService {
  private readonly perAddress = new RateLimiter(PER_ADDRESS_PER_HOUR, HOUR_MS);
  private readonly perNetwork = new RateLimiter(PER_NETWORK_PER_HOUR, HOUR_MS);
  private lastSweep = 0;

  constructor(
    private readonly db: Database,
    private readonly pages: StatusPageService,
    private readonly challenge: ChallengeService,
    private readonly dispatcher: SubscriberDispatcher,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** 404 while the page is not published, 403 while it takes no subscribers. */
  async assertOpen(): Promise<void> {
    const s = await this.pages.settings();
    if (!s.enabled) throw ApiError.notFound('status page');
    if (!s.subscribers) throw new ApiError('forbidden', 'this status page does not take subscribers');
  }

  /** POST /api/public/subscribe and the page's form: throws the envelope's errors, else accepted. */
  async subscribe(body: unknown, ip: string | null, form = false): Promise<void> {
    await this.assertOpen();
    const parsed = parseSubscribeBody(body, form);
    if (!parsed.ok) throw ApiError.invalid(parsed.errors);
    const { email, challenge } = parsed.value;
    const now = this.clock.now();
    this.sweep(now);
    // The network first: a flood from many addresses of one network stops there, before the
    // per-address buckets (one per address tried) grow.
    const network = this.perNetwork.take(networkBucket(ip ?? ''), now);
    const address = network.ok ? this.perAddress.take(email, now) : network;
    if (!address.ok)
      throw new ApiError('too_many_requests', 'too many subscription requests; try again later', {
        headers: { 'Retry-After': String(address.retryAfterS) },
      });
    await this.challenge.verify(challenge, normalizeIp(ip ?? ''));
    const token = randomToken();
    await this.db.tx(async (m) => {
      const row = await subscriberByEmailIn(m, email);
      // Confirmed already: nothing to send (a second confirmation would only let a stranger
      // mail them); the answer is the same.
      if (row?.state === 'confirmed') return;
      const hash = sha256(token);
      const expires = now + CONFIRM_TTL_MS;
      let id: number;
      if (row) {
        id = row.id;
        await renewConfirmIn(m, id, hash, expires);
      } else {
        const unsub = randomToken();
        id = await insertSubscriberIn(m, {
          email,
          state: 'pending',
          confirm_hash: hash,
          confirm_expires_at: expires,
          confirm_used_at: null,
          unsub_hash: sha256(unsub),
          unsub_token: this.box.seal(unsub),
          created_at: now,
          confirmed_at: null,
        });
      }
      await queueConfirmIn(m, id, this.box.seal(token), now);
    });
    this.dispatcher.wake();
  }

  /** GET /status/subscription/{token}: what the link did. */
  async confirm(token: string): Promise<LinkState> {
    if (!isTokenShape(token)) return 'unknown';
    const now = this.clock.now();
    return this.db.tx(async (m) => {
      const row = await subscriberByConfirmHashIn(m, sha256(token));
      const state = confirmLinkState(row, now);
      if (state !== 'valid' || !row) return state;
      // The compare-and-set: of two clicks at once, one confirms and the other reads it as used.
      return (await confirmIn(m, row.id, now)) ? 'valid' : 'used';
    });
  }

  /** Whether the unsubscribe link names a subscriber now (GET shows the button only then). */
  async knowsUnsubscribe(token: string): Promise<boolean> {
    if (!isTokenShape(token)) return false;
    return this.db.tx(async (m) => (await subscriberByUnsubHashIn(m, sha256(token))) !== undefined);
  }

  /** POST /status/unsubscribe/{token}: true when it removed someone, false when nobody had it (gone already). */
  async unsubscribe(token: string): Promise<boolean> {
    if (!isTokenShape(token)) return false;
    return this.db.tx(async (m) => {
      const row = await subscriberByUnsubHashIn(m, sha256(token));
      if (!row) return false;
      await this.removeIn(m, row.id);
      return true;
    });
  }

  /** A subscriber goes with every mail still queued for them. */
  async removeIn(m: EntityManager, id: number): Promise<boolean> {
    await dropMailOfIn(m, [id]);
    return deleteSubscriberIn(m, id);
  }

  /** The throttle's buckets are swept now and then, so the maps do not grow with addresses that went away. */
  private sweep(now: number): void {
    if (now - this.lastSweep < HOUR_MS) return;
    this.lastSweep = now;
    this.perAddress.sweep(now);
    this.perNetwork.sweep(now);
  }
}
