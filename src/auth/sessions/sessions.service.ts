/**
 * Dashboard sessions: a random cookie value, stored only as a hash. A session ends after 14 days
 * without use or 30 days after its sign-in, whichever comes first (session-lifetime.ts); a sign-in
 * or step-up keeps it "fresh" for 12 hours. A sign-out is announced once it has committed
 * (`access.ended`): the session's open streams close.
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, MoreThan, Not } from 'typeorm';
import { CLOCK, Clock } from '../../common/clock';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { SessionEntity, SignInMethod } from '../entities/session.entity';
import { randomToken, sha256 } from '../../common/access/tokens';
import { SESSION_MAX_MS, sessionExpiry } from './session-lifetime';

export const SESSION_COOKIE = 'service_session';
/** The cookie's Max-Age: the absolute lifetime (the server ends idle sessions earlier). */
export const SESSION_TTL_MS = SESSION_MAX_MS;
export const FRESH_MS = 12 * 3600_000;
/** Writes of seen_at / expires_at are coalesced so reads do not become writes on every request. */
const TOUCH_EVERY_MS = 60_000;

export interface NewSession {
  token: string;
  session: SessionEntity;
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A session in a transaction of its own (sign-ins go through SignInService, which also records and mails). */
  async create(method: SignInMethod, ip: string | null, device: string | null): Promise<NewSession> {
    return this.db.tx((m) => this.createIn(m, method, ip, device));
  }

  /**
   * Creates a session inside the caller's transaction (so a sign-in and its session commit
   * together). `device` is the browser in words (describeDevice), never the raw user agent.
   */
  async createIn(
    m: EntityManager,
    method: SignInMethod,
    ip: string | null,
    device: string | null,
  ): Promise<NewSession> {
    const now = this.clock.now();
    const token = randomToken(32);
    const session = await m.save(
      m.create(SessionEntity, {
        token_hash: sha256(token),
        method,
        created_at: now,
        seen_at: now,
        expires_at: sessionExpiry(now, now),
        fresh_until: now + FRESH_MS,
        ip,
        device: device ? device.slice(0, 100) : null,
      }),
    );
    return { token, session };
  }

  /** The live session for a cookie value, or null; extends its life when used. */
  async resolve(token: string, ip: string): Promise<SessionEntity | null> {
    if (token.length < 20 || token.length > 100) return null;
    const now = this.clock.now();
    const [s] = await this.db.read<SessionEntity[]>('SELECT * FROM sessions WHERE token_hash = ?', [sha256(token)]);
    if (!s || s.expires_at <= now) return null;
    if (now - s.seen_at >= TOUCH_EVERY_MS || s.ip !== ip) {
      s.seen_at = now;
      s.expires_at = sessionExpiry(s.created_at, now);
      s.ip = ip;
      await this.db.tx((m) => m.update(SessionEntity, { id: s.id }, { seen_at: now, expires_at: s.expires_at, ip }));
    }
    return s;
  }

  /** A step-up: the session counts as freshly signed in for another FRESH_MS. Returns the new fresh_until. */
  async stepUp(sessionId: number): Promise<number> {
    const freshUntil = this.clock.now() + FRESH_MS;
    await this.db.tx((m) => m.update(SessionEntity, { id: sessionId }, { fresh_until: freshUntil }));
    return freshUntil;
  }

  async revokeByToken(token: string): Promise<void> {
    const ended = await this.db.tx(async (m) => {
      const s = await m.findOneBy(SessionEntity, { token_hash: sha256(token) });
      if (s) await m.delete(SessionEntity, { id: s.id });
      return s?.id ?? null;
    });
    if (ended !== null) this.bus.emit('access.ended', { kind: 'session', sessionId: ended });
  }

  /** Which of these sessions still exist and have not expired at `now` (open streams are checked with it). */
  async liveIds(ids: readonly number[], now: number): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.read<{ id: number }[]>(
      `SELECT id FROM sessions WHERE id IN (${ids.map(() => '?').join(',')}) AND expires_at > ?`,
      [...ids, now],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** One session by id (live or not), or null. Read on the writing connection, as the owner's pages read it. */
  byId(id: number): Promise<SessionEntity | null> {
    return this.db.manager.findOneBy(SessionEntity, { id });
  }

  /** The sessions live at `now`, the most recently used first. */
  live(now: number): Promise<SessionEntity[]> {
    return this.db.manager.find(SessionEntity, {
      where: { expires_at: MoreThan(now) },
      order: { seen_at: 'DESC', id: 'DESC' },
    });
  }

  /** Inside the caller's transaction: ends one session live at `now`; the session ended, or null when there is none. */
  async endIn(m: EntityManager, id: number, now: number): Promise<SessionEntity | null> {
    const s = await m.findOneBy(SessionEntity, { id, expires_at: MoreThan(now) });
    if (s) await m.delete(SessionEntity, { id });
    return s;
  }

  /** Inside the caller's transaction: ends every session but `keep` (null: every one); how many live ones ended. */
  async endAllIn(m: EntityManager, keep: number | null, now: number): Promise<number> {
    const where = keep === null ? {} : { id: Not(keep) };
    const live = await m.countBy(SessionEntity, { ...where, expires_at: MoreThan(now) });
    if (keep === null) await m.createQueryBuilder().delete().from(SessionEntity).execute();
    else await m.delete(SessionEntity, { id: Not(keep) });
    return live;
  }

  async pruneExpired(): Promise<void> {
    const now = this.clock.now();
    await this.db.tx((m) =>
      m.createQueryBuilder().delete().from(SessionEntity).where('expires_at <= :now', { now }).execute(),
    );
  }
}
