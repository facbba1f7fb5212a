/**
 * Sign-in with email and password, then an authenticator code or a recovery code (spec
 * "Authentication" 5b), and step-up with password and code.
 *
 * 1. POST /auth/password checks email and password (one scrypt on every path: an unknown email
 *    costs what a wrong password costs) and answers a ticket: 5 minutes, single use, stored hashed.
 * 2. POST /auth/code spends the ticket and the code (or recovery code) in the sign-in's own
 *    transaction (SignInService.signIn), so each works once.
 * Every wrong answer, and every answer to a blocked address, is the same 401 per route, and counts
 * on the throttle (auth/sign-in/throttle.service.ts).
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, IsNull, MoreThan } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import type { AppRequest } from '../../common/access/request-context';
import { toIso } from '../../common/time';
import { randomToken, sha256 } from '../../common/access/tokens';
import { Database } from '../../db/database';
import { ChallengeService } from '../sign-in/challenge.service';
import { CodeDto, PasswordDto, StepUpPasswordDto } from '../dto/password-sign-in.dto';
import { SignInTicketEntity } from '../entities/sign-in-ticket.entity';
import { OwnerSecurityService } from './owner-security.service';
import { secondFactorOf } from './second-factor';
import { NewSession, SessionsService } from '../sessions/sessions.service';
import { SignInService } from '../sign-in/sign-in.service';
import { ThrottleService } from '../sign-in/throttle.service';

export const TICKET_TTL_MS = 5 * 60_000;

export const WRONG_PASSWORD = 'the email or password is not right';
export const WRONG_CODE =
  'the code is not right, or this sign-in has expired (5 minutes): check the code, or start again with your password';
export const WRONG_STEP_UP = 'the password or code is not right';

/** A refusal inside a sign-in transaction: it rolls back, then counts as a failure. */
export class Refused extends Error {}

@Injectable()
export class PasswordSignInService {
  constructor(
    private readonly db: Database,
    private readonly security: OwnerSecurityService,
    private readonly throttle: ThrottleService,
    private readonly challenge: ChallengeService,
    private readonly signIns: SignInService,
    private readonly sessions: SessionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async password(dto: PasswordDto, req: AppRequest): Promise<{ ticket: string; next: 'code' }> {
    const ip = req.clientIp ?? null;
    await this.challenge.verify(dto.challenge, ip ?? '');
    const owner = await this.security.owner();
    const right = await this.security.checkEmailAndPassword(owner, dto.email, dto.password, ip);
    const now = this.clock.now();
    const ticket = randomToken(32);
    const issued = await this.db.tx(async (m) => {
      if ((await this.throttle.blockedIn(m, ip, now)) || !right) return false;
      await m.save(
        m.create(SignInTicketEntity, {
          token_hash: sha256(ticket),
          created_at: now,
          expires_at: now + TICKET_TTL_MS,
          used_at: null,
        }),
      );
      return true;
    });
    if (!issued) {
      await this.throttle.failed(ip);
      throw new ApiError('sign_in', WRONG_PASSWORD);
    }
    return { ticket, next: 'code' };
  }

  async code(dto: CodeDto, req: AppRequest): Promise<NewSession> {
    const factor = secondFactorOf(dto);
    const ip = req.clientIp ?? null;
    await this.challenge.verify(dto.challenge, ip ?? '');
    const now = this.clock.now();
    try {
      return await this.signIns.signIn(req, factor.kind === 'recovery' ? 'recovery' : 'password', async (m) => {
        const blocked = await this.throttle.blockedIn(m, ip, now);
        const ticket = await liveTicketIn(m, dto.ticket, now);
        const spend = await this.security.factorIn(m, factor, now);
        if (blocked || !ticket || !spend) throw new Refused();
        await m.update(SignInTicketEntity, { id: ticket.id }, { used_at: now });
        await spend();
        await this.throttle.clearIn(m, ip);
      });
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      await this.throttle.failed(ip);
      throw new ApiError('sign_in', WRONG_CODE);
    }
  }

  /** POST /auth/step-up/password: the session counts as freshly signed in for 12 hours more. */
  async stepUp(dto: StepUpPasswordDto, sessionId: number, ip: string | null): Promise<{ fresh_until: string }> {
    const owner = await this.security.owner();
    const right = owner !== null && (await this.security.checkPassword(owner, dto.password, ip));
    const now = this.clock.now();
    const ok = await this.db.tx(async (m) => {
      const blocked = await this.throttle.blockedIn(m, ip, now);
      const spend = await this.security.factorIn(m, { kind: 'code', code: dto.code }, now);
      if (blocked || !right || !spend) return false;
      await spend();
      await this.throttle.clearIn(m, ip);
      return true;
    });
    if (!ok) {
      await this.throttle.failed(ip);
      throw new ApiError('sign_in', WRONG_STEP_UP);
    }
    return { fresh_until: toIso(await this.sessions.stepUp(sessionId)) };
  }
}

/** The unused, unexpired ticket for a value, or null. */
async function liveTicketIn(m: EntityManager, ticket: string, now: number): Promise<SignInTicketEntity | null> {
  return m.findOneBy(SignInTicketEntity, { token_hash: sha256(ticket), used_at: IsNull(), expires_at: MoreThan(now) });
}
