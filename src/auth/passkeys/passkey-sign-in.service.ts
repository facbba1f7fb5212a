/**
 * Signing in with a passkey, and confirming a session with one (step-up). Any answer that is not
 * accepted is 401 `sign_in`, with the reason in words. Passkey sign-in is never held back by the
 * address throttle of password sign-in, and its failures do not count there: an attacker sharing
 * the owner's address cannot lock the owner out of the one method that cannot be guessed.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { ApiError } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import type { AppRequest } from '../../common/access/request-context';
import { toIso } from '../../common/time';
import { ChallengeService } from '../sign-in/challenge.service';
import { NewSession, SessionsService } from '../sessions/sessions.service';
import { SignInService } from '../sign-in/sign-in.service';
import { Database } from '../../db/database';
import { OptionsAnswer, PasskeyCeremonies } from './ceremonies.service';
import { AssertionVerifyDto, PasskeyOptionsDto } from './dto/passkey.dto';
import { PasskeyRefused } from './webauthn';

/** Turns a refusal into the sign-in answer (and logs it); anything else passes unchanged. */
export function asSignInError(ceremonies: PasskeyCeremonies, flow: string, req: AppRequest) {
  return (err: unknown): never => {
    if (err instanceof PasskeyRefused) {
      ceremonies.logRefusal(flow, err, req.clientIp);
      throw new ApiError('sign_in', `the passkey was not accepted: ${err.message}`);
    }
    throw err;
  };
}

const sessionBinding = (sessionId: number) => `session:${sessionId}`;

@Injectable()
export class PasskeySignInService {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly challenge: ChallengeService,
    private readonly signIns: SignInService,
    private readonly sessions: SessionsService,
    private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async options(
    dto: PasskeyOptionsDto,
    req: AppRequest,
  ): Promise<OptionsAnswer<PublicKeyCredentialRequestOptionsJSON>> {
    await this.challenge.verify(dto.challenge, req.clientIp ?? '');
    return this.ceremonies.requestOptions('sign_in', '');
  }

  async signIn(dto: AssertionVerifyDto, req: AppRequest): Promise<NewSession> {
    try {
      const assertion = await this.ceremonies.assert(dto.challenge_id, 'sign_in', '', dto.credential);
      const now = this.clock.now();
      return await this.signIns.signIn(req, 'passkey', (m) => this.ceremonies.recordUseIn(m, assertion, now));
    } catch (err) {
      return asSignInError(this.ceremonies, 'passkey sign-in', req)(err);
    }
  }

  /** 409 when the owner has no passkey: step up with password and code instead. */
  async stepUpOptions(sessionId: number): Promise<OptionsAnswer<PublicKeyCredentialRequestOptionsJSON>> {
    if ((await this.ceremonies.count()) === 0) {
      throw new ApiError(
        'conflict',
        'there is no passkey to confirm with: use your password and authenticator code (POST /auth/step-up/password)',
      );
    }
    return this.ceremonies.requestOptions('step_up', sessionBinding(sessionId));
  }

  async stepUp(sessionId: number, dto: AssertionVerifyDto, req: AppRequest): Promise<{ fresh_until: string }> {
    try {
      const assertion = await this.ceremonies.assert(
        dto.challenge_id,
        'step_up',
        sessionBinding(sessionId),
        dto.credential,
      );
      const now = this.clock.now();
      await this.db.tx((m) => this.ceremonies.recordUseIn(m, assertion, now));
    } catch (err) {
      asSignInError(this.ceremonies, 'passkey step-up', req)(err);
    }
    return { fresh_until: toIso(await this.sessions.stepUp(sessionId)) };
  }
}
