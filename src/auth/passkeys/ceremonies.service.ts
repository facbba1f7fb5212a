/**
 * The passkey ceremonies every flow shares (sign-in, step-up, registration by the signed-in
 * owner, break-glass enrolment): challenges from one ChallengeBook, options built from the stored
 * passkeys, answers checked against them, and the writes a checked answer leads to. Flows decide
 * what a refusal means for them (401 for a sign-in, 422 for the owner's registration).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import { clip, oneLine } from '../../common/validation/text-rules';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Database } from '../../db/database';
import { EventsService } from '../../events/events.service';
import { OwnerEntity } from '../entities/owner.entity';
import { PasskeyEntity } from '../entities/passkey.entity';
import { ChallengeBook, ChallengePurpose } from './challenge-book';
import { credentialShapeProblems } from './credential-shape';
import type { AssertionCredentialDto, AttestationCredentialDto } from './dto/credential.dto';
import { MAX_PASSKEYS, ownerHandle } from './passkey-row';
import { RelyingParty, relyingParty } from './relying-party';
import {
  checkAssertion,
  checkAttestation,
  counterMayFollow,
  creationOptions,
  NewCredential,
  PasskeyRefused,
  requestOptions,
  StoredCredential,
} from './webauthn';

export interface OptionsAnswer<T> {
  challenge_id: string;
  public_key: T;
}

/** A checked assertion: which passkey, and the counter it reported. */
export interface Assertion {
  passkey: PasskeyEntity;
  newCounter: number;
}

function stored(p: PasskeyEntity): StoredCredential {
  return {
    credentialId: p.credential_id,
    publicKey: p.public_key,
    counter: p.counter,
    transports: parseTransports(p.transports),
  };
}

function parseTransports(text: string | null): string[] | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) && v.every((t) => typeof t === 'string') ? v : null;
  } catch {
    return null;
  }
}

@Injectable()
export class PasskeyCeremonies {
  private readonly book = new ChallengeBook();
  private readonly log = new Logger('passkeys');

