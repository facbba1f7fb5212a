/**
 * The service's one mail path, below every module that sends mail: the providers (primary, then
 * fallback; mail-transport.ts), the daily cap, the `settings.email` status, and the owner's own
 * mail (sign-in notices, password-reset links).
 *
 * The daily cap counts every email sent today (local day of tz_offset_min) and pauses alert
 * emails once reached (the dispatcher asks `cap()`). The owner's own mail counts too but is never
 * paused: a reset link must arrive on the day the alert storm used the cap up. Callers limit how
 * often the owner's mail can be triggered (auth limits reset mails per hour).
 *
 * Every owner mail is one row of the delivery log (channel_id and monitor_ids null), so the owner
 * sees in one place whether sign-in notices leave. Without a mail provider nothing is attempted and
 * no row is written: a fresh install has chosen no mail yet, which is a state (diagnostics'
 * `email.note`), not a failed delivery.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database } from '../db/database';
import { SettingsService } from '../settings/settings.service';
import { emailsSentSince, insertDeliveryIn } from './deliveries.table';
import type { MailTransport, SendResult } from './mail-types';
import type { RenderedMail } from './owner-mail';

export const MAIL_TRANSPORT = Symbol('MailTransport');

const DAY_MS = 86_400_000;

export const MAIL_NOT_CONFIGURED =
  'mail is not configured: set FARSIGHT_SMTP (and FARSIGHT_MAIL_FROM) to get sign-in notices, password-reset links and email alerts';

/** `settings.email` (spec "Settings object"). */
export interface EmailStatus {
  configured: boolean;
  providers: string[];
  from: string;
  daily_cap: number;
  sent_today: number;
}

export interface EmailCap {
  sent: number;
  cap: number;
  reached: boolean;
  /** Start of the local day the count covers (epoch ms). */
  day: number;
}

/** What kind of owner mail this is: names its delivery row. */
export type OwnerMailKind = 'sign_in' | 'reset';

const ROW_NAMES: Record<OwnerMailKind, string> = { sign_in: 'sign-in notice', reset: 'password reset' };

@Injectable()
export class MailService {
  private readonly log = new Logger('mail');
  private seq = 0;

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    @Inject(MAIL_TRANSPORT) readonly transport: MailTransport,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Emails sent today (local day of tz_offset_min) and the cap. */
  async cap(): Promise<EmailCap> {
    const s = await this.settings.get();
    const now = this.clock.now();
    const offset = s.tz_offset_min * 60_000;
    const day = Math.floor((now + offset) / DAY_MS) * DAY_MS - offset;
    const n = await emailsSentSince(this.db, day);
    return { sent: n, cap: s.daily_cap, reached: n >= s.daily_cap, day };
  }

  async status(): Promise<EmailStatus> {
    const cap = await this.cap();
    return {
      configured: this.transport.providers.length > 0,
      providers: [...this.transport.providers],
      from: this.config.mailFrom,
      daily_cap: cap.cap,
      sent_today: cap.sent,
    };
  }

  /** Why mail cannot be sent, in words naming the variables, or null when a provider is configured. */
  notConfiguredNote(): string | null {
    return this.transport.providers.length > 0 ? null : MAIL_NOT_CONFIGURED;
  }

  /**
   * Sends one mail to the owner now and records the attempt in the delivery log. Never throws: a
   * failure is logged (without secrets) and answered. One attempt over every provider; the owner's
   * mail is not queued for retries (a stale sign-in notice or reset link is worse than none, and
   * the delivery log shows the failure). Null: not attempted, no provider is configured.
   */
  async sendOwner(kind: OwnerMailKind, to: string, mail: RenderedMail, summary: string): Promise<SendResult | null> {
    if (this.transport.providers.length === 0) {
      this.log.debug(`${ROW_NAMES[kind]} email not sent: mail is not configured`);
      return null;
    }
    const at = this.clock.now();
    const messageId = `farsight-${kind.replace('_', '-')}-${at}-${++this.seq}`;
    let result: SendResult;
    try {
      result = await this.transport.send({
        to: [to],
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId,
      });
    } catch (err) {
      // The transport answers every provider's failure, masked; what escapes it is a bug whose
      // message may quote the mail URL's password: named by its kind only, never quoted.
      result = {
        ok: false,
        provider: null,
        status: null,
        error: `the mail path failed unexpectedly (${err instanceof Error ? err.name : 'unknown error'})`,
        permanent: false,
      };
    }
    try {
      const { ok, provider, status, error } = result;
      await this.db.tx((m) =>
        insertDeliveryIn(m, {
          at: this.clock.now(),
          channel_id: null,
          channel_name: ROW_NAMES[kind],
          ok,
          provider,
          status,
          error,
          summary,
          outbox_id: null,
          monitor_ids: null,
          email: true,
        }),
      );
    } catch (err) {
      this.log.error(
        `could not record the ${ROW_NAMES[kind]} email: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!result.ok) this.log.warn(`${ROW_NAMES[kind]} email not sent: ${result.error ?? 'failed'}`);
    return result;
  }
}
