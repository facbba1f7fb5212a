/**
 * Sends the subscribers' mail queue (subscriber-mail.table.ts) as the alert dispatcher sends the
 * outbox: a due row is claimed with a compare-and-set, sent once over the mail path, and its
 * outcome (delivery row, new state) stored in one transaction; a row left `sending` by a stop is
 * tried again after the next start (at-least-once, one Message-ID per row for receivers to
 * dedupe). Every mail counts in the daily email cap; once it is reached, subscriber mail is not
 * sent that day (the row fails: old news is not worth sending tomorrow).
 *
 * Delivery rows name the subscriber by id, never by address (read keys see the delivery log;
 * addresses are for admin only), and a provider's error that quotes the address is masked.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database } from '../db/database';
import { SECRET_BOX, SecretBox } from '../db/secret-box';
import { ENGINE_TIMERS } from '../engine/engine.service';
import type { Timers } from '../engine/scheduling/scheduler';
import { WakeTimer } from '../common/wake-timer';
import { insertDeliveryIn } from '../mail/deliveries.table';
import type { SendResult } from '../mail/mail-types';
import { MailService } from '../mail/mail.service';
import { StatusPageService } from '../status/settings/status-page.service';
import {
  claimMailIn,
  dueMail,
  MailRow,
  MailToSend,
  nextMailDueAt,
  pruneMailIn,
  retrySendingMailIn,
  settleMailIn,
} from './subscriber-mail.table';
import { confirmMail, NoticePayload, noticeMail, renderSubscriberMail } from './subscriber-mails';
import { dropMailOfIn } from './subscriber-mail.table';
import { pruneUnconfirmedIn, subscriberByIdIn, SubscriberRow } from './subscribers.table';

export const SEND_AT_ONCE = 8;
export const TICK_MS = 30_000;
export const RESEND_AFTER_START_MS = 10_000;
/** Tries of one mail, and the waits between them. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000];
const DAY_MS = 86_400_000;
export const MAIL_KEEP_MS = 30 * DAY_MS;
const PRUNE_EVERY_MS = 3_600_000;

/** What the delivery log calls these rows. */
export const DELIVERY_NAME = 'status page subscribers';

