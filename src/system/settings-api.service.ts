/**
 * GET and PATCH /settings: the stored settings (settings/) with the values shown beside them
 * (email status from mail/, the owner's email, the public URL from the environment). A change is
 * one transaction with its timeline line naming who made it and what changed (old and new values:
 * no setting is a secret).
 */
import { Inject, Injectable } from '@nestjs/common';
import { MASK } from '../common/secrets/secrets';
import { isSealed, SECRET_BOX, SecretBox } from '../db/secret-box';
import { WatchdogService } from './watchdog/watchdog.service';
import { ApiError } from '../common/http/api-error';
import { actorName, Caller } from '../common/access/caller';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database } from '../db/database';
import { EventsService } from '../events/events.service';
import { MailService } from '../mail/mail.service';
import type { Settings, StoredSettings } from '../settings/settings-defaults';
import { describeChanges, planSettingsPatch, ReadOnlyValues, SettingChange } from '../settings/settings-patch';
import { SettingsService } from '../settings/settings.service';

/** The settings object (spec "Settings object"), plus `allow_private_targets` and `metrics_public` (docs/settings.md). */
export interface SettingsAnswer {
  defaults: Settings['defaults'];
  tz_offset_min: number;
  email: { configured: boolean; providers: string[]; from: string; daily_cap: number; sent_today: number };
  owner_email: string | null;
  public_url: string;
  retention: Settings['retention'];
  allow_private_targets: boolean;
  metrics_public: boolean;
  /** The URL is a secret: always `********` here. */
  watchdog: { url: string; interval_s: number } | null;
}

@Injectable()
export class SettingsApiService {
  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    private readonly mail: MailService,
    private readonly events: EventsService,
    private readonly watchdog: WatchdogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async get(): Promise<SettingsAnswer> {
    return toAnswer(await this.settings.get(), await this.shown());
  }

  /**
   * Checked against the settings as read, then written in one transaction with its timeline line.
   * When another change committed in between, the body is checked again over it inside the
   * transaction, so two PATCHes of different keys sent together both stay.
   */
  async patch(body: unknown, caller: Caller): Promise<SettingsAnswer> {
    const shown = await this.shown();
    const seen = await this.settings.get();
    const first = checked(body, seen, shown, caller);
    if (first.changes.length > 0) {
      await this.db.tx(async (m) => {
        // The cache is dropped by every write, so this is what is stored now.
        const current = await this.settings.get();
        const plan = current === seen ? first : checked(body, current, shown, caller);
        if (plan.changes.length === 0) return;
        // The watchdog's URL is a secret: sealed at rest like the monitors' secrets.
        const w = plan.next.watchdog;
        const next =
          w && !isSealed(w.url) ? { ...plan.next, watchdog: { ...w, url: this.box.seal(w.url) } } : plan.next;
        await this.settings.saveChangedIn(m, current, next);
        await this.events.recordIn(m, {
          kind: 'settings_changed',
          text: `settings changed: ${describeChanges(plan.changes)}`,
          actor: actorName(caller),
          data: { changes: plan.changes },
        });
      });
      if (first.changes.some((c) => c.field.startsWith('watchdog.'))) this.watchdog.changed();
    }
    return this.get();
  }

  private async shown(): Promise<ReadOnlyValues> {
    const status = await this.mail.status();
    const [owner] = await this.db.read<{ email: string }[]>('SELECT email FROM owner LIMIT 1');
    return {
      owner_email: owner?.email ?? null,
      public_url: this.config.publicUrl,
      email: {
        configured: status.configured,
        providers: status.providers,
        from: status.from,
        sent_today: status.sent_today,
      },
    };
  }
}

/**
 * The patch's plan, or the error to answer. Turning private targets on or off is an owner's
 * decision (docs/settings.md): an API key may send the current value back, never
 * a new one.
 */
function checked(
  body: unknown,
  current: Settings,
  shown: ReadOnlyValues,
  caller: Caller,
): { next: StoredSettings; changes: SettingChange[] } {
  const plan = planSettingsPatch(body, current, shown);
  if (!plan.ok) throw ApiError.invalid(plan.errors);
  if (caller.kind !== 'session' && plan.changes.some((c) => c.field === 'allow_private_targets')) {
    throw new ApiError(
      'forbidden',
      'only the owner, signed in to the dashboard, may change allow_private_targets; API keys cannot',
      {
        field: 'allow_private_targets',
      },
    );
  }
  return plan;
}

function toAnswer(s: Settings, shown: ReadOnlyValues): SettingsAnswer {
  return {
    defaults: { ...s.defaults },
    tz_offset_min: s.tz_offset_min,
    email: {
      configured: shown.email.configured,
      providers: [...shown.email.providers],
      from: shown.email.from,
      daily_cap: s.daily_cap,
      sent_today: shown.email.sent_today,
    },
    owner_email: shown.owner_email,
    public_url: shown.public_url,
    retention: { ...s.retention },
    allow_private_targets: s.allow_private_targets,
    metrics_public: s.metrics_public,
    watchdog: s.watchdog ? { url: MASK, interval_s: s.watchdog.interval_s } : null,
  };
}