  constructor(
    private readonly db: Database,
    private readonly events: EventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Read at each use: the public URL may be saved at setup while the service runs. */
  get rp(): RelyingParty {
    return relyingParty(this.config.publicUrl);
  }

  async all(m: EntityManager = this.db.manager): Promise<PasskeyEntity[]> {
    return m.find(PasskeyEntity, { order: { id: 'ASC' } });
  }

  async count(m: EntityManager = this.db.manager): Promise<number> {
    return m.count(PasskeyEntity);
  }

  /** Options for navigator.credentials.get() with every passkey of the owner. */
  async requestOptions(
    purpose: ChallengePurpose,
    boundTo: string,
  ): Promise<OptionsAnswer<PublicKeyCredentialRequestOptionsJSON>> {
    const passkeys = await this.all();
    const issued = this.book.issue(purpose, boundTo, this.clock.now());
    return {
      challenge_id: issued.id,
      public_key: await requestOptions(this.rp, issued.challenge, passkeys.map(stored)),
    };
  }

  /** Options for navigator.credentials.create(); 409 when the owner already has the most passkeys allowed. */
  async creationOptions(
    purpose: ChallengePurpose,
    boundTo: string,
  ): Promise<OptionsAnswer<PublicKeyCredentialCreationOptionsJSON>> {
    const owner = await this.db.manager.findOneBy(OwnerEntity, { id: 1 });
    if (!owner) throw new ApiError('conflict', 'there is no owner account yet: finish the first-run setup');
    const passkeys = await this.all();
    if (passkeys.length >= MAX_PASSKEYS) throw tooMany();
    const issued = this.book.issue(purpose, boundTo, this.clock.now());
    const user = { handle: ownerHandle(owner.created_at), name: owner.email };
    return {
      challenge_id: issued.id,
      public_key: await creationOptions(this.rp, issued.challenge, user, passkeys.map(stored)),
    };
  }

  /**
   * Checks an assertion for the challenge it names. A malformed credential is a 422 and spends
   * nothing; anything past that spends the challenge, and a refusal throws PasskeyRefused.
   */
  async assert(
    challengeId: string,
    purpose: ChallengePurpose,
    boundTo: string,
    credential: AssertionCredentialDto,
  ): Promise<Assertion> {
    const problems = credentialShapeProblems(credential);
    if (problems.length) throw ApiError.invalid(problems);
    const expected = this.book.take(challengeId, purpose, boundTo, this.clock.now());
    if (expected === null) throw new PasskeyRefused('expired', `challenge_id unknown, used or expired (${purpose})`);
    const passkey = await this.db.manager.findOneBy(PasskeyEntity, { credential_id: credential.id });
    if (!passkey) throw new PasskeyRefused('unknown_credential', 'no passkey with this credential id');
    const { newCounter } = await checkAssertion(
      this.rp,
      expected,
      credential as unknown as AuthenticationResponseJSON,
      stored(passkey),
    );
    return { passkey, newCounter };
  }

  /** Checks a registration for the challenge it names; as assert() for malformed input and refusals. */
  async attest(
    challengeId: string,
    purpose: ChallengePurpose,
    boundTo: string,
    credential: AttestationCredentialDto,
  ): Promise<NewCredential> {
    const problems = credentialShapeProblems(credential);
    if (problems.length) throw ApiError.invalid(problems);
    const expected = this.book.take(challengeId, purpose, boundTo, this.clock.now());
    if (expected === null) throw new PasskeyRefused('expired', `challenge_id unknown, used or expired (${purpose})`);
    return checkAttestation(this.rp, expected, credential as unknown as RegistrationResponseJSON);
  }

  /**
   * Inside the sign-in's or step-up's transaction: the new counter and last use. Checked again
   * here, under the write lock, so two assertions verified side by side cannot both move the
   * counter (the second is refused), and a passkey removed meanwhile signs nobody in.
   */
  async recordUseIn(m: EntityManager, a: Assertion, now: number): Promise<void> {
    const row = await m.findOneBy(PasskeyEntity, { id: a.passkey.id });
    if (!row) throw new PasskeyRefused('unknown_credential', 'the passkey was removed meanwhile');
    if (!counterMayFollow(row.counter, a.newCounter)) {
      throw new PasskeyRefused('counter', `counter ${a.newCounter} does not follow the stored ${row.counter}`);
    }
    await m.update(PasskeyEntity, { id: row.id }, { counter: a.newCounter, last_used_at: now });
  }

  /** Inside the caller's transaction: stores a checked new passkey, with a timeline line. */
  async addIn(
    m: EntityManager,
    c: NewCredential,
    label: string,
    via: 'dashboard' | 'enrolment link',
    now: number,
  ): Promise<PasskeyEntity> {
    if ((await m.countBy(PasskeyEntity, { credential_id: c.credentialId })) > 0) {
      throw new ApiError('conflict', 'this passkey is already registered');
    }
    if ((await this.count(m)) >= MAX_PASSKEYS) throw tooMany();
    const row = await m.save(
      m.create(PasskeyEntity, {
        credential_id: c.credentialId,
        public_key: Buffer.from(c.publicKey),
        counter: c.counter,
        transports: c.transports ? JSON.stringify(c.transports) : null,
        backed_up: c.backedUp ? 1 : 0,
        label,
        created_at: now,
        last_used_at: null,
      }),
    );
    await this.events.recordIn(m, {
      kind: 'passkey_added',
      text: `passkey "${label}" added${via === 'enrolment link' ? ' with a break-glass enrolment link' : ''}`,
      actor: 'owner',
      data: { passkey_id: row.id, via },
      at: now,
    });
    return row;
  }

  /** Logs a refusal (never a secret: challenges are spent, keys are public) and hands it back. */
  logRefusal(flow: string, err: PasskeyRefused, ip: string | null | undefined): PasskeyRefused {
    this.log.warn(
      `${flow} refused (${err.reason}) from ${ip || 'an unknown address'}: ${clip(oneLine(err.detail), 300)}`,
    );
    return err;
  }
}

function tooMany(): ApiError {
  return new ApiError('conflict', `the owner already has ${MAX_PASSKEYS} passkeys, the most allowed: remove one first`);
}
