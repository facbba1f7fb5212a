/** First-run setup (spec, Authentication 5c): the link shows an authenticator secret, then creates the owner. */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError, invalidField } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import { toIso } from '../../common/time';
import { Database } from '../../db/database';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { savePublicUrlIn } from '../../settings/public-url';
import { EventsService } from '../../events/events.service';
import { SetupDto } from '../dto/setup.dto';
import { LinkTokenEntity } from '../entities/link-token.entity';
import { OwnerEntity } from '../entities/owner.entity';
import { RecoveryCodeEntity } from '../entities/recovery-code.entity';
import { findLiveLink, ownerExists } from './links';
import { passwordProblem } from '../password/password';
import { PasswordWork } from '../password/password-work.service';
import { hashRecoveryCode, newRecoveryCodes } from '../password/recovery-codes';
import { acceptedTotpStep } from '../password/second-factor';
import { totpEnrolment } from '../password/totp';

export interface SetupInfo {
  valid: boolean;
  email: string | null;
  expires_at: string | null;
  totp: { secret: string; uri: string; qr_svg: string } | null;
}

@Injectable()
export class SetupService {
  constructor(
    private readonly db: Database,
    private readonly events: EventsService,
    private readonly passwords: PasswordWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async info(token: string): Promise<SetupInfo> {
    const m = this.db.manager;
    const link = await findLiveLink(m, 'setup', token, this.clock.now());
    if (!link || !link.totp_secret || (await ownerExists(m))) {
      return { valid: false, email: null, expires_at: null, totp: null };
    }
    return {
      valid: true,
      email: null,
      expires_at: toIso(link.expires_at),
      totp: await totpEnrolment(link.totp_secret),
    };
  }

  /**
   * Creates the owner; returns the recovery codes (shown once) and what `alsoIn` made in the same
   * transaction (the first session): all of it commits, or none of it.
   */
  async complete<T>(
    token: string,
    dto: SetupDto,
    ip: string | null,
    requestOrigin: string | null,
    alsoIn: (m: EntityManager) => Promise<T>,
  ): Promise<{ codes: string[]; also: T }> {
    const now = this.clock.now();
    const email = dto.email.trim().toLowerCase();
    const problem = passwordProblem(dto.password, email);
    if (problem) throw invalidField('password', problem);
    const publicUrl = dto.public_url === undefined ? null : this.publicUrlToSave(dto.public_url, requestOrigin);
    // Check link and code before hashing: scrypt is slow on purpose and must not be free to trigger.
    await this.liveLinkWithCode(this.db.manager, token, dto.code, now);
    // Hash outside the write lock so other writers are not held up.
    const passwordHash = await this.passwords.hash(ip, dto.password);
    const codes = newRecoveryCodes();
    const also = await this.db.tx(async (m) => {
      const { link, step } = await this.liveLinkWithCode(m, token, dto.code, now);
      await m.save(
        m.create(OwnerEntity, {
          id: 1,
          email,
          password_hash: passwordHash,
          totp_secret: link.totp_secret as string,
          // The setup's code is spent: it cannot sign in again within its 90 seconds.
          totp_last_step: step,
          created_at: now,
          updated_at: now,
        }),
      );
      await m.save(
        codes.map((c) =>
          m.create(RecoveryCodeEntity, { code_hash: hashRecoveryCode(c), created_at: now, used_at: null }),
        ),
      );
      await m.update(LinkTokenEntity, { id: link.id }, { used_at: now });
      if (publicUrl !== null) await savePublicUrlIn(m, this.db, this.config, publicUrl);
      const saved = publicUrl === null ? '' : `; public URL saved: ${publicUrl}`;
      await this.events.recordIn(m, {
        kind: 'setup',
        text: `owner account created for ${email}${saved}`,
        actor: 'owner',
      });
      return alsoIn(m);
    });
    return { codes, also };
  }

  /**
   * The setup page offers the address it is open at as the public URL while none is configured
   * (auth/sessions/origin-rule.ts accepts that address until then). Nothing else may be saved this way: an
   * address nobody has opened Farsight at would break every link and the origin check.
   */
  private publicUrlToSave(value: string, requestOrigin: string | null): string {
    if (this.config.publicUrlSource !== 'default') {
      const from = this.config.publicUrlSource === 'env' ? 'FARSIGHT_PUBLIC_URL' : 'an earlier setup';
      throw invalidField('public_url', `the public URL is already set (${this.config.publicUrl}, from ${from})`);
    }
    let origin: string | null = null;
    try {
      const url = new URL(value);
      if (url.origin === value.replace(/\/+$/, '')) origin = url.origin;
    } catch {
      origin = null;
    }
    if (origin === null || requestOrigin === null || origin !== requestOrigin) {
      throw invalidField(
        'public_url',
        `must be the address this page is open at (${requestOrigin ?? 'unknown: the request has no Origin or Host'}), scheme, host and port only`,
      );
    }
    return origin;
  }

  private async liveLinkWithCode(
    m: EntityManager,
    token: string,
    code: string,
    now: number,
  ): Promise<{ link: LinkTokenEntity; step: number }> {
    const link = await findLiveLink(m, 'setup', token, now);
    if (!link || !link.totp_secret || (await ownerExists(m))) {
      throw new ApiError('not_found', 'this setup link is not valid: it was used, replaced or has expired');
    }
    const step = acceptedTotpStep(link.totp_secret, code, now, null);
    if (step === null) {
      throw invalidField('code', 'the code does not match: check the authenticator and the device clock');
    }
    return { link, step };
  }
}
