/**
 * Sends what the outbox holds. A due message is claimed with a compare-and-set update (pending or
 * retrying → sending), so two runs never send one message; after the attempt one transaction
 * records the delivery row, the message's new state (sent, retrying at the next time of the
 * schedule, or failed) and the `alert` lines of the incidents it was about. A message that was
 * being sent when the service died is tried again on start: delivery is at-least-once, and every
 * attempt carries the same message id for receivers to dedupe (docs/alerts.md).
 *
 * Also here: reminders while an incident stays open (remind_every_min), and the email daily cap.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { Database } from '../db/database';
import { EngineService, ENGINE_TIMERS } from '../engine/engine.service';
import { openIncidentReminders, setRemindedIn } from '../events/incidents.table';
import { stillAffectedNames } from '../events/incident-affected.table';
import type { Timers } from '../engine/scheduling/scheduler';
import { WakeTimer } from '../common/wake-timer';
import { SettingsService } from '../settings/settings.service';
import { CHECKER_ENV } from '../engine/check-runner';
import type { CheckerEnv } from '../probes/checkers/env';
import { foldAffected, reminderEvent, summarize } from './alert-events';
import { decideAlert, MAX_TRIES, retryAt } from './alert-rules';
import type { Channel } from './channel-body';
import type { AlertEvent, OutboundMessage, SendContext, SendResult } from './channel-kind';
import { MailService } from '../mail/mail.service';
import { insertDeliveryIn, pruneDeliveriesIn } from '../mail/deliveries.table';
import { ChannelsRepository } from './channels.repository';
import { OutboxService } from './outbox.service';
import {
  claimIn,
  dueMessages,
  failQueuedOfIn,
  nextDueAt,
  OutboxRow,
  pruneMessagesIn,
  retrySendingIn,
  settleIn,
} from './outbox.table';
import { senderOf } from './senders/registry';
import { secretValues } from '../common/secrets/secret-fields';
import { thrownBySender } from './sender-failure';

/** Messages sent at once, at most (a slow receiver never holds up the others beyond this). */
export const SEND_CONCURRENCY = 16;
/** A message that was being sent when the service stopped is sent again this long after the next start. */
export const RESEND_AFTER_START_MS = 10_000;
/** How often reminders are looked for, and due messages at the latest. */
export const TICK_MS = 30_000;
const DAY_MS = 86_400_000;
/** Sent and failed messages are kept this long (their delivery rows then show outbox_state null). */
export const OUTBOX_KEEP_MS = 30 * DAY_MS;
const PRUNE_EVERY_MS = 3_600_000;

/** POST /channels/{id}/test answers the attempt's result, without the retry decision. */
export type TestAnswer = Omit<SendResult, 'permanent'>;

