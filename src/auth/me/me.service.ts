/**
 * The owner's own view: GET /me, the sessions list, and ending sessions. Ending a session is
 * announced once it has committed (`access.ended`): its open streams close at once.
 */
import { Inject, Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { CLOCK, Clock } from '../../common/clock';
import { toIso } from '../../common/time';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { EventsService } from '../../events/events.service';
import { PasskeyEntity } from '../entities/passkey.entity';
import { RecoveryCodeEntity } from '../entities/recovery-code.entity';
import { SessionEntity, SignInMethod } from '../entities/session.entity';
import { OwnerSecurityService, sessionsWord } from '../password/owner-security.service';
import { SessionsService } from '../sessions/sessions.service';

/** Spec "Owner, session and passkey". */
export interface OwnerAnswer {
  email: string;
  created_at: string;
  session: { method: SignInMethod; created_at: string; fresh_until: string };
  passkeys: number;
  totp: boolean;
  recovery_codes_left: number;
}

export interface SessionRow {
  id: number;
  current: boolean;
  method: SignInMethod;
  created_at: string;
  seen_at: string;
  expires_at: string;
  ip: string | null;
  /** The browser in words ("Firefox on Linux"), or null. */
  device: string | null;
}

function toSessionRow(s: SessionEntity, currentId: number): SessionRow {
  return {
    id: s.id,
    current: s.id === currentId,
    method: s.method,
    created_at: toIso(s.created_at),
    seen_at: toIso(s.seen_at),
    expires_at: toIso(s.expires_at),
    ip: s.ip,
    device: s.device,
  };
}

@Injectable()
export class MeService {
  constructor(
    private readonly db: Database,
    private readonly security: OwnerSecurityService,
    private readonly sessionStore: SessionsService,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async me(sessionId: number): Promise<OwnerAnswer> {
    const m = this.db.manager;
    const [owner, session, passkeys, codesLeft] = await Promise.all([
      this.security.owner(),
      this.sessionStore.byId(sessionId),
      m.count(PasskeyEntity),
      m.countBy(RecoveryCodeEntity, { used_at: IsNull() }),
    ]);
    // The guard resolved this session a moment ago; gone now means it was signed out meanwhile.
    if (!owner || !session) throw new ApiError('sign_in', 'this session has ended; sign in again');
    return {
      email: owner.email,
      created_at: toIso(owner.created_at),
      session: {
        method: session.method,
        created_at: toIso(session.created_at),
        fresh_until: toIso(session.fresh_until),
      },
      passkeys,
      totp: owner.totp_secret !== '',
      recovery_codes_left: codesLeft,
    };
  }

  /** Live sessions: the current one first, then the most recently used. */
  async sessions(currentId: number): Promise<{ items: SessionRow[] }> {
    const rows = await this.sessionStore.live(this.clock.now());
    const current = rows.filter((s) => s.id === currentId);
    return { items: [...current, ...rows.filter((s) => s.id !== currentId)].map((s) => toSessionRow(s, currentId)) };
  }

  /** Ends one session (the current one too: that is a sign-out). */
  async revoke(id: number): Promise<void> {
    const now = this.clock.now();
    await this.db.tx(async (m) => {
      const s = await this.sessionStore.endIn(m, id, now);
      if (!s) throw ApiError.notFound('session');
      await this.events.recordIn(m, {
        kind: 'sessions_revoked',
        text: `session ${id} ended (${s.device ?? 'unknown browser'} from ${s.ip ?? 'an unknown address'})`,
        actor: 'owner',
        data: { signed_out: 1, session_id: id },
      });
    });
    this.bus.emit('access.ended', { kind: 'session', sessionId: id });
  }

  /** Ends every session but the current one; returns how many ended. */
  async revokeOthers(currentId: number): Promise<number> {
    const now = this.clock.now();
    const n = await this.db.tx(async (m) => {
      const ended = await this.security.signOutOthersIn(m, currentId, now);
      await this.events.recordIn(m, {
        kind: 'sessions_revoked',
        text: `every other session ended: ${sessionsWord(ended)} signed out`,
        actor: 'owner',
        data: { signed_out: ended },
      });
      return ended;
    });
    this.security.announceSignedOut(currentId);
    return n;
  }
}
