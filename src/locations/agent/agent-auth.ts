/**
 * The agent routes' own credential (docs/agents.md, "The token"): `Authorization: Bearer fsa_...`,
 * nothing else. The presented token is hashed and the stored hash compared in constant time; the
 * row is read on every request (no cache), so a rotation or a deletion refuses the old token from
 * the very next request. Failed checks are limited per client address, requests per location.
 */
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AppRequest } from '../../common/access/request-context';
import { safeEqual, sha256 } from '../../common/access/tokens';
import { CLOCK, Clock } from '../../common/clock';
import { ApiError } from '../../common/http/api-error';
import { RateLimiter } from '../../common/http/limits/rate-limit';
import { Database } from '../../db/database';
import { locationByHash, LocationRow } from '../../catalog/locations.table';

export const AGENT_TOKEN_PATTERN = /^fsa_[0-9a-f]{48}$/;
export const AGENT_RATE_PER_MINUTE = 600;
export const AGENT_FAILURES_PER_MINUTE = 60;
const REFUSED = 'the agent token is missing, unknown or was replaced (send Authorization: Bearer fsa_...)';

export interface AgentRequest extends AppRequest {
  agentLocation?: LocationRow;
}

/** The location whose token this is, or null: in constant time over the hash. */
export async function locationOfToken(db: Database, token: string): Promise<LocationRow | null> {
  if (!AGENT_TOKEN_PATTERN.test(token)) return null;
  const hash = sha256(token);
  const row = await locationByHash(db, hash);
  return row && safeEqual(row.token_hash, hash) ? row : null;
}

@Injectable()
export class AgentGuard implements CanActivate {
  private readonly perLocation = new RateLimiter(AGENT_RATE_PER_MINUTE);
  private readonly failures = new RateLimiter(AGENT_FAILURES_PER_MINUTE);
  private lastSweep = 0;

  constructor(
    private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<AgentRequest>();
    const now = this.clock.now();
    if (now - this.lastSweep > 300_000) {
      this.perLocation.sweep(now);
      this.failures.sweep(now);
      this.lastSweep = now;
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const row = m ? await locationOfToken(this.db, m[1]) : null;
    if (!row) {
      const d = this.failures.take(req.clientIp ?? req.socket.remoteAddress ?? '', now);
      if (!d.ok) throw this.tooMany(AGENT_FAILURES_PER_MINUTE, 'failed token checks', d.retryAfterS);
      throw new ApiError('sign_in', REFUSED);
    }
    const d = this.perLocation.take(`location:${row.id}`, now);
    if (!d.ok) throw this.tooMany(AGENT_RATE_PER_MINUTE, 'requests', d.retryAfterS);
    req.agentLocation = row;
    return true;
  }

  private tooMany(limit: number, what: string, retryAfterS: number): ApiError {
    return new ApiError('too_many_requests', `rate limit of ${limit} ${what} per minute reached`, {
      headers: { 'Retry-After': String(retryAfterS) },
    });
  }
}