@Injectable()
export class SubscriberDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('subscribers');
  private readonly wakeTimer: WakeTimer;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastPrune = -Infinity;
  private readonly beforeCycle: (() => Promise<void>)[] = [];

  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
    private readonly pages: StatusPageService,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ENGINE_TIMERS) timers: Timers,
  ) {
    this.wakeTimer = new WakeTimer(timers, clock, () => void this.runDue());
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.db.tx((m) => retrySendingMailIn(m, this.clock.now() + RESEND_AFTER_START_MS));
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wakeTimer.stop();
    await this.running;
  }

  /** Work done at the start of every cycle (the maintenance announcements look for new windows). */
  onCycle(fn: () => Promise<void>): void {
    this.beforeCycle.push(fn);
  }

  wake(): void {
    this.schedule(this.clock.now());
  }

  /** Sends what is due now (tests with a fake clock call it after moving the clock). */
  async runDue(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.cycle().finally(() => {
      this.running = null;
    });
    await this.running;
    if (this.again && !this.stopped) {
      this.again = false;
      await this.runDue();
    }
  }

  private schedule(at: number): void {
    this.wakeTimer.schedule(at);
  }

  private async cycle(): Promise<void> {
    try {
      await this.prune();
      for (const fn of this.beforeCycle) await fn();
      for (;;) {
        const due = await dueMail(this.db, this.clock.now(), SEND_AT_ONCE);
        if (due.length === 0) break;
        await Promise.all(due.map((row) => this.attempt(row)));
      }
      const next = await nextMailDueAt(this.db);
      this.schedule(Math.min(next ?? Infinity, this.clock.now() + TICK_MS));
    } catch (err) {
      this.log.error(`subscriber mail failed, trying again in ${TICK_MS / 1000} s: ${errorText(err)}`);
      this.schedule(this.clock.now() + TICK_MS);
    }
  }

  private async attempt(row: MailRow): Promise<void> {
    const claimed = await this.db.tx(async (m) => {
      const mail = await claimMailIn(m, row.id, this.clock.now());
      return mail ? { mail, subscriber: await subscriberByIdIn(m, mail.subscriber_id) } : null;
    });
    if (!claimed) return;
    const { mail, subscriber } = claimed;
    const result = subscriber ? await this.deliver(mail, subscriber) : refused('the subscriber was removed');
    try {
      await this.settle(mail, result);
    } catch (err) {
      await this.db.tx((m) => retrySendingMailIn(m, this.clock.now() + TICK_MS, mail.id)).catch(() => undefined);
      throw err;
    }
  }

  private async deliver(mail: MailToSend, subscriber: SubscriberRow): Promise<SendResult> {
    // Confirmed meanwhile (by a newer link): this confirmation has nothing left to do.
    if (mail.notice_id === null && (subscriber.state === 'confirmed' || !mail.secret))
      return refused('no longer needed: the address is confirmed');
    if (this.mail.transport.providers.length === 0) return refused('mail is not configured (FARSIGHT_SMTP)');
    const cap = await this.mail.cap();
    if (cap.reached) return refused(`email is paused for today: the daily cap of ${cap.cap} messages is reached`);
    const ctx = { pageTitle: (await this.pages.settings()).title, origin: this.config.publicUrl.replace(/\/+$/, '') };
    let rendered;
    try {
      rendered =
        mail.notice_id === null
          ? renderSubscriberMail(
              confirmMail(ctx, this.box.open(mail.secret ?? ''), subscriber.confirm_expires_at ?? this.clock.now()),
            )
          : renderSubscriberMail(
              noticeMail(ctx, JSON.parse(mail.payload ?? '{}') as NoticePayload, this.box.open(subscriber.unsub_token)),
            );
    } catch (err) {
      return refused(`the mail could not be written: ${errorText(err)}`);
    }
    let result: SendResult;
    try {
      result = await this.mail.transport.send({
        to: [subscriber.email],
        messageId: `farsight-subscriber-${mail.id}`,
        ...rendered,
      });
    } catch (err) {
      result = {
        ok: false,
        provider: null,
        status: null,
        error: `the mail path failed (${errorText(err)})`,
        permanent: false,
      };
    }
    return { ...result, error: result.error && result.error.split(subscriber.email).join("the subscriber's address") };
  }

  private async settle(mail: MailToSend, result: SendResult): Promise<void> {
    const now = this.clock.now();
    const wait = RETRY_DELAYS_MS[mail.tries - 1];
    const state = result.ok ? 'sent' : result.permanent || wait === undefined ? 'failed' : 'retrying';
    const what = mail.notice_id === null ? 'confirmation' : `notice: ${mail.kind ?? 'update'}`;
    await this.db.tx(async (m) => {
      await insertDeliveryIn(m, {
        at: now,
        channel_id: null,
        channel_name: DELIVERY_NAME,
        ok: result.ok,
        provider: result.provider,
        status: result.status,
        error: result.error,
        summary: `subscriber ${mail.subscriber_id}: ${what}`,
        outbox_id: null,
        monitor_ids: null,
        // Counted in the daily cap when it was sent (emailsSentSince counts the rows that went out).
        email: true,
      });
      await settleMailIn(m, mail.id, state, state === 'retrying' ? now + wait : mail.due_at, now);
    });
    if (!result.ok) this.log.warn(`subscriber mail ${mail.id}: ${result.error ?? 'failed'} (${state})`);
  }

  /** Once an hour: settled mail older than 30 days goes, and pending subscribers whose link expired. */
  private async prune(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.db.tx(async (m) => {
      await pruneMailIn(m, now - MAIL_KEEP_MS);
      await dropMailOfIn(m, await pruneUnconfirmedIn(m, now));
    });
  }
}

function refused(error: string): SendResult {
  return { ok: false, provider: null, status: null, error, permanent: true };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
