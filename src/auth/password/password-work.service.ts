/**
 * Every password hash and check goes through here (scrypt: 32 MiB and ~100 ms of a core each),
 * through one WorkGate (common/http/limits/work-gate.ts): one at a time per client address (an IPv6 client:
 * its /64, as the throttle counts), two at a time in all; a few more wait their turn, and the rest
 * are answered 429 at once, before any hashing. Without it 16 anonymous sign-in attempts at a time
 * ran 16 scrypts at once: +100 MB of memory, and the API's answers waited 0.4 s behind them (the
 * database's calls share Node's thread pool with scrypt). docs/security.md "Throttling".
 */
import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { GateFull, GateLimits, WorkGate } from '../../common/http/limits/work-gate';
import { hashPassword, verifyPassword } from './password';
import { throttleBucket } from '../sign-in/throttle';

export const PASSWORD_GATE: GateLimits = { perKey: 1, total: 2, queuedPerKey: 2, queued: 16 };

export const BUSY_ADDRESS = 'too many password checks from this address at once: wait for the answers, then try again';
export const BUSY = 'too many password checks at once: try again in a second';

@Injectable()
export class PasswordWork {
  private readonly gate = new WorkGate(PASSWORD_GATE);

  /** Whether `password` opens `stored`; 429 when the gate is full. */
  verify(ip: string | null | undefined, password: string, stored: string): Promise<boolean> {
    return this.run(ip, () => verifyPassword(password, stored));
  }

  /** The stored form of a new password; 429 when the gate is full. */
  hash(ip: string | null | undefined, password: string): Promise<string> {
    return this.run(ip, () => hashPassword(password));
  }

  /** Checks running and waiting now (tests watch the limits hold). */
  load(): { running: number; waiting: number } {
    return this.gate.load();
  }

  private async run<T>(ip: string | null | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(throttleBucket(ip), work);
    } catch (err) {
      if (!(err instanceof GateFull)) throw err;
      // Not a failed attempt (no credential was checked): the throttle does not count it.
      throw new ApiError('too_many_requests', err.reason === 'key' ? BUSY_ADDRESS : BUSY, {
        headers: { 'Retry-After': '1' },
      });
    }
  }
}
