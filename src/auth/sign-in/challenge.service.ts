/**
 * The optional bot challenge (Cloudflare Turnstile or a compatible siteverify endpoint). When the
 * operator configured one, every sign-in route must carry a token the verifier accepts.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

const VERIFY_TIMEOUT_MS = 5000;

@Injectable()
export class ChallengeService {
  private readonly log = new Logger('challenge');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get siteKey(): string | null {
    return this.config.challenge?.siteKey ?? null;
  }

  /** Throws 403 when the token is missing or refused, 503 when the verifier cannot be reached. */
  async verify(token: unknown, ip: string): Promise<void> {
    const c = this.config.challenge;
    if (!c) return;
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) {
      throw new ApiError('forbidden', 'complete the bot challenge first', { field: 'challenge' });
    }
    let ok = false;
    try {
      const res = await fetch(c.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: c.secret, response: token, remoteip: ip }).toString(),
        signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      });
      const body = (await res.json().catch(() => null)) as { success?: unknown } | null;
      ok = res.ok && body?.success === true;
    } catch (err) {
      this.log.warn(`bot challenge verifier unreachable: ${err instanceof Error ? err.message : String(err)}`);
      throw new ApiError('unavailable', 'the bot challenge could not be checked; try again shortly');
    }
    if (!ok) throw new ApiError('forbidden', 'the bot challenge was not passed', { field: 'challenge' });
  }
}
