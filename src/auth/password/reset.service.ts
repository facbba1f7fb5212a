/**
 * Password reset (spec "Authentication" 5e): POST /auth/forgot mails a single-use link to the
 * owner when the email is theirs; POST /auth/reset with the link's token, a new password and a
 * code or recovery code sets the password, signs in, and signs out every other session.
 *
 * /auth/forgot answers {ok: true} without looking at the email: the answer and its timing cannot
 * depend on it. The email is judged afterwards, one request at a time, by a background job that
 * does the same work for every email (owner read, token made and hashed) and, only for the owner's,
 * stores the link and mails it. At most RESET_MAILS_PER_HOUR links are mailed per hour, silently,
 * so the route cannot flood the owner's inbox; a burst beyond the job queue is dropped, also
 * silently (and logged).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { IsNull, MoreThan } from 'typeorm';
import { ApiError, invalidField } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import type { AppRequest } from '../../common/access/request-context';
import { randomToken, sha256 } from '../../common/access/tokens';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Database } from '../../db/database';
import { EventsService } from '../../events/events.service';
import { MailService } from '../../mail/mail.service';
import { renderOwnerMail, resetMail } from '../../mail/owner-mail';
import { ChallengeService } from '../sign-in/challenge.service';
import { ForgotDto, ResetDto } from '../dto/password-sign-in.dto';
import { LinkTokenEntity } from '../entities/link-token.entity';
import { OwnerEntity } from '../entities/owner.entity';
import { LINK_TTL_MS, findLiveLink } from '../setup/links';
import { OwnerSecurityService, sessionsWord } from './owner-security.service';
import { Refused } from './password-sign-in.service';
import { passwordProblem } from './password';
import { PasswordWork } from './password-work.service';
import { secondFactorOf } from './second-factor';
import { NewSession } from '../sessions/sessions.service';
import { SignInOrigin, SignInService, signInOrigin } from '../sign-in/sign-in.service';
import { ThrottleService } from '../sign-in/throttle.service';

export const RESET_MAILS_PER_HOUR = 3;
/** Forgot requests waiting for the background job; more are dropped (the answer is the same). */
const MAX_QUEUED = 100;

export const WRONG_RESET =
  'the reset link, code or recovery code is not right (a link works once, for 1 hour; ask for a new one)';

@Injectable()
export class ResetService {
  private readonly log = new Logger('reset');
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly db: Database,
    private readonly security: OwnerSecurityService,
    private readonly throttle: ThrottleService,
    private readonly challenge: ChallengeService,
    private readonly signIns: SignInService,
    private readonly events: EventsService,
    private readonly mail: MailService,
    private readonly passwords: PasswordWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** POST /auth/forgot: queues the request and returns; nothing here depends on the email. */
  async forgot(dto: ForgotDto, req: AppRequest): Promise<void> {
    const origin = signInOrigin(req);
    await this.challenge.verify(dto.challenge, origin.ip ?? '');
    if (this.queued >= MAX_QUEUED) {
      this.log.warn('password reset requests arrive faster than they can be handled: one was dropped');
      return;
    }
    this.queued++;
    const at = this.clock.now();
    this.tail = this.tail
      .then(() => this.mailLinkIfOwner(dto.email, origin, at))
      .catch((err: unknown) =>
        this.log.error(`password reset request failed: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => this.queued--);
  }

  /** Resolves once every forgot request so far has been handled (tests; shutdown). */
  async settled(): Promise<void> {
    let seen: Promise<void> | null = null;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private async mailLinkIfOwner(email: string, origin: SignInOrigin, at: number): Promise<void> {
    const owner = await this.security.owner();
    const matches = this.security.emailMatches(owner, email);
    // Made for every request, so the work does not depend on whose email it was.
    const token = randomToken(32);
    const tokenHash = sha256(token);
    if (!matches || !owner) {
      this.log.debug("a password reset was asked for an email that is not the owner's: nothing sent");
      return;
    }
    const now = this.clock.now();
    const expiresAt = now + LINK_TTL_MS.reset;
    const issued = await this.db.tx(async (m) => {
      const recent = await m.countBy(LinkTokenEntity, { purpose: 'reset', created_at: MoreThan(now - 3600_000) });
      if (recent >= RESET_MAILS_PER_HOUR) return false;
      await m.save(
        m.create(LinkTokenEntity, {
          purpose: 'reset',
          token_hash: tokenHash,
          totp_secret: null,
          created_at: now,
          expires_at: expiresAt,
          used_at: null,
        }),
      );
      return true;
    });
    if (!issued) {
      this.log.warn(`password reset link not mailed: ${RESET_MAILS_PER_HOUR} were mailed within the last hour`);
      return;
    }
    const view = resetMail({
      url: `${this.config.publicUrl}/reset/${token}`,
      expiresAt,
      ip: origin.ip,
      device: origin.device,
      at,
      publicUrl: this.config.publicUrl,
    });
    await this.mail.sendOwner(
      'reset',
      owner.email,
      renderOwnerMail(view),
      `password reset link asked from ${origin.ip ?? 'an unknown address'}`,
    );
  }

  /** POST /auth/reset: the new session; every other session has ended. */
  async reset(dto: ResetDto, req: AppRequest): Promise<NewSession> {
    const factor = secondFactorOf(dto);
    const ip = req.clientIp ?? null;
    await this.challenge.verify(dto.challenge, ip ?? '');
    const weak = passwordProblem(dto.password);
    if (weak) throw invalidField('password', weak);
    // Hashed before the transaction: scrypt must not hold the write lock.
    const hash = await this.passwords.hash(ip, dto.password);
    const now = this.clock.now();
    let signedOut = 0;
    let session: NewSession;
    try {
      session = await this.signIns.signIn(req, 'reset', async (m) => {
        const blocked = await this.throttle.blockedIn(m, ip, now);
        const link = await findLiveLink(m, 'reset', dto.token, now);
        const spend = await this.security.factorIn(m, factor, now);
        if (blocked || !link || !spend) throw new Refused();
        // Judged only now: the rule names the owner's email, which must not leak to a stranger.
        const owner = (await this.security.owner(m)) as OwnerEntity;
        const problem = passwordProblem(dto.password, owner.email);
        if (problem) throw invalidField('password', problem);
        // The link is spent, and so is every other reset link still out there.
        await m.update(LinkTokenEntity, { purpose: 'reset', used_at: IsNull() }, { used_at: now });
        await spend();
        await m.update(OwnerEntity, { id: 1 }, { password_hash: hash, updated_at: now });
        signedOut = await this.security.signOutOthersIn(m, null, now);
        await this.throttle.clearIn(m, ip);
        await this.events.recordIn(m, {
          kind: 'password_changed',
          text: `password reset with a reset link; ${sessionsWord(signedOut)} signed out`,
          actor: 'owner',
          data: { signed_out: signedOut, reset: true },
        });
      });
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      await this.throttle.failed(ip);
      throw new ApiError('sign_in', WRONG_RESET);
    }
    this.security.announceSignedOut(session.session.id);
    return session;
  }
}