@Injectable()
export class DispatcherService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('alerts');
  /** Alert attempts by channel and outcome, keyed `<0|1><channel name>` (alertAttempts). */
  private readonly attempts = new Map<string, { channel: string; ok: boolean; n: number }>();
  private readonly wakeTimer: WakeTimer;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The local day (start, epoch ms) a daily-cap notice went out for. */
  private capNoticeDay: number | null = null;
  private lastPrune = -Infinity;

  constructor(
    private readonly db: Database,
    private readonly channels: ChannelsRepository,
    private readonly outbox: OutboxService,
    private readonly engine: EngineService,
    private readonly settings: SettingsService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ENGINE_TIMERS) timers: Timers,
    @Inject(CHECKER_ENV) private readonly env: CheckerEnv,
  ) {
    this.wakeTimer = new WakeTimer(timers, clock, () => void this.runDue());
    outbox.onCommitted(() => this.wake());
  }

  async onApplicationBootstrap(): Promise<void> {
    // Sent or not, we cannot know: try again (at-least-once; the message id lets receivers dedupe),
    // RESEND_AFTER_START_MS after the start, so a service killed again within seconds of each
    // start (a crash loop) does not send the message once per start.
    await this.db.tx((m) => retrySendingIn(m, this.clock.now() + RESEND_AFTER_START_MS));
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wakeTimer.stop();
    await this.running;
  }

  /** Looks for due messages and reminders now (tests with a fake clock call it after moving the clock). */
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

  private wake(): void {
    this.schedule(this.clock.now());
  }

  private schedule(at: number): void {
    this.wakeTimer.schedule(at);
  }

  private async cycle(): Promise<void> {
    try {
      await this.prune();
      await this.remind();
      for (;;) {
        const now = this.clock.now();
        const due = await dueMessages(this.db, now, SEND_CONCURRENCY);
        if (due.length === 0) break;
        await Promise.all(due.map((row) => this.attempt(row)));
      }
      const next = await nextDueAt(this.db);
      this.schedule(Math.min(next ?? Infinity, this.clock.now() + TICK_MS));
    } catch (err) {
      this.log.error(
        `sending alerts failed, trying again in ${TICK_MS / 1000} s: ${err instanceof Error ? err.message : String(err)}`,
      );
      this.schedule(this.clock.now() + TICK_MS);
    }
  }

  /**
   * Claims one message (compare-and-set) and tries it once. Its events are read in the claiming
   * transaction: once it is `sending` no event joins it, so what is sent is all it holds.
   */
  private async attempt(row: OutboxRow): Promise<void> {
    const claimedAt = this.clock.now();
    const claimed = await this.db.tx(async (m) =>
      (await claimIn(m, row.id, claimedAt))
        ? { tries: row.tries + 1, ...(await this.outbox.messageIn(m, row.id)) }
        : null,
    );
    if (claimed === null) return;
    // One outage, one line: dependants that joined it fold into its event (docs/dependencies.md).
    const events = foldAffected(claimed.events);
    const channel = this.channels.get(row.channel_id);
    let result: SendResult;
    if (!channel) result = refused('the channel was deleted');
    else if (!channel.enabled) result = refused('the channel is disabled');
    else result = await this.deliver(channel, { id: messageId(row.id), events });
    try {
      await this.settle(row, claimed, channel, result);
    } catch (err) {
      // The outcome could not be stored (a full disk): the message is tried again later rather
      // than left `sending` until the next start. Sent or not, the receiver dedupes on its id.
      await this.db.tx((m) => retrySendingIn(m, this.clock.now() + TICK_MS, row.id)).catch(() => undefined);
      throw err;
    }
  }

  private async deliver(channel: Channel, message: OutboundMessage): Promise<SendResult> {
    if (channel.kind === 'email') {
      const cap = await this.mail.cap();
      if (cap.reached) {
        void this.capNotice(cap);
        return refused(`email is paused for today: the daily cap of ${cap.cap} messages is reached`);
      }
    }
    const sender = senderOf(channel.kind);
    try {
      return await sender.send(channel.config, message, await this.context());
    } catch (err) {
      return thrownBySender(err, secretValues(channel.config, sender.secrets));
    }
  }

  /** The attempt's delivery row, the message's new state and its incidents' `alert` lines, in one transaction. */
  private async settle(
    row: OutboxRow,
    message: { tries: number; events: AlertEvent[]; monitorIds: number[]; incidentIds: number[] },
    channel: Channel | undefined,
    result: SendResult,
  ): Promise<void> {
    const { tries, events, incidentIds: incidents } = message;
    const monitorIds = message.monitorIds.length ? JSON.stringify(message.monitorIds) : null;
    const now = this.clock.now();
    const next = result.ok ? null : result.permanent ? null : laterOf(retryAt(tries, now), now, result.retryAfterMs);
    const state = result.ok ? 'sent' : next === null ? 'failed' : 'retrying';
    const channelName = channel?.name ?? `channel ${row.channel_id}`;
    await this.db.tx(async (m) => {
      const { ok, provider, status, error } = result;
      await insertDeliveryIn(m, {
        at: now,
        channel_id: row.channel_id,
        channel_name: channelName,
        ok,
        provider,
        status,
        error,
        summary: summarize(events),
        outbox_id: row.id,
        monitor_ids: monitorIds,
        email: channel?.kind === 'email',
      });
      await settleIn(m, row.id, state, next ?? row.due_at, now);
      const text =
        state === 'sent'
          ? `alert sent to ${channelName}${result.provider ? ` (${result.provider})` : ''}`
          : state === 'failed'
            ? `alert to ${channelName} failed after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${result.error ?? 'unknown error'}`
            : tries === 1
              ? `alert to ${channelName} failed, retrying (up to ${MAX_TRIES} tries): ${result.error ?? 'unknown error'}`
              : null;
      if (text) for (const id of incidents) await this.outbox.alertLine(m, id, null, text, now);
    });
    this.countAttempt(channelName, result.ok);
    if (!result.ok) this.log.warn(`alert ${row.id} to ${channelName}: ${result.error ?? 'failed'} (${state})`);
  }

  /** Counted once its delivery row committed (durable before announced, for GET /metrics as for the log). */
  private countAttempt(channel: string, ok: boolean): void {
    const key = `${ok ? 1 : 0}${channel}`;
    const c = this.attempts.get(key);
    if (c) c.n += 1;
    else this.attempts.set(key, { channel, ok, n: 1 });
  }

  /**
   * Alert attempts since the start, by channel name and outcome (farsight_alerts_total); tests
   * of a channel are not alerts and are not counted.
   */
  alertAttempts(): Iterable<Readonly<{ channel: string; ok: boolean; n: number }>> {
    return this.attempts.values();
  }

  /** POST /channels/{id}/test: one test message (the senders word it), sent now, recorded with monitor_ids null. */
  async test(channel: Channel): Promise<TestAnswer> {
    const now = this.clock.now();
    const result = await this.deliver(channel, { id: `test-${channel.id}-${now}`, events: [], test: true });
    const { ok, provider, status, error } = result;
    await this.db.tx((m) =>
      insertDeliveryIn(m, {
        at: now,
        channel_id: channel.id,
        channel_name: channel.name,
        ok,
        provider,
        status,
        error,
        summary: summarize([], true),
        outbox_id: null,
        monitor_ids: null,
        email: channel.kind === 'email',
      }),
    );
    return { ok: result.ok, provider: result.provider, status: result.status, error: result.error };
  }

  /** Queued messages of a channel that is deleted or disabled fail (they would never be sent). */
  async failPendingOf(channelId: number, reason: string): Promise<void> {
    await this.db.tx((m) => failQueuedOfIn(m, channelId, this.clock.now()));
    this.log.log(`queued alerts of channel ${channelId} failed: ${reason}`);
  }

  /** Once a day when the cap is reached: a notice on the other channels (email is what is paused). */
  private async capNotice(cap: { cap: number; day: number }): Promise<void> {
    if (this.capNoticeDay === cap.day) return;
    this.capNoticeDay = cap.day;
    const emailChannels = this.channels
      .all()
      .filter((c) => c.kind === 'email')
      .map((c) => c.id);
    await this.outbox.notice(
      `Email alerts are paused until tomorrow: the daily cap of ${cap.cap} emails is reached (settings: daily_cap). Other channels still get every alert.`,
      emailChannels,
    );
  }

  /**
   * Once an hour: messages done more than 30 days ago go, and delivery rows older than the
   * timeline's retention (settings retention.events_days).
   */
  private async prune(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const days = (await this.settings.get()).retention.events_days;
    await this.db.tx(async (m) => {
      await pruneMessagesIn(m, now - OUTBOX_KEEP_MS);
      await pruneDeliveriesIn(m, now - days * DAY_MS);
    });
  }

  /** Reminders: every remind_every_min while an incident stays open (not while muted, paused, flapping or in maintenance). */
  private async remind(): Promise<void> {
    const now = this.clock.now();
    const open = await openIncidentReminders(this.db);
    const targets = this.channels.targets();
    for (const i of open) {
      const c = this.engine.configOf(i.monitor_id);
      if (!c || c.remind_every_min <= 0) continue;
      // Paused while a maintenance window holds the monitor; due again as soon as it ends (docs/maintenance.md).
      if (this.engine.maintenance.markOf(i.monitor_id)) continue;
      if (now < (i.reminded_at ?? i.down_at) + c.remind_every_min * 60_000) continue;
      const flapping = this.engine.stateOf(i.monitor_id)?.flapping === 1;
      const d = decideAlert('reminder', c, flapping, targets, now);
      const error = i.last_error_code ? { code: i.last_error_code, message: i.last_error_message ?? '' } : null;
      await this.db.tx(async (m) => {
        await setRemindedIn(m, i.id, now);
        if (d.kind === 'send') {
          const event = reminderEvent(
            i.monitor_id,
            c,
            i.down_at,
            now,
            error,
            i.id,
            await stillAffectedNames(this.db, i.id),
          );
          for (const ch of d.channelIds)
            await this.outbox.enqueueIn(m, ch, event, { monitorId: i.monitor_id, incidentId: i.id }, now);
        } else if (d.kind === 'muted') {
          await this.outbox.alertLine(m, i.id, i.monitor_id, `reminder not sent: ${c.name} is muted`, now);
        }
      });
    }
  }

  private async context(): Promise<SendContext> {
    const s = await this.settings.get();
    const ca = typeof this.env.ca === 'string' ? this.env.ca : undefined;
    return {
      allowPrivate: s.allow_private_targets,
      publicUrl: this.config.publicUrl,
      mail: this.mail.transport,
      ca,
      apis: this.config.serviceApis,
    };
  }
}

/** The id receivers dedupe on: the same on every attempt of one message. */
export function messageId(outboxId: number): string {
  return `farsight-alert-${outboxId}`;
}

/**
 * The schedule's next try, or later when the service asked for a longer wait (capped at a day, so
 * a hostile answer cannot park a message for ever); null (give up) stays null.
 */
export function laterOf(scheduled: number | null, now: number, retryAfterMs: number | undefined): number | null {
  if (scheduled === null || retryAfterMs === undefined) return scheduled;
  return Math.max(scheduled, now + Math.min(retryAfterMs, DAY_MS));
}

function refused(error: string): SendResult {
  return { ok: false, provider: null, status: null, error, permanent: true };
}
