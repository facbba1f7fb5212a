/**
 * The owner changes their own credentials (all step-up routes, session only): the password, the
 * authenticator (options, then a first code), and the recovery codes. Changing the password or the
 * authenticator signs out every other session (spec "Authentication" 8).
 */
import { Inject, Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import { ApiError, invalidField } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import { randomToken, sha256 } from '../../common/access/tokens';
import { API_ROOT } from '../../common/http/routes';
import { ShownOnce, shownOnce } from '../../common/secrets/shown-once';
import { Database } from '../../db/database';
import { EventsService } from '../../events/events.service';
import { ChangePasswordDto, ReplaceTotpDto } from '../dto/me.dto';
import { OwnerEntity } from '../entities/owner.entity';
import { RecoveryCodeEntity } from '../entities/recovery-code.entity';
import { TotpSetupEntity } from '../entities/totp-setup.entity';
import { OwnerSecurityService, sessionsWord } from '../password/owner-security.service';
import { passwordProblem } from '../password/password';
import { PasswordWork } from '../password/password-work.service';
import { hashRecoveryCode, newRecoveryCodes } from '../password/recovery-codes';
import { acceptedTotpStep } from '../password/second-factor';
import { ThrottleService } from '../sign-in/throttle.service';
import { newTotpSecret, totpEnrolment } from '../password/totp';

export const TOTP_SETUP_TTL_MS = 10 * 60_000;
export const WRONG_CURRENT = 'the current password is not right';

/** Every field holds or leads to the new secret (the URI and the QR code carry it): all shown once. */
export interface TotpOptions {
  setup_id: ShownOnce;
  secret: ShownOnce;
  uri: ShownOnce;
  qr_svg: ShownOnce;
}

const NEW_TOTP_OPTIONS = `POST /${API_ROOT}/me/totp/options gives new options (the ones shown first then stop working)`;
const NEW_RECOVERY_CODES = `POST /${API_ROOT}/me/recovery-codes makes a new set (the set made first has already replaced the old codes)`;

@Injectable()
export class MeCredentialsService {
  constructor(
    private readonly db: Database,
    private readonly security: OwnerSecurityService,
    private readonly throttle: ThrottleService,
    private readonly events: EventsService,
    private readonly passwords: PasswordWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * POST /me/password. A wrong current password is a failed attempt like any other (a stolen
   * session must not become a password oracle): 401 on field `current`, throttled.
   */
  async changePassword(dto: ChangePasswordDto, sessionId: number, ip: string | null): Promise<number> {
    const owner = (await this.security.owner()) as OwnerEntity;
    const problem = passwordProblem(dto.new, owner.email);
    if (problem) throw invalidField('new', problem);
    const right = await this.security.checkPassword(owner, dto.current, ip);
    const now = this.clock.now();
    const allowed = await this.db.tx(async (m) => !(await this.throttle.blockedIn(m, ip, now)) && right);
    if (!allowed) {
      await this.throttle.failed(ip);
      throw new ApiError('sign_in', WRONG_CURRENT, { field: 'current' });
    }
    if (dto.new === dto.current) throw invalidField('new', 'must differ from the current password');
    const hash = await this.passwords.hash(ip, dto.new);
    const n = await this.db.tx(async (m) => {
      await m.update(OwnerEntity, { id: 1 }, { password_hash: hash, updated_at: now });
      const ended = await this.security.signOutOthersIn(m, sessionId, now);
      await this.events.recordIn(m, {
        kind: 'password_changed',
        text: `password changed; ${sessionsWord(ended)} signed out`,
        actor: 'owner',
        data: { signed_out: ended },
      });
      return ended;
    });
    this.security.announceSignedOut(sessionId);
    return n;
  }

  /** POST /me/totp/options: a new secret for this session to scan; the current one keeps working until /me/totp. */
  async totpOptions(sessionId: number): Promise<TotpOptions> {
    const now = this.clock.now();
    const setupId = randomToken(24);
    const secret = newTotpSecret();
    await this.db.tx(async (m) => {
      // One pending replacement per session: asking again voids the QR code shown before.
      await m.delete(TotpSetupEntity, { session_id: sessionId });
      await m.save(
        m.create(TotpSetupEntity, {
          setup_hash: sha256(setupId),
          session_id: sessionId,
          secret,
          created_at: now,
          expires_at: now + TOTP_SETUP_TTL_MS,
        }),
      );
    });
    const enrolment = await totpEnrolment(secret);
    return {
      setup_id: shownOnce(setupId, NEW_TOTP_OPTIONS),
      secret: shownOnce(enrolment.secret, NEW_TOTP_OPTIONS),
      uri: shownOnce(enrolment.uri, NEW_TOTP_OPTIONS),
      qr_svg: shownOnce(enrolment.qr_svg, NEW_TOTP_OPTIONS),
    };
  }

  /** POST /me/totp: the first code of the new secret proves it was saved; then it replaces the old one. */
  async replaceTotp(dto: ReplaceTotpDto, sessionId: number): Promise<number> {
    const now = this.clock.now();
    const n = await this.db.tx(async (m) => {
      const setup = await m.findOneBy(TotpSetupEntity, {
        setup_hash: sha256(dto.setup_id),
        session_id: sessionId,
        expires_at: MoreThan(now),
      });
      if (!setup) throw invalidField('setup_id', 'unknown or expired (10 minutes): ask for new authenticator options');
      const step = acceptedTotpStep(setup.secret, dto.code, now, null);
      if (step === null)
        throw invalidField('code', 'the code does not match: check the authenticator and the device clock');
      await m.update(OwnerEntity, { id: 1 }, { totp_secret: setup.secret, totp_last_step: step, updated_at: now });
      await m.delete(TotpSetupEntity, { session_id: sessionId });
      const ended = await this.security.signOutOthersIn(m, sessionId, now);
      await this.events.recordIn(m, {
        kind: 'totp_replaced',
        text: `authenticator replaced; ${sessionsWord(ended)} signed out`,
        actor: 'owner',
        data: { signed_out: ended },
      });
      return ended;
    });
    this.security.announceSignedOut(sessionId);
    return n;
  }

  /** POST /me/recovery-codes: 10 new codes, shown once; every older code stops working. */
  async newRecoveryCodes(): Promise<ShownOnce<string[]>> {
    const now = this.clock.now();
    const codes = newRecoveryCodes();
    await this.db.tx(async (m) => {
      await m.createQueryBuilder().delete().from(RecoveryCodeEntity).execute();
      await m.save(
        codes.map((c) =>
          m.create(RecoveryCodeEntity, { code_hash: hashRecoveryCode(c), created_at: now, used_at: null }),
        ),
      );
      await this.events.recordIn(m, {
        kind: 'recovery_codes',
        text: '10 new recovery codes made; the old ones stopped working',
        actor: 'owner',
      });
    });
    return shownOnce(codes, NEW_RECOVERY_CODES);
  }
}
