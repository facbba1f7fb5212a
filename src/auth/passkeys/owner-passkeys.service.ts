/**
 * The signed-in owner's passkeys (/me/passkeys): list, add (step-up), rename, remove (step-up).
 * A registration that is not accepted is a 422 on `challenge_id` or `credential`, not a 401: the
 * session is fine, only this answer is not, and the page offers to try again.
 *
 * Removing the last passkey is allowed: the owner always keeps the password with the
 * authenticator and the recovery codes (first-run setup makes all three), so it cannot lock
 * anyone out.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { ApiError, invalidField } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import type { AppRequest } from '../../common/access/request-context';
import { Database } from '../../db/database';
import { EventsService } from '../../events/events.service';
import { PasskeyEntity } from '../entities/passkey.entity';
import { signInOrigin } from '../sign-in/sign-in.service';
import { OptionsAnswer, PasskeyCeremonies } from './ceremonies.service';
import { RegistrationVerifyDto, RenamePasskeyDto } from './dto/passkey.dto';
import { defaultLabel, PasskeyRow, toPasskeyRow } from './passkey-row';
import { NewCredential, PasskeyRefused } from './webauthn';

const sessionBinding = (sessionId: number) => `session:${sessionId}`;

@Injectable()
export class OwnerPasskeysService {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly db: Database,
    private readonly events: EventsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(): Promise<{ items: PasskeyRow[] }> {
    return { items: (await this.ceremonies.all()).map(toPasskeyRow) };
  }

  options(sessionId: number): Promise<OptionsAnswer<PublicKeyCredentialCreationOptionsJSON>> {
    return this.ceremonies.creationOptions('register', sessionBinding(sessionId));
  }

  async register(sessionId: number, dto: RegistrationVerifyDto, req: AppRequest): Promise<PasskeyRow> {
    let credential: NewCredential;
    try {
      credential = await this.ceremonies.attest(
        dto.challenge_id,
        'register',
        sessionBinding(sessionId),
        dto.credential,
      );
    } catch (err) {
      if (!(err instanceof PasskeyRefused)) throw err;
      this.ceremonies.logRefusal('passkey registration', err, req.clientIp);
      if (err.reason === 'expired') throw invalidField('challenge_id', err.message);
      throw invalidField('credential', `the passkey was not accepted: ${err.message}`);
    }
    const now = this.clock.now();
    const row = await this.db.tx(async (m) => {
      const label = dto.label?.trim() || defaultLabel(signInOrigin(req).device, await this.ceremonies.count(m));
      return this.ceremonies.addIn(m, credential, label, 'dashboard', now);
    });
    return toPasskeyRow(row);
  }

  async rename(id: number, dto: RenamePasskeyDto): Promise<PasskeyRow> {
    const row = await this.db.tx(async (m) => {
      const p = await m.findOneBy(PasskeyEntity, { id });
      if (!p) throw ApiError.notFound('passkey');
      p.label = dto.label.trim();
      await m.update(PasskeyEntity, { id }, { label: p.label });
      return p;
    });
    return toPasskeyRow(row);
  }

  async remove(id: number): Promise<void> {
    await this.db.tx(async (m) => {
      const p = await m.findOneBy(PasskeyEntity, { id });
      if (!p) throw ApiError.notFound('passkey');
      await m.delete(PasskeyEntity, { id });
      await this.events.recordIn(m, {
        kind: 'passkey_removed',
        text: `passkey "${p.label}" removed`,
        actor: 'owner',
        data: { passkey_id: id },
      });
    });
  }
}
