/**
 * How every sign-in ends, whatever proved it (setup link, passkey, password + code, recovery code,
 * enrolment link, reset): one place, so no flow forgets a step.
 *
 * 1. The session row, the `sign_in` timeline line and the flow's own writes (a used ticket, a
 *    spent recovery code, a new passkey, the setup's owner row) commit in ONE transaction.
 * 2. Then the owner is emailed (spec "Authentication" 8: a new sign-in is always emailed), in the
 *    background: the answer does not wait for the mail server, and a failing one never fails the
 *    sign-in (the delivery log and the service log say it failed).
 * 3. The caller sets the cookie from the returned token (auth/sessions/session-cookie.ts).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../../common/clock';
import type { AppRequest } from '../../common/access/request-context';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Database } from '../../db/database';
import { EventsService } from '../../events/events.service';
import { MailService } from '../../mail/mail.service';
import { renderOwnerMail, SIGN_IN_WORDS, signInNotice } from '../../mail/owner-mail';
import { describeDevice } from '../sessions/device';
import { OwnerEntity } from '../entities/owner.entity';
import type { SignInMethod } from '../entities/session.entity';
import { NewSession, SessionsService } from '../sessions/sessions.service';

/** Where a sign-in came from: the client address (the guard's, proxy-aware) and the browser in words. */
export interface SignInOrigin {
  ip: string | null;
  device: string | null;
}

export function signInOrigin(req: AppRequest): SignInOrigin {
  const ua = req.headers['user-agent'];
  return { ip: req.clientIp || null, device: describeDevice(typeof ua === 'string' ? ua : null) };
}

@Injectable()
export class SignInService {
  private readonly log = new Logger('sign-in');
  /** Mails being sent (tests and shutdown wait for them). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Database,
    private readonly sessions: SessionsService,
    private readonly events: EventsService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Signs the owner in: `also` runs first inside the same transaction (throw there to refuse:
   * nothing is written). Returns the new session (its token goes into the cookie).
   */
  async signIn(req: AppRequest, method: SignInMethod, also?: (m: EntityManager) => Promise<void>): Promise<NewSession> {
    const origin = signInOrigin(req);
    const session = await this.db.tx(async (m) => {
      if (also) await also(m);
      return this.signInIn(m, origin, method);
    });
    this.notify(origin, method);
    return session;
  }

  /**
   * The writes of a sign-in inside a transaction the caller holds (first-run setup creates the
   * owner in it). The caller must call notify() after its commit.
   */
  async signInIn(m: EntityManager, origin: SignInOrigin, method: SignInMethod): Promise<NewSession> {
    const session = await this.sessions.createIn(m, method, origin.ip, origin.device);
    const how = SIGN_IN_WORDS[method] ?? method;
    await this.events.recordIn(m, {
      kind: 'sign_in',
      text: `signed in with ${how} from ${origin.ip ?? 'an unknown address'}${origin.device ? ` (${origin.device})` : ''}`,
      actor: 'owner',
    });
    return session;
  }

  /** Emails the owner about a sign-in that has committed. */
  notify(origin: SignInOrigin, method: SignInMethod): void {
    const at = this.clock.now();
    const job = (async () => {
      const owner = await this.db.manager.findOneBy(OwnerEntity, { id: 1 });
      if (!owner) return;
      const view = signInNotice({ method, ip: origin.ip, device: origin.device, at, publicUrl: this.config.publicUrl });
      const summary = `sign-in with ${SIGN_IN_WORDS[method] ?? method} from ${origin.ip ?? 'an unknown address'}`;
      await this.mail.sendOwner('sign_in', owner.email, renderOwnerMail(view), summary);
    })().catch((err: unknown) =>
      this.log.error(`sign-in notice failed: ${err instanceof Error ? err.message : String(err)}`),
    );
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  /** Resolves once every sign-in mail started so far has been tried (tests; shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
