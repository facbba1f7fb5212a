/**
 * The owner's credentials as the sign-in flows check them: the email and password (one scrypt
 * whether or not the email is the owner's), the second factor (checked and spent inside the
 * flow's transaction, so a code or recovery code works once even under concurrent requests), and
 * signing out every other session when a credential changes.
 */
import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { safeEqual, sha256 } from '../../common/access/tokens';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { OwnerEntity } from '../entities/owner.entity';
import { RecoveryCodeEntity } from '../entities/recovery-code.entity';
import { SessionsService } from '../sessions/sessions.service';
import { UNMATCHABLE_HASH } from './password';
import { PasswordWork } from './password-work.service';
import { hashRecoveryCode } from './recovery-codes';
import { SecondFactor, acceptedTotpStep } from './second-factor';

/** Writes that spend a second factor that was right; run them in the same transaction. */
export type Spend = () => Promise<void>;

/** "1 session", "3 sessions": timeline lines about signed-out sessions. */
export function sessionsWord(n: number): string {
  return `${n} session${n === 1 ? '' : 's'}`;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

@Injectable()
export class OwnerSecurityService {
  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly passwords: PasswordWork,
    private readonly sessions: SessionsService,
  ) {}

  owner(m: EntityManager = this.db.manager): Promise<OwnerEntity | null> {
    return m.findOneBy(OwnerEntity, { id: 1 });
  }

  /** Whether `email` is the owner's, compared in constant time (with no owner, against nothing). */
  emailMatches(owner: OwnerEntity | null, email: string): boolean {
    const same = safeEqual(sha256(normalizeEmail(email)), sha256(owner?.email ?? ''));
    return owner !== null && same;
  }

  /**
   * Email and password: the same scrypt on every path (an unknown email against UNMATCHABLE_HASH),
   * queued by the client's address (PasswordWork: 429 when too many wait).
   */
  async checkEmailAndPassword(
    owner: OwnerEntity | null,
    email: string,
    password: string,
    ip: string | null,
  ): Promise<boolean> {
    const matches = this.emailMatches(owner, email);
    const right = await this.passwords.verify(ip, password, matches && owner ? owner.password_hash : UNMATCHABLE_HASH);
    return matches && right;
  }

  async checkPassword(owner: OwnerEntity, password: string, ip: string | null): Promise<boolean> {
    return this.passwords.verify(ip, password, owner.password_hash);
  }

  /**
   * Checks a second factor inside the caller's transaction (reading the owner's last used time
   * step there, so two requests with one code cannot both pass). Returns the writes that spend it,
   * or null when it is wrong, used, or replayed.
   */
  async factorIn(m: EntityManager, factor: SecondFactor, now: number): Promise<Spend | null> {
    const owner = await this.owner(m);
    if (!owner) return null;
    if (factor.kind === 'code') {
      const step = acceptedTotpStep(owner.totp_secret, factor.code, now, owner.totp_last_step);
      if (step === null) return null;
      return async () => {
        await m.update(OwnerEntity, { id: 1 }, { totp_last_step: step });
      };
    }
    const row = await m.findOneBy(RecoveryCodeEntity, { code_hash: hashRecoveryCode(factor.code), used_at: IsNull() });
    if (!row) return null;
    return async () => {
      await m.update(RecoveryCodeEntity, { id: row.id }, { used_at: now });
    };
  }

  /**
   * Ends every session but `keep` (null: every session) inside the caller's transaction; returns
   * how many live ones ended. Call announceSignedOut after the commit.
   */
  async signOutOthersIn(m: EntityManager, keep: number | null, now: number): Promise<number> {
    return this.sessions.endAllIn(m, keep, now);
  }

  /** After the commit: open streams of the ended sessions close. */
  announceSignedOut(keep: number | null): void {
    this.bus.emit('access.ended', { kind: 'all-sessions', except: keep });
  }
}
