/**
 * Break-glass enrolment (spec, Authentication 5d): an operator on the server runs
 * `farsight enroll-link` (enroll-link.ts); the link adds a passkey and signs in. The passkey,
 * the spent link, the session and the sign-in line commit together or not at all.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import type { AppRequest } from '../../common/access/request-context';
import { toIso } from '../../common/time';
import { Database } from '../../db/database';
import { ChallengeService } from '../sign-in/challenge.service';
import { LinkTokenEntity } from '../entities/link-token.entity';
import { findLiveLink, ownerExists } from '../setup/links';
import { NewSession } from '../sessions/sessions.service';
import { SignInService, signInOrigin } from '../sign-in/sign-in.service';
import { OptionsAnswer, PasskeyCeremonies } from './ceremonies.service';
import { PasskeyOptionsDto, RegistrationVerifyDto } from './dto/passkey.dto';
import { defaultLabel } from './passkey-row';
import { asSignInError } from './passkey-sign-in.service';
import type { NewCredential } from './webauthn';

export interface EnrolInfo {
  valid: boolean;
  expires_at: string | null;
}

const linkBinding = (linkId: number) => `link:${linkId}`;

function invalidLink(): ApiError {
  return new ApiError(
    'not_found',
    'this enrolment link is not valid: it was used, replaced by a newer one, or has expired',
  );
}

@Injectable()
export class EnrolmentService {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly challenge: ChallengeService,
    private readonly signIns: SignInService,
    private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async info(token: string): Promise<EnrolInfo> {
    const link = await this.liveLink(this.db.manager, token);
    return link ? { valid: true, expires_at: toIso(link.expires_at) } : { valid: false, expires_at: null };
  }

  async options(
    token: string,
    dto: PasskeyOptionsDto,
    req: AppRequest,
  ): Promise<OptionsAnswer<PublicKeyCredentialCreationOptionsJSON>> {
    await this.challenge.verify(dto.challenge, req.clientIp ?? '');
    const link = await this.liveLink(this.db.manager, token);
    if (!link) throw invalidLink();
    return this.ceremonies.creationOptions('enroll', linkBinding(link.id));
  }

  async verify(token: string, dto: RegistrationVerifyDto, req: AppRequest): Promise<NewSession> {
    const link = await this.liveLink(this.db.manager, token);
    if (!link) throw invalidLink();
    let credential: NewCredential;
    try {
      credential = await this.ceremonies.attest(dto.challenge_id, 'enroll', linkBinding(link.id), dto.credential);
    } catch (err) {
      return asSignInError(this.ceremonies, 'passkey enrolment', req)(err);
    }
    const now = this.clock.now();
    const device = signInOrigin(req).device;
    return this.signIns.signIn(req, 'enroll', async (m) => {
      // Again under the write lock: of two answers for one link, only the first may use it.
      const still = await this.liveLink(m, token);
      if (!still || still.id !== link.id) throw invalidLink();
      await m.update(LinkTokenEntity, { id: link.id }, { used_at: now });
      const label = dto.label?.trim() || defaultLabel(device, await this.ceremonies.count(m));
      await this.ceremonies.addIn(m, credential, label, 'enrolment link', now);
    });
  }

  /** A live enrolment link; only while the owner exists (a link outliving its owner is void). */
  private async liveLink(m: EntityManager, token: string): Promise<LinkTokenEntity | null> {
    const link = await findLiveLink(m, 'enroll', token, this.clock.now());
    return link && (await ownerExists(m)) ? link : null;
  }
}
