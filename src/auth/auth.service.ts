/** GET /auth/state, first-run setup and sign-out. */
import { Injectable } from '@nestjs/common';
import { readCookie } from '../common/http/cookies';
import { API_ROOT } from '../common/http/routes';
import { ShownOnce, shownOnce } from '../common/secrets/shown-once';
import { Database } from '../db/database';
import { ChallengeService } from './sign-in/challenge.service';
import { SetupDto } from './dto/setup.dto';
import { OwnerEntity } from './entities/owner.entity';
import { PasskeyEntity } from './entities/passkey.entity';
import type { SignInMethod } from './entities/session.entity';
import { ownerExists } from './setup/links';
import { AppRequest } from '../common/access/request-context';
import { SESSION_COOKIE, SessionsService } from './sessions/sessions.service';
import { SetupService } from './setup/setup.service';
import { SignInService, signInOrigin } from './sign-in/sign-in.service';
import { ownOrigin } from './sessions/origin-rule';

/** Who holds a session, for the pages (the landing page shows it). */
export interface SignedIn {
  email: string;
  method: SignInMethod;
  since: number;
}

export interface AuthState {
  setup_needed: boolean;
  signed_in: boolean;
  methods: { passkey: boolean; password: boolean };
  challenge_site_key: string | null;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly setup: SetupService,
    private readonly sessions: SessionsService,
    private readonly challenge: ChallengeService,
    private readonly signIns: SignInService,
  ) {}

  async state(req: AppRequest): Promise<AuthState> {
    const owner = await ownerExists(this.db.manager);
    return {
      setup_needed: !owner,
      signed_in: req.caller?.kind === 'session',
      methods: { passkey: owner && (await this.db.manager.count(PasskeyEntity)) > 0, password: owner },
      challenge_site_key: this.challenge.siteKey,
    };
  }

  /** Creates the owner and signs them in; returns the session token and the recovery codes. */
  async completeSetup(
    token: string,
    dto: SetupDto,
    req: AppRequest,
  ): Promise<{ session: string; codes: ShownOnce<string[]> }> {
    const origin = signInOrigin(req);
    await this.challenge.verify(dto.challenge, origin.ip ?? '');
    // One transaction: a failure halfway must not leave an owner without a session or a sign-in line.
    const { codes, also: session } = await this.setup.complete(token, dto, origin.ip ?? null, requestOrigin(req), (m) =>
      this.signIns.signInIn(m, origin, 'setup'),
    );
    this.signIns.notify(origin, 'setup');
    return { session: session.token, codes: shownOnce(codes, `POST /${API_ROOT}/me/recovery-codes makes a new set`) };
  }

  async signedIn(req: AppRequest): Promise<SignedIn | null> {
    const caller = req.caller;
    if (caller?.kind !== 'session') return null;
    const [owner, session] = await Promise.all([
      this.db.manager.findOneBy(OwnerEntity, { id: 1 }),
      this.sessions.byId(caller.sessionId),
    ]);
    return owner && session ? { email: owner.email, method: session.method, since: session.created_at } : null;
  }

  async logout(req: AppRequest): Promise<void> {
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (token) await this.sessions.revokeByToken(token);
  }
}

/**
 * The address the setup page is open at: its Origin (the guard has accepted it by then), or for a
 * client that sends none, the scheme and Host the request came in on.
 */
function requestOrigin(req: AppRequest): string | null {
  if (req.headers.origin !== undefined) return req.headers.origin;
  return ownOrigin({
    host: req.headers.host,
    encrypted: (req.socket as { encrypted?: boolean }).encrypted === true,
    forwardedProto: undefined,
  });
}
