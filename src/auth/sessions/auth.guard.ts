/**
 * The one guard: resolves the caller once (API key, else session cookie), applies the per-key
 * rate limit, the cookie CSRF rule, and the route's access rules (decorators.ts).
 */
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../../common/http/api-error';
import { ProxyTrust } from '../../common/http/client-ip';
import { CLOCK, Clock } from '../../common/clock';
import { readCookie } from '../../common/http/cookies';
import { RateLimiter } from '../../common/http/limits/rate-limit';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { Caller } from '../../common/access/caller';
import { PUBLIC, SCOPE, SESSION_ONLY, STEP_UP } from '../../common/access/access';
import { AppRequest } from '../../common/access/request-context';
import { KeyScope, requireAccess } from '../../common/access/scope';
import { SESSION_COOKIE, SessionsService } from './sessions.service';
import { originProblem, ownOrigin } from './origin-rule';

export const API_RATE_PER_MINUTE = 600;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Uploads a session may send (PUT /status-page/logo and /icon); every other change is JSON. */
/**
 * Types a cookie request may upload besides JSON: images (the status page's logo and icon) and
 * octet-stream (the Kuma database of POST /import/kuma). None is CORS-safelisted, so a page of
 * another site cannot send one without a preflight, which is never granted.
 */
const SESSION_UPLOAD_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/svg+xml',
  'application/octet-stream',
]);

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly limiter = new RateLimiter(API_RATE_PER_MINUTE);
  private readonly proxies: ProxyTrust;
  private lastSweep = 0;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.proxies = new ProxyTrust(config.trustProxy);
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<AppRequest>();
    const meta = <T>(key: string) => this.reflector.getAllAndOverride<T>(key, [ctx.getHandler(), ctx.getClass()]);
    const isPublic = meta<boolean>(PUBLIC) === true;
    req.clientIp = this.proxies.clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    const mutating = !SAFE_METHODS.has(req.method);

    const caller = await this.resolveCaller(req, isPublic);
    if (caller) req.caller = caller;
    if (caller?.kind === 'key') this.rateLimit(caller.keyId);

    if (isPublic) {
      // Sign-in routes set cookies: refuse cross-site posts (login CSRF) when the browser says where it came from.
      if (mutating && req.headers.origin !== undefined) this.checkOrigin(req, req.headers.origin);
      return true;
    }
    if (!caller) throw new ApiError('sign_in', 'sign in or send an API key (Authorization: Bearer fs_...)');
    if (caller.kind === 'session' && mutating) this.checkCookieMutation(req);

    if (meta<boolean>(SESSION_ONLY) === true && caller.kind === 'key') {
      throw new ApiError('forbidden', 'this route is for the owner signed in to the dashboard; API keys cannot use it');
    }
    requireAccess(caller, meta<KeyScope>(SCOPE) ?? 'read', meta<boolean>(STEP_UP) === true, this.clock.now());
    return true;
  }

  private async resolveCaller(req: AppRequest, isPublic: boolean): Promise<Caller | null> {
    const ip = req.clientIp ?? '';
    const auth = req.headers.authorization;
    if (auth !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      const key = m ? await this.keys.resolve(m[1], ip) : null;
      if (key) return { kind: 'key', keyId: key.id, name: key.name, scope: key.scope, ip };
      if (isPublic) return null;
      throw new ApiError('sign_in', 'the API key is not valid (unknown, revoked or expired)');
    }
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (token) {
      const s = await this.sessions.resolve(token, ip);
      if (s) return { kind: 'session', sessionId: s.id, freshUntil: s.fresh_until, ip };
    }
    return null;
  }

  private rateLimit(keyId: number): void {
    const now = this.clock.now();
    if (now - this.lastSweep > 300_000) {
      this.limiter.sweep(now);
      this.lastSweep = now;
    }
    const d = this.limiter.take(`key:${keyId}`, now);
    if (!d.ok) {
      throw new ApiError('too_many_requests', `rate limit of ${API_RATE_PER_MINUTE} requests per minute reached`, {
        headers: { 'Retry-After': String(d.retryAfterS) },
      });
    }
  }

  /** The origin rule (origin-rule.ts): the public URL's origin, or the request's own while none is configured. */
  private checkOrigin(req: AppRequest, origin: string): void {
    const peer = req.socket.remoteAddress ?? '';
    const forwarded = req.headers['x-forwarded-proto'];
    const own = ownOrigin({
      host: req.headers.host,
      encrypted: (req.socket as { encrypted?: boolean }).encrypted === true,
      forwardedProto: this.proxies.trusts(peer) && typeof forwarded === 'string' ? forwarded : undefined,
    });
    const problem = originProblem(origin, own, this.config);
    if (problem) throw new ApiError('forbidden', problem);
  }

  /**
   * A cookie request that changes something must come from the dashboard's own origin as JSON, or
   * as an upload (SESSION_UPLOAD_TYPES). Neither type can be sent cross-site
   * without a CORS preflight, which this service never grants; the upload routes check the bytes.
   */
  private checkCookieMutation(req: AppRequest): void {
    if (req.headers.origin === undefined) {
      throw new ApiError('forbidden', `cookie requests that change something need Origin: ${this.config.publicOrigin}`);
    }
    this.checkOrigin(req, req.headers.origin);
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json' && !SESSION_UPLOAD_TYPES.has(type)) {
      throw new ApiError('forbidden', 'cookie requests that change something must send Content-Type: application/json');
    }
  }
}
